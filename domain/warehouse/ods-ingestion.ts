/**
 * Data integration (source → ODS): every source table of the approved PRD copied to Parquet under
 * the project's ODS location, read in one consistent snapshot, then registered as views in the
 * layer's DuckDB catalog `plat_<project_id>_ods`. Tables finished by an earlier attempt (heartbeat
 * checkpoint) are not copied again; a table is always replaced whole, so nothing is duplicated.
 *
 * Reads run in parallel when the snapshot can be shared (see ods-snapshot.ts): big tables with an
 * integer key are split into key ranges read side by side, the other tables are copied side by side,
 * one reader each. Otherwise one reader copies table after table, as consistent but slower.
 */
import { openDuckDb } from './duckdb-module';
import { confineConnection, confineInstance } from './duckdb-confinement';
import { fifoRoot } from './ods-fifo';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { Prd } from '../../shared/prd-schema';
import type { SourceSnapshot, SourceTable } from '../../shared/source-schema';
import type { SourceConnector } from '../sources/mysql-connection';
import { openSnapshotReaders } from './ods-snapshot';
import { rowPacer } from './ods-row-pacer';
import { copyTableToParquet, ODS_COPY_SETTINGS, type TableCopyResult } from './ods-table-copy';
import { keyRanges, splitColumn } from './pk-ranges';
import { layerDatabaseFile, layerDir, odsTableFile, sourceSchemaFile } from './warehouse-layout';
import { quoteIdent, quoteLiteral } from '../../shared/sql-quoting';

export interface OdsIngestionResult {
  database_file: string;
  tables: TableCopyResult[];
  warnings: string[];
  rows_copied: number;
  /** Connections that read the source side by side (1 when the snapshot could not be shared). */
  readers: number;
}

export interface OdsIngestionOptions extends Omit<OdsTablesCopyOptions, 'dir' | 'tables'> {
  projectId: string;
  warehouseRoot: string;
  /** The source's tables as explored; the PRD's source tables among them are copied. */
  snapshot: SourceSnapshot;
  prd: Prd;
}

/** Key ranges per reader of a split table: more ranges than readers even out skewed keys. */
const RANGES_PER_READER = 4;

export async function ingestOds(opts: OdsIngestionOptions): Promise<OdsIngestionResult> {
  const wanted = new Set(opts.prd.layers.ods.flatMap((t) => t.source_tables));
  const { tables: done, readers } = await copyOdsTables({
    ...opts,
    dir: layerDir(opts.warehouseRoot, opts.projectId, 'ods'),
    tables: opts.snapshot.tables.filter((t) => wanted.has(t.name)),
  });
  const databaseFile = layerDatabaseFile(opts.warehouseRoot, opts.projectId, 'ods');
  await registerViews(databaseFile, opts.prd, done);
  writeSourceSchema(opts.warehouseRoot, opts.projectId, opts.snapshot, done);
  return {
    database_file: databaseFile,
    tables: done,
    warnings: done.flatMap((d) => d.warnings),
    rows_copied: done.reduce((n, d) => n + d.ods_rows, 0),
    readers,
  };
}

/** Some of a source's tables to copy into `dir`, one Parquet file each. */
export interface OdsTablesCopyOptions {
  dir: string;
  /** The source: a coordinating connection and every reader are opened through it. */
  source: SourceConnector;
  tables: SourceTable[];
  /** Tables an earlier attempt finished (its checkpoint): kept when their files are still there. */
  done: TableCopyResult[];
  onTable: (result: TableCopyResult, done: TableCopyResult[]) => void;
  onProgress?: (table: string, rows: number) => void;
  /** Readers wanted (default: from the machine's cores and where the source runs, 1 to 4). */
  parallel?: number;
  /** Tables estimated at this many rows or more are split into key ranges (default 200,000). */
  splitRows?: number;
  /**
   * Stops the copy (a draining worker): the readers are closed at once, tables already finished stay
   * finished (reported through `onTable`), and the call rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** PLAT_INGEST_MAX_ROWS_PER_SECOND: the most rows per second this copy reads, all readers together. */
  maxRowsPerSecond?: number;
  /** Longest a reader waits for the source's next row (default 10 minutes; TableCopyOptions.idleMs). */
  idleMs?: number;
}

