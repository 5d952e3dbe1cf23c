/**
 * Refreshes a project's ODS from its source (docs/refresh.md): every table read in one consistent
 * snapshot, each only as far as its plan allows (refresh-reads.ts): the changed rows merged into its
 * file by key, the rows deleted in the source dropped where its keys can be compared, or the table
 * read whole. Each file is replaced whole and at once, so a refresh cut short leaves every table as
 * it was or as refreshed, and the next attempt reads from what the ODS then holds.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import type { PrdRefresh } from '../../../shared/prd-refresh';
import type { Prd } from '../../../shared/prd-schema';
import type { TableRefreshSummary } from '../../../shared/refresh-model';
import type { SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { quoteIdent, quoteLiteral } from '../../../shared/sql-quoting';
import { pathInside, fileNameFor } from '../../../shared/safe-file-name';
import type { SourceConnector } from '../../sources/mysql-connection';
import { confineInstance } from '../duckdb-confinement';
import { openDuckDb } from '../duckdb-module';
import { fifoRoot } from '../ods-fifo';
import {
  defaultParallelism,
  maxAllowedPacket,
  readSourceSchema,
  registerViews,
  writeSourceSchema,
} from '../ods-ingestion';
import { rowPacer, type RowPacer } from '../ods-row-pacer';
import { openSnapshotReaders } from '../ods-snapshot';
import { copyTableToParquet, ODS_COPY_SETTINGS, type TableCopyResult } from '../ods-table-copy';
import { layerDatabaseFile, layerDir, odsTableFile } from '../warehouse-layout';
import { mergeChanges } from './ods-merge';
import {
  clearDeltas,
  forgetDelta,
  openDeltaLog,
  recordDelta,
  wholeTableDelta,
  type DeltaLog,
} from './ods-delta';
import { tableRead, type TableRead } from './refresh-reads';
import {
  bucketParts,
  bucketsWithDeletes,
  keyBuckets,
  type KeyBuckets,
  mergedBucketCounts,
  rangePredicate,
  sourceBucketCounts,
} from './key-buckets';
import { INTEGER } from '../../sources/value-keys';
import { closeChangeLog, logChanges, openChangeLog, type ChangeLogWriter } from './change-log';
import type { SnapshotRef } from '../source-position';

export interface OdsRefreshOptions {
  warehouseRoot: string;
  projectId: string;
  source: SourceConnector;
  /** The approved PRD: its refresh plan (a table it does not name is read whole) and ODS views. */
  prd: Prd;
  onProgress?: (table: string, rows: number) => void;
  signal?: AbortSignal;
  /** The most rows per second the refresh reads, all readers together (0 or unset: no cap). */
  maxRowsPerSecond?: number;
  parallel?: number;
  /** Names the refresh's work folder (default `refresh`): an attempt given up on never shares its retry's. */
  workName?: string;
  /**
   * Keep each table's changed rows beside the ODS for the layers' rebuild (ods-delta.ts; default
   * true). False when the layers are rebuilt elsewhere, whole (Athena).
   */
  keepDeltas?: boolean;
  /** Read every table whole, whatever its plan (a backfill: the source may have changed unstamped). */
  readWhole?: boolean;
}

/** What a refresh did to one table (the project record's shape), with the copy's warnings. */
export interface TableRefresh extends TableRefreshSummary {
  warnings: string[];
}

export interface OdsRefreshResult {
  tables: TableRefresh[];
  /** The snapshot every table was read in. */
  snapshot: SnapshotRef;
  rows_read: number;
}

/** One read of the source into a file: a table's changed rows, its keys, or all of it. */
interface SourceRead {
  table: SourceTable;
  file: string;
  predicate: string;
}

