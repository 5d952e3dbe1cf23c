/** plat's own data integration (ingestOds) of one table to Parquet, timed. */
import { sourceConnector } from '../domain/sources/mysql-connection';
import * as fs from 'node:fs';
import mysql, { type ConnectionOptions } from 'mysql2/promise';
import { buildOfflinePrd } from '../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../domain/sources/source-explorer';
import { ingestOds } from '../domain/warehouse/ods-ingestion';

export interface PlatRun {
  rows: number;
  seconds: number;
  readers: number;
}

/** Copies `table` of `database` into `warehouseRoot` as a fresh project's ODS (files replaced). */
export async function platCopy(
  options: ConnectionOptions,
  database: string,
  table: string,
  warehouseRoot: string,
  parallel?: number,
): Promise<PlatRun> {
  const conn = await mysql.createConnection({
    ...options,
    database,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  try {
    const explored = await exploreSource(conn, database, { sampleRows: 0, countRows: false });
    const snapshot = { ...explored, tables: explored.tables.filter((t) => t.name === table) };
    const projectId = 'proj-bench-ingest';
    fs.rmSync(`${warehouseRoot}/${projectId}`, { recursive: true, force: true });
    const started = process.hrtime.bigint();
    const result = await ingestOds({
      projectId,
      warehouseRoot,
      source: sourceConnector(
        { host: String(options.host), port: Number(options.port), database, options: {} },
        String(options.user),
        String(options.password ?? ''),
      ),
      snapshot,
      prd: buildOfflinePrd(snapshot),
      done: [],
      onTable: () => {},
      parallel,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const [copied] = result.tables;
    if (copied.ods_rows !== copied.source_rows) {
      throw new Error(`plat copied ${copied.ods_rows} rows of ${copied.source_rows}`);
    }
    return { rows: copied.ods_rows, seconds, readers: result.readers };
  } finally {
    await conn.end();
  }
}