/**
 * Copies `tables` (those not in `done` yet) inside one shared snapshot; returns every finished table
 * and how many readers shared the snapshot (0 when nothing was left to copy).
 */
export async function copyOdsTables(
  opts: OdsTablesCopyOptions,
): Promise<{ tables: TableCopyResult[]; readers: number }> {
  fs.mkdirSync(opts.dir, { recursive: true });
  const names = new Set(opts.tables.map((t) => t.name));
  // Kept only where this version puts the table's file: a checkpoint from before the names were
  // encoded may point elsewhere, and that table is copied again.
  const done = opts.done.filter(
    (d) => names.has(d.table) && d.file === odsTableFile(opts.dir, d.table) && fs.existsSync(d.file),
  );
  const todo = opts.tables.filter((t) => !done.some((d) => d.table === t.name));
  let readers = 0;
  if (todo.length > 0) {
    readers = await copyTables(opts, todo, opts.dir, (result) => {
      done.push(result);
      opts.onTable(result, done);
    });
  }
  return { tables: done, readers };
}

/** Copies `todo` inside one shared snapshot; returns how many readers shared it. */
async function copyTables(
  opts: OdsTablesCopyOptions,
  todo: SourceTable[],
  dir: string,
  finished: (result: TableCopyResult) => void,
): Promise<number> {
  const snapshot = await openSnapshotReaders({
    connect: () => opts.source.connect(),
    tables: todo.map((t) => t.name),
    parallel: opts.parallel ?? defaultParallelism(opts.source),
  });
  const { readers } = snapshot;
  const read = { id: snapshot.id, position: snapshot.position };
  const instance = await openDuckDb(':memory:', ODS_COPY_SETTINGS);
  const pacer = rowPacer(opts.maxRowsPerSecond);
  // Reads only its pipes and writes only the project's ODS (docs/security.md#the-warehouse-sandbox).
  await confineInstance(instance, [dir, fifoRoot()]).catch((err: unknown) => {
    instance.closeSync();
    throw err;
  });
  let failed = true;
  try {
    const maxRowBytes = await maxAllowedPacket(readers[0]);
    const estimates = await estimatedRows(readers[0]);
    const splitRows = opts.splitRows ?? 200_000;
    const big = todo.filter(
      (t) => readers.length > 1 && splitColumn(t) && (estimates.get(t.name) ?? 0) >= splitRows,
    );
    const copy = async (table: SourceTable, lanes: Connection[], ranges: string[]) => {
      const duck = await instance.connect();
      try {
        const result = await copyTableToParquet({
          duck,
          table,
          outFile: odsTableFile(dir, table.name),
          lanes,
          ranges,
          maxRowBytes,
          onProgress: (rows) => opts.onProgress?.(table.name, rows),
          signal: opts.signal,
          pacer,
          idleMs: opts.idleMs,
        });
        finished({ ...result, snapshot: read });
      } finally {
        duck.closeSync();
      }
    };
    // The other tables first, side by side, each reader taking the next table when free. After a
    // failure no new table starts, and the copies under way finish before the readers close.
    const queue = todo.filter((t) => !big.includes(t));
    let failure: { error: unknown } | undefined;
    await Promise.all(
      readers.map(async (reader) => {
        for (let table = queue.shift(); table && !failure && !opts.signal?.aborted; table = queue.shift()) {
          await copy(table, [reader], ['']).catch((error: unknown) => (failure ??= { error }));
        }
      }),
    );
    if (failure) throw failure.error;
    opts.signal?.throwIfAborted();
    // Then each big table with every reader on its key ranges.
    for (const table of big) {
      opts.signal?.throwIfAborted();
      await copy(table, readers, await keyRanges(readers[0], table, readers.length * RANGES_PER_READER));
    }
    failed = false;
    return readers.length;
  } catch (err) {
    // The reason the copy stopped, rather than the broken connection it showed up as.
    opts.signal?.throwIfAborted();
    throw err;
  } finally {
    instance.closeSync();
    await snapshot.close(failed);
  }
}

