/**
 * Read-only access to a project's ODS catalog for the advisor's profiling: a read session of the
 * embedded warehouse engine, so the advisor reads through the same sandbox as every query (READ_ONLY
 * attach, file access confined to the project's warehouse; docs/architecture.md#one-warehouse-query-path).
 * The ODS is always local (data integration writes it here, whatever engine builds the later layers).
 */
import { DuckDbWarehouse } from '../warehouse/duckdb-warehouse';

/** One result row with every value as JSON (BIGINT and DECIMAL as strings, timestamps as text). */
export type JsonRow = Record<string, string | number | boolean | null>;

/** An open ODS catalog; `close()` must be called. */
export interface OdsCatalog {
  query(sql: string): Promise<JsonRow[]>;
  /** Columns of every table and view, in declaration order. */
  columns(): Promise<Map<string, { name: string; type: string }[]>>;
  close(): void;
}

/** Opens `plat_<project_id>_ods` read-only; throws naming the layer when data integration has not run. */
export async function openOdsCatalog(warehouseRoot: string, projectId: string): Promise<OdsCatalog> {
  const session = await new DuckDbWarehouse(warehouseRoot).openReadSession(projectId, 'ods');
  const query = async (sql: string) => (await session.query(sql)) as JsonRow[];
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
    close: () => session.close(),
  };
}