export async function refreshOds(opts: OdsRefreshOptions): Promise<OdsRefreshResult> {
  const dir = layerDir(opts.warehouseRoot, opts.projectId, 'ods');
  const schema = readSourceSchema(opts.warehouseRoot, opts.projectId);
  const work = pathInside(dir, 'refresh', fileNameFor(opts.workName ?? 'run'));
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const instance = await openDuckDb(':memory:', ODS_COPY_SETTINGS);
  try {
    // Reads only its pipes and writes only the project's ODS (docs/security.md#the-warehouse-sandbox).
    await confineInstance(instance, [dir, fifoRoot()]);
    const duck = await instance.connect();
    let reads: TableRead[];
    try {
      reads = opts.readWhole
        ? schema.tables.map((t) => ({
            table: t.name,
            kind: 'whole',
            why: 'a backfill reads every table whole',
          }))
        : await planReads(duck, dir, schema, opts.prd.refresh);
    } finally {
      duck.closeSync();
    }
    const { copies, snapshot } = await readSource(opts, instance, schema, reads, work);
    const tables: TableRefresh[] = [];
    if (opts.keepDeltas === false) clearDeltas(opts.warehouseRoot, opts.projectId);
    const deltas = opts.keepDeltas === false ? undefined : openDeltaLog(dir);
    const changeLog = opts.keepDeltas === false ? undefined : openChangeLog(dir, Date.now());
    for (const read of reads) {
      opts.signal?.throwIfAborted();
      tables.push(await applyRead(instance, dir, read, copies, { deltas, changeLog }));
    }
    writeSourceSchema(
      opts.warehouseRoot,
      opts.projectId,
      schema,
      tables.map((t) => ({ table: t.table, source_rows: t.rows_after })),
    );
    // The catalog again: retention may have removed it with the files of an idle ODS.
    await registerViews(
      layerDatabaseFile(opts.warehouseRoot, opts.projectId, 'ods'),
      opts.prd,
      tables.map((t) => ({ table: t.table, file: odsTableFile(dir, t.table) })),
    );
    if (changeLog) closeChangeLog(changeLog);
    return { tables, snapshot, rows_read: tables.reduce((n, t) => n + t.rows_read, 0) };
  } finally {
    instance.closeSync();
    fs.rmSync(path.dirname(work), { recursive: true, force: true });
  }
}

/** Each copied table's read, from the greatest value of its plan's column in its ODS file. */
async function planReads(
  duck: DuckDBConnection,
  dir: string,
  schema: SourceSnapshot,
  plan: PrdRefresh[],
): Promise<TableRead[]> {
  const reads: TableRead[] = [];
  for (const table of schema.tables) {
    const entry = plan.find((p) => p.table === table.name);
    const file = odsTableFile(dir, table.name);
    let mark: string | undefined;
    if (entry?.column && entry.detect !== 'full' && fs.existsSync(file)) {
      const [row] = (
        await duck
          .runAndReadAll(
            `SELECT CAST(MAX(${quoteIdent(entry.column)}) AS VARCHAR) AS mark FROM read_parquet(${quoteLiteral(file)})`,
          )
          .catch(() => undefined)
      )?.getRowObjectsJS() ?? [{ mark: null }];
      mark = row.mark === null ? undefined : String(row.mark);
    }
    const read: TableRead = fs.existsSync(file)
      ? tableRead(table, entry, mark)
      : { table: table.name, kind: 'whole', why: 'its ODS file is missing' };
    if (read.kind === 'changes' && read.keySet)
      read.buckets = await odsKeyBuckets(duck, file, table, read.key);
    reads.push(read);
  }
  return reads;
}

/** Buckets of a table with one integer key, over the key span its ODS holds (key-buckets.ts). */
async function odsKeyBuckets(duck: DuckDBConnection, file: string, table: SourceTable, key: string[]) {
  const column = table.columns.find((c) => c.name === key[0]);
  if (key.length !== 1 || !column || !INTEGER.test(column.data_type)) return undefined;
  const k = quoteIdent(column.name);
  const [span] = (
    await duck.runAndReadAll(
      `SELECT CAST(MIN(${k}) AS VARCHAR) AS lo, CAST(MAX(${k}) AS VARCHAR) AS hi FROM read_parquet(${quoteLiteral(file)})`,
    )
  ).getRowObjectsJS();
  return keyBuckets(column.name, span.lo as string | null, span.hi as string | null);
}

/**
 * Where each read's rows went, by table: `rows` (changed or whole) and, for a key-set check, `keys`:
 * every key, or with buckets only those in `keyRanges`, the ranges where rows were deleted.
 */
type Copies = Map<string, { rows: TableCopyResult; keys?: TableCopyResult; keyRanges?: [bigint, bigint][] }>;

/**
 * Readers that share one table's count of rows per bucket: the count scans the whole table in the
 * source, the longest step of a refresh, and a server scans key ranges side by side (measured on 2
 * cores, 5,000,000 rows: 2.8-3.3 s on one reader, 2.2-2.5 s on two).
 */
const COUNT_PARTS = 2;

/** Per-bucket counts of the parts of a table, added up. */
function sumCounts(parts: Map<string, number>[]): Map<string, number> {
  const sum = new Map<string, number>();
  for (const part of parts) for (const [bucket, n] of part) sum.set(bucket, (sum.get(bucket) ?? 0) + n);
  return sum;
}

/** A copy to make in the snapshot, and where its result goes. */
type CopyJob = SourceRead & { into: (r: TableCopyResult) => void };

