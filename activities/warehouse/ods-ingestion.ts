/**
 * Data integration (source → ODS): every source table of the approved PRD copied to Parquet under
 * the project's ODS location, read in one consistent snapshot, then registered as views in the
 * layer's DuckDB catalog `plat_<project_id>_ods`. Tables finished by an earlier attempt (heartbeat
 * checkpoint) are not copied again; a table is always replaced whole, so nothing is duplicated.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import type { Prd } from '../../shared/prd-schema';
import type { SourceSnapshot } from '../../shared/source-schema';
import { copyTableToParquet, type TableCopyResult } from './ods-table-copy';
import { layerDatabaseFile, layerDir, sourceSchemaFile } from './warehouse-layout';

export interface OdsIngestionResult {
  database_file: string;
  tables: TableCopyResult[];
  warnings: string[];
  rows_copied: number;
}

export async function ingestOds(opts: {
  projectId: string;
  warehouseRoot: string;
  mysql: Connection;
  snapshot: SourceSnapshot;
  prd: Prd;
  done: TableCopyResult[];
  onTable: (result: TableCopyResult, done: TableCopyResult[]) => void;
  onProgress?: (table: string, rows: number) => void;
}): Promise<OdsIngestionResult> {
  const dir = layerDir(opts.warehouseRoot, opts.projectId, 'ods');
  fs.mkdirSync(dir, { recursive: true });
  const wanted = new Set(opts.prd.layers.ods.flatMap((t) => t.source_tables));
  const tables = opts.snapshot.tables.filter((t) => wanted.has(t.name));
  const done = [...opts.done.filter((d) => fs.existsSync(d.file))];
  const instance = await DuckDBInstance.create(':memory:');
  const duck = await instance.connect();
  try {
    await opts.mysql.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await opts.mysql.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    for (const table of tables) {
      if (done.some((d) => d.table === table.name)) continue;
      const result = await copyTableToParquet(
        opts.mysql,
        duck,
        table,
        path.join(dir, `${table.name}.parquet`),
        (rows) => opts.onProgress?.(table.name, rows),
      );
      done.push(result);
      opts.onTable(result, done);
    }
    await opts.mysql.query('COMMIT');
  } finally {
    duck.closeSync();
    instance.closeSync();
  }
  const databaseFile = layerDatabaseFile(opts.warehouseRoot, opts.projectId, 'ods');
  await registerViews(databaseFile, opts.prd, done);
  writeSourceSchema(opts.warehouseRoot, opts.projectId, opts.snapshot, done);
  return {
    database_file: databaseFile,
    tables: done,
    warnings: done.flatMap((d) => d.warnings),
    rows_copied: done.reduce((n, d) => n + d.ods_rows, 0),
  };
}

/**
 * The source's schema as copied (keys, foreign keys, counted rows): later stages need the relations,
 * which the Parquet files do not carry.
 */
function writeSourceSchema(
  warehouseRoot: string,
  projectId: string,
  snapshot: SourceSnapshot,
  copied: TableCopyResult[],
): void {
  const counted = new Map(copied.map((c) => [c.table, c.source_rows]));
  const tables = snapshot.tables
    .filter((t) => counted.has(t.name))
    .map((t) => ({ ...t, row_count: counted.get(t.name)!, sample_rows: [] }));
  const file = sourceSchemaFile(warehouseRoot, projectId);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ ...snapshot, tables }, null, 1));
  fs.renameSync(`${file}.tmp`, file);
}

/** The source schema saved by data integration. */
export function readSourceSchema(warehouseRoot: string, projectId: string): SourceSnapshot {
  return JSON.parse(fs.readFileSync(sourceSchemaFile(warehouseRoot, projectId), 'utf8')) as SourceSnapshot;
}

/** The ODS catalog: one view per PRD ODS table over its Parquet file (rebuilt whole each time). */
async function registerViews(databaseFile: string, prd: Prd, copied: TableCopyResult[]): Promise<void> {
  const tmp = `${databaseFile}.tmp`;
  fs.rmSync(tmp, { force: true });
  const instance = await DuckDBInstance.create(tmp);
  const conn = await instance.connect();
  try {
    for (const odsTable of prd.layers.ods) {
      const source = copied.find((c) => c.table === odsTable.source_tables[0]);
      if (!source) continue;
      await conn.run(
        `CREATE VIEW "${odsTable.name}" AS SELECT * FROM read_parquet('${source.file.replace(/'/g, "''")}')`,
      );
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  fs.renameSync(tmp, databaseFile);
}