/**
 * Readers by default. Each reader keeps the source's server busy on one thread, and here this
 * process's thread (shared by all readers) and one of DuckDB's. With the server on another machine,
 * one reader per core (2 to 4) helps; with the server on this machine, the server's threads compete
 * for the same cores: measured on 2 cores with a local MariaDB, 5M rows took 6.5 s with one reader
 * and 7.0 s with two. So a local server gets one reader per 3 cores.
 */
export function defaultParallelism(source: SourceConnector): number {
  const cores = os.availableParallelism();
  if (!source.local) return Math.min(4, Math.max(2, cores));
  return Math.max(1, Math.min(4, Math.floor(cores / 3)));
}

/** The largest packet the source sends: no row is longer. */
export async function maxAllowedPacket(conn: Connection): Promise<number> {
  const [rows] = await conn.query<RowDataPacket[]>('SELECT @@max_allowed_packet AS n');
  return Number(rows[0].n);
}

/** The server's row estimates (no scan): enough to tell big tables from small ones. */
export async function estimatedRows(conn: Connection): Promise<Map<string, number>> {
  const [rows] = await conn.query<RowDataPacket[]>(
    'SELECT table_name AS name, table_rows AS n FROM information_schema.tables WHERE table_schema = DATABASE()',
  );
  return new Map(rows.map((r) => [String(r.name), Number(r.n ?? 0)]));
}

/**
 * The source's schema as copied (keys, foreign keys, counted rows): later stages need the relations,
 * which the Parquet files do not carry.
 */
export function countedSourceSchema(
  snapshot: SourceSnapshot,
  copied: Pick<TableCopyResult, 'table' | 'source_rows'>[],
): SourceSnapshot {
  const counted = new Map(copied.map((c) => [c.table, c.source_rows]));
  const tables = snapshot.tables
    .filter((t) => counted.has(t.name))
    .map((t) => ({ ...t, row_count: counted.get(t.name)!, sample_rows: [] }));
  return { ...snapshot, tables };
}

/** Saves `countedSourceSchema` beside the ODS files (what `reuse_ods` copies along). */
export function writeSourceSchema(
  warehouseRoot: string,
  projectId: string,
  snapshot: SourceSnapshot,
  copied: Pick<TableCopyResult, 'table' | 'source_rows'>[],
): void {
  const file = sourceSchemaFile(warehouseRoot, projectId);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(countedSourceSchema(snapshot, copied), null, 1));
  fs.renameSync(`${file}.tmp`, file);
}

/** The source schema saved by data integration. */
export function readSourceSchema(warehouseRoot: string, projectId: string): SourceSnapshot {
  return JSON.parse(fs.readFileSync(sourceSchemaFile(warehouseRoot, projectId), 'utf8')) as SourceSnapshot;
}

/** The ODS catalog: one view per PRD ODS table over its Parquet file (rebuilt whole each time). */
export async function registerViews(
  databaseFile: string,
  prd: Prd,
  copied: Pick<TableCopyResult, 'table' | 'file'>[],
): Promise<void> {
  const tmp = `${databaseFile}.tmp`;
  fs.rmSync(tmp, { force: true });
  const instance = await openDuckDb(tmp);
  const conn = await instance.connect();
  try {
    await confineConnection(conn, [path.dirname(databaseFile)]);
    for (const odsTable of prd.layers.ods) {
      const source = copied.find((c) => c.table === odsTable.source_tables[0]);
      if (!source) continue;
      await conn.run(
        `CREATE VIEW ${quoteIdent(odsTable.name)} AS SELECT * FROM read_parquet(${quoteLiteral(source.file)})`,
      );
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  fs.renameSync(tmp, databaseFile);
}