/** Each read's copies: its rows (changed or whole) and, for a key-set check without buckets, its keys. */
function copyJobs(schema: SourceSnapshot, reads: TableRead[], work: string, copies: Copies): CopyJob[] {
  const jobs: CopyJob[] = [];
  for (const read of reads) {
    const table = schema.tables.find((t) => t.name === read.table)!;
    const base = fileNameFor(table.name);
    jobs.push({
      table,
      file: pathInside(work, `${base}.rows.parquet`),
      predicate: read.kind === 'changes' ? read.predicate : '',
      into: (rows) => copies.set(table.name, { ...copies.get(table.name), rows }),
    });
    if (read.kind === 'changes' && read.keySet && !read.buckets)
      jobs.push({
        table: { ...table, columns: read.key.map((k) => table.columns.find((c) => c.name === k)!) },
        file: pathInside(work, `${base}.keys.parquet`),
        predicate: '',
        into: (keys) => copies.set(table.name, { ...copies.get(table.name)!, keys }),
      });
  }
  return jobs;
}

/** Every read in one snapshot, side by side on its readers. */
async function readSource(
  opts: OdsRefreshOptions,
  instance: DuckDBInstance,
  schema: SourceSnapshot,
  reads: TableRead[],
  work: string,
): Promise<{ copies: Copies; snapshot: SnapshotRef }> {
  const copies: Copies = new Map();
  const jobs = copyJobs(schema, reads, work, copies);
  // The source's rows per key bucket, counted beside the reads in the same snapshot: the count is
  // a scan of the table's smallest index, as long as the reads take, and needs nothing from them.
  const counts = new Map<string, Promise<Map<string, number>>>();
  // Each table's count shared among COUNT_PARTS readers, by runs of whole buckets.
  const counting: { table: string; buckets: KeyBuckets; where: string }[] = [];
  for (const read of reads)
    if (read.kind === 'changes' && read.buckets)
      for (const where of bucketParts(read.buckets, COUNT_PARTS))
        counting.push({ table: read.table, buckets: read.buckets, where });
  const partCounts = new Map<string, Promise<Map<string, number>>[]>();
  const snapshot = await openSnapshotReaders({
    connect: () => opts.source.connect(),
    tables: reads.map((r) => r.table),
    // A reader of its own for each part of a count (the count is the source's work, the reads ours).
    parallel: Math.min(jobs.length, opts.parallel ?? defaultParallelism(opts.source)) + counting.length,
  });
  let failed = true;
  try {
    const maxRowBytes = await maxAllowedPacket(snapshot.readers[0]);
    const pacer = rowPacer(opts.maxRowsPerSecond);
    const queue = [...jobs];
    let failure: { error: unknown } | undefined;
    await Promise.all(
      snapshot.readers.map(async (reader, i) => {
        // The last readers count first (the first reads the lost keys afterwards).
        const count = counting[snapshot.readers.length - 1 - i];
        if (count && snapshot.readers.length > counting.length) {
          const counted = sourceBucketCounts(reader, count.table, count.buckets, count.where);
          partCounts.set(count.table, [...(partCounts.get(count.table) ?? []), counted]);
          await counted.catch((error: unknown) => (failure ??= { error }));
        }
        for (let job = queue.shift(); job && !failure; job = queue.shift()) {
          opts.signal?.throwIfAborted();
          await readInto(instance, reader, job, maxRowBytes, pacer, opts)
            .then(job.into)
            .catch((error: unknown) => (failure ??= { error }));
        }
      }),
    );
    if (failure) throw failure.error;
    for (const [table, parts] of partCounts) counts.set(table, Promise.all(parts).then(sumCounts));
    // Then, still in the snapshot, deletes found by counting: only the keys of the buckets that lost rows.
    for (const read of reads)
      if (read.kind === 'changes' && read.buckets)
        await readLostKeys({
          instance,
          reader: snapshot.readers[0],
          schema,
          read,
          copies,
          work,
          maxRowBytes,
          pacer,
          opts,
          sourceCounts: counts.get(read.table),
        });
    failed = false;
    return { copies, snapshot: { id: snapshot.id, position: snapshot.position } };
  } catch (err) {
    opts.signal?.throwIfAborted();
    throw err;
  } finally {
    await snapshot.close(failed);
  }
}

