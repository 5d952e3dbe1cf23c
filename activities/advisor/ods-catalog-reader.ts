/**
 * Read-only access to a project's ODS catalog (DuckDB views over Parquet), opened the same way the
 * gateway's SQL endpoint opens it: READ_ONLY, file access confined to the project's warehouse.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { layerDatabaseFile } from '../warehouse/warehouse-layout';

/** One result row with every value as JSON (BIGINT and DECIMAL as strings, timestamps as text). */
export type JsonRow = Record<string, string | number | boolean | null>;

/** An open ODS catalog; `close()` must be called. */
export interface OdsCatalog {
  query(sql: string): Promise<JsonRow[]>;
  /** Columns of every table and view, in declaration order. */
  columns(): Promise<Map<string, { name: string; type: string }[]>>;
  close(): void;
}

/** Double-quotes an identifier for DuckDB. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A SQL string literal. */
export const quoteLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** Opens `plat_<project_id>_ods` read-only; throws naming the file when data integration has not run. */
export async function openOdsCatalog(warehouseRoot: string, projectId: string): Promise<OdsCatalog> {
  const file = layerDatabaseFile(warehouseRoot, projectId, 'ods');
  if (!fs.existsSync(file)) throw new Error(`the ODS layer is not built: ${file} does not exist`);
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  let conn: DuckDBConnection;
  try {
    conn = await instance.connect();
    await conn.run(`SET allowed_directories = [${quoteLiteral(path.join(warehouseRoot, projectId) + '/')}]`);
    await conn.run('SET enable_external_access = false');
  } catch (err) {
    instance.closeSync();
    throw err;
  }
  const query = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as JsonRow[];
  return {
    query,
    async columns() {
      const rows = await query(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_catalog = current_database() ORDER BY table_name, ordinal_position`,
      );
      const byTable = new Map<string, { name: string; type: string }[]>();
      for (const r of rows) {
        const list = byTable.get(String(r.table_name)) ?? [];
        list.push({ name: String(r.column_name), type: String(r.data_type) });
        byTable.set(String(r.table_name), list);
      }
      return byTable;
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}