/** The keys of the buckets where the ODS would hold more rows than the source: rows deleted there. */
async function readLostKeys(c: {
  instance: DuckDBInstance;
  reader: Connection;
  schema: SourceSnapshot;
  read: Extract<TableRead, { kind: 'changes' }>;
  copies: Copies;
  work: string;
  maxRowBytes: number;
  pacer: RowPacer | undefined;
  opts: OdsRefreshOptions;
  /** The source's counts, when taken beside the reads. */
  sourceCounts?: Promise<Map<string, number>>;
}): Promise<void> {
  const { read } = c;
  const buckets = read.buckets!;
  const table = c.schema.tables.find((t) => t.name === read.table)!;
  const entry = c.copies.get(table.name)!;
  const duck = await c.instance.connect();
  let odsCounts;
  try {
    const ods = odsTableFile(path.dirname(path.dirname(c.work)), table.name);
    odsCounts = await mergedBucketCounts(duck, { ods, changes: entry.rows.file }, read.key, buckets);
  } finally {
    duck.closeSync();
  }
  const ranges = bucketsWithDeletes(
    odsCounts,
    await (c.sourceCounts ?? sourceBucketCounts(c.reader, table.name, buckets)),
    buckets,
  );
  entry.keyRanges = ranges;
  if (!ranges.length) return;
  entry.keys = await readInto(
    c.instance,
    c.reader,
    {
      table: { ...table, columns: read.key.map((k) => table.columns.find((col) => col.name === k)!) },
      file: pathInside(c.work, `${fileNameFor(table.name)}.keys.parquet`),
      predicate: rangePredicate(buckets.column, ranges, true),
    },
    c.maxRowBytes,
    c.pacer,
    c.opts,
  );
}

async function readInto(
  instance: DuckDBInstance,
  reader: Connection,
  job: SourceRead,
  maxRowBytes: number,
  pacer: RowPacer | undefined,
  opts: OdsRefreshOptions,
): Promise<TableCopyResult> {
  const duck = await instance.connect();
  try {
    return await copyTableToParquet({
      duck,
      table: job.table,
      outFile: job.file,
      lanes: [reader],
      ranges: [job.predicate],
      maxRowBytes,
      onProgress: (rows) => opts.onProgress?.(job.table.name, rows),
      signal: opts.signal,
      pacer,
    });
  } finally {
    duck.closeSync();
  }
}

/** One table's rows read into its ODS file: merged by key, or replacing it. */
async function applyRead(
  instance: DuckDBInstance,
  dir: string,
  read: TableRead,
  copies: Copies,
  logs: { deltas?: DeltaLog; changeLog?: ChangeLogWriter },
): Promise<TableRefresh> {
  const { rows, keys } = copies.get(read.table)!;
  const file = odsTableFile(dir, read.table);
  const duck = await instance.connect();
  const { deltas, changeLog } = logs;
  // The changed rows go to the layers' pending changes and to the change log.
  const record = deltas
    ? async (select: string) => {
        await recordDelta(duck, deltas, file, select);
        if (changeLog) await logChanges(duck, changeLog, file, select);
      }
    : undefined;
  try {
    const had = fs.existsSync(file);
    const before = had ? await countRows(duck, file) : 0;
    if (read.kind === 'whole') {
      if (record && had) await record(wholeTableDelta(file, rows.file));
      else {
        forgetDelta(file);
        // No earlier copy to compare: every row is logged as new.
        if (changeLog)
          await logChanges(duck, changeLog, file, `SELECT * FROM read_parquet(${quoteLiteral(rows.file)})`);
      }
      fs.renameSync(rows.file, file);
      return {
        table: read.table,
        read: 'whole',
        detail: read.why,
        rows_read: rows.source_rows,
        rows_before: before,
        rows_after: rows.ods_rows,
        rows_deleted: 0,
        warnings: rows.warnings,
      };
    }
    const { keyRanges } = copies.get(read.table)!;
    const merged = await mergeChanges(duck, {
      file,
      changes: rows.file,
      keys: keys?.file,
      keyRanges,
      key: read.key,
      column: read.column,
      recordDelta: record,
    });
    return {
      table: read.table,
      read: 'changes',
      detail: `${read.detect === 'key' ? 'keys after' : 'changed since'} ${read.since} (${read.column})`,
      rows_read: rows.source_rows + (keys?.source_rows ?? 0),
      rows_before: before,
      rows_after: merged.rows,
      rows_deleted: merged.deleted,
      watermark: merged.watermark,
      warnings: rows.warnings,
    };
  } finally {
    duck.closeSync();
  }
}

async function countRows(duck: DuckDBConnection, file: string): Promise<number> {
  const [row] = (
    await duck.runAndReadAll(`SELECT COUNT(*) AS n FROM read_parquet(${quoteLiteral(file)})`)
  ).getRowObjectsJS();
  return Number(row.n);
}
