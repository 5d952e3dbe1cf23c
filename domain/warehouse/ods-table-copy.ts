/**
 * Copies one MySQL table into a Parquet file, exactly typed. Each reader ("lane", a connection inside
 * the shared snapshot) streams its key ranges as raw text-protocol rows, turned into tab-separated
 * lines (mostly in place, see ods-csv-encoder.ts) and written to its own named pipe; one DuckDB
 * `COPY … FROM read_csv(<pipes>) TO parquet` parses, casts and writes them as they arrive. Nothing is
 * staged: memory stays bounded whatever the table's size.
 * The file is written beside its final name and renamed when complete, so a retried copy replaces
 * it whole and a failed one leaves no half table.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import type * as net from 'node:net';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import type { SourceTable } from '../../shared/source-schema';
import { planColumn, type ColumnPlan } from './ods-column-mapping';
import type { SnapshotRef } from './source-position';
import { CsvRowEncoder, LINE_OVERHEAD, csvReadOptions, type ValueKind } from './ods-csv-encoder';
import { abandonFifos, createFifos, endFifoWriter, openFifoWriter, type FifoSet } from './ods-fifo';
import { callbackConnection, queryRowPackets } from './ods-row-packets';
import type { RowPacer } from './ods-row-pacer';
import { watchRows } from './ods-row-watchdog';
import { SourceMisbehavedError } from '../sources/bounded-source';
import { quoteMysqlIdent, quoteIdent, quoteLiteral } from '../../shared/sql-quoting';

export interface TableCopyResult {
  table: string;
  /** Rows the source returned inside the snapshot (every key range together). */
  source_rows: number;
  /** Rows in the written Parquet file. */
  ods_rows: number;
  file: string;
  warnings: string[];
  /** Connections that read the table side by side. */
  readers?: number;
  /** The snapshot the rows were read in (absent in checkpoints written before it was recorded). */
  snapshot?: SnapshotRef;
}

export interface TableCopyOptions {
  /** A DuckDB connection for this copy alone (copies may run side by side). */
  duck: DuckDBConnection;
  table: SourceTable;
  outFile: string;
  /** Connections inside the shared snapshot; used up to one per range. */
  lanes: Connection[];
  /** WHERE predicates that together cover the table (`['']`: the whole table). */
  ranges: string[];
  /** The longest row the source can send (its max_allowed_packet), to size DuckDB's line buffer. */
  maxRowBytes: number;
  onProgress?: (rows: number) => void;
  /** Stops the copy: the reads end at once and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Caps the rows per second read (shared by every table of one copy); unset: as fast as it goes. */
  pacer?: RowPacer;
  /**
   * Longest a reader waits for the source's next row before the copy fails (default 10 minutes):
   * a source that stalls mid-copy holds no worker slot for longer (docs/security.md#sources).
   */
  idleMs?: number;
}

/** How long a reader waits for a row unless told otherwise: exploring's bound too. */
export const COPY_IDLE_MS = 10 * 60_000;

/** The Parquet encoding: zstd; v2 pages and no dictionaries write about twice as fast, and smaller. */
export const PARQUET_OPTIONS =
  "FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, PARQUET_VERSION V2, DICTIONARY_SIZE_LIMIT 1, ROW_GROUP_SIZE_BYTES '128MB'";
/**
 * Rows of one row group of an ODS file at most (DuckDB's default ROW_GROUP_SIZE, which the options
 * above keep). DuckDB splits a scan by row group: a table no larger is read by one thread.
 */
export const ODS_ROWS_PER_ROW_GROUP = 122_880;
const PROGRESS_EVERY = 50_000;

/**
 * Settings of the DuckDB instance a copy runs in, fixed when it opens (its configuration is then
 * locked: docs/security.md#the-warehouse-sandbox). Row order is not kept (nothing depends on it):
 * DuckDB then writes row groups as they fill, bounded in bytes as well as rows.
 */
export const ODS_COPY_SETTINGS = { preserve_insertion_order: 'false' };

export async function copyTableToParquet(opts: TableCopyOptions): Promise<TableCopyResult> {
  const { table, outFile } = opts;
  const plans = table.columns.map(planColumn);
  const lanes = opts.lanes.slice(0, Math.max(1, Math.min(opts.lanes.length, opts.ranges.length)));
  // Its own temporary name: an attempt given up on (heartbeat timeout) may still be writing beside its retry.
  const tmp = `${outFile}.${randomUUID().slice(0, 8)}.tmp`;
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.rmSync(tmp, { force: true });
  const fifos = await createFifos(lanes.length);
  const copy = startCopy(opts.duck, plans, fifos.paths, tmp, opts.maxRowBytes);
  const run = new LaneRun(table, plans, opts.ranges, opts.onProgress, opts.signal, opts.pacer);
  run.idleMs = opts.idleMs ?? COPY_IDLE_MS;
  const lanesDone = lanes.map((conn, i) => run.lane(conn, fifos.paths[i], copy.failed));
  try {
    await Promise.all([...lanesDone, copy.done]);
  } catch (err) {
    await abort(lanes, run, fifos, [...lanesDone, copy.done]);
    fs.rmSync(tmp, { force: true });
    // A source that stalled is the reason, whatever DuckDB made of the pipes ending early.
    if (err instanceof SourceMisbehavedError) throw err;
    // DuckDB's own error says more than the broken pipe the readers saw because of it.
    throw (
      (await copy.done.then(
        () => undefined,
        (copyError: unknown) => copyError,
      )) ?? err
    );
  } finally {
    fifos.dispose();
  }
  fs.renameSync(tmp, outFile);

  const lenient = plans.filter((p) => p.lenient);
  const [stats] = (
    await opts.duck.runAndReadAll(
      `SELECT COUNT(*) AS n${lenient.map((p, i) => `, COUNT(${quoteIdent(p.name)}) AS c${i}`).join('')} FROM read_parquet(${quoteLiteral(outFile)})`,
    )
  ).getRowObjectsJS() as Record<string, bigint>[];
  const odsRows = Number(stats.n);
  const warnings = lenient.flatMap((p, i) => {
    // NULLs in the file that the source did not have: values the cast could not take.
    const invalid = odsRows - Number(stats[`c${i}`]) - run.nulls[plans.indexOf(p)];
    if (invalid <= 0) return [];
    const what = p.odsType === 'TIME' ? 'times outside 00:00:00-24:00:00' : 'zero or invalid dates';
    return [`${table.name}.${p.name}: ${invalid} ${what} stored as NULL`];
  });
  opts.onProgress?.(run.rows);
  return {
    table: table.name,
    source_rows: run.rows,
    ods_rows: odsRows,
    file: outFile,
    warnings,
    readers: lanes.length,
  };
}

/** Starts DuckDB reading every pipe into the Parquet file. */
function startCopy(
  duck: DuckDBConnection,
  plans: ColumnPlan[],
  pipes: string[],
  file: string,
  maxRowBytes: number,
) {
  const csvTypes = Object.fromEntries(plans.map((p) => [p.name, p.csvType]));
  // DuckDB's read buffer must exceed the longest line: bounded by the declared column sizes when
  // all have one (smaller buffers keep the pipe flowing), else by the largest packet the source sends.
  const declared = plans.reduce<number | undefined>(
    (sum, p) => (sum === undefined || p.maxBytes === undefined ? undefined : sum + p.maxBytes + 1),
    1,
  );
  const maxLine = LINE_OVERHEAD + Math.min(declared ?? Infinity, 2 * maxRowBytes + 1024 * 1024);
  let failed = false;
  const done = duck
    .run(
      `COPY (SELECT ${plans.map((p) => p.odsSelect).join(', ')}
               FROM read_csv([${pipes.map(quoteLiteral).join(', ')}], ${csvReadOptions(csvTypes, maxLine)}))
         TO ${quoteLiteral(file)} (${PARQUET_OPTIONS})`,
    )
    .then(() => undefined)
    .catch((err: unknown) => {
      failed = true;
      throw err;
    });
  // Observed by the lanes; the failure itself is reported through `done`.
  done.catch(() => {});
  return { done, failed: () => failed };
}

/** The readers of one table: ranges are taken in turn by whichever lane is free. */
class LaneRun {
  rows = 0;
  readonly nulls: number[];
  private next = 0;
  private reported = 0;
  private readonly sockets: net.Socket[] = [];
  private readonly kinds: ValueKind[];
  private readonly sql: (range: string) => string;

  /** Longest a lane waits for its next row (TableCopyOptions.idleMs). */
  idleMs = COPY_IDLE_MS;

  constructor(
    private readonly table: SourceTable,
    plans: ColumnPlan[],
    private readonly ranges: string[],
    private readonly onProgress?: (rows: number) => void,
    private readonly signal?: AbortSignal,
    private readonly pacer?: RowPacer,
  ) {
    this.nulls = plans.map(() => 0);
    this.kinds = plans.map((p) => p.kind);
    const select = `SELECT ${plans.map((p) => p.sourceSelect).join(', ')} FROM ${quoteMysqlIdent(table.name)}`;
    this.sql = (range) => (range ? `${select} WHERE ${range}` : select);
  }

  async lane(conn: Connection, pipe: string, copyFailed: () => boolean): Promise<void> {
    const socket = await openFifoWriter(pipe, copyFailed);
    this.sockets.push(socket);
    const raw = callbackConnection(conn);
    let writeError: Error | undefined;
    socket.on('error', (err) => (writeError ??= err));
    let reading = false;
    // The connection reads while nothing holds it: a full pipe (until 'drain'), the pacer (until
    // its wait ends). Each hold is released once.
    let holds = 0;
    const hold = () => {
      if (holds++ === 0) raw.pause();
    };
    const release = () => {
      if (--holds === 0 && !socket.destroyed) raw.resume();
    };
    const encoder = new CsvRowEncoder(this.kinds, (chunk) => {
      // A full pipe pauses this lane's reads until DuckDB has caught up. Only while a query runs:
      // the last chunk is followed by end(), after which the pipe emits no 'drain'.
      if (!socket.write(chunk) && reading && !socket.destroyed) {
        hold();
        socket.once('drain', release);
      }
    });
    // A source that stops sending mid-copy fails the copy rather than hold it (ods-row-watchdog.ts).
    // A destroyed connection does not always end its query: the stall stops the read itself.
    let laneRows = 0;
    let stalled: SourceMisbehavedError | undefined;
    const stall = new AbortController();
    const signal = this.signal ? AbortSignal.any([this.signal, stall.signal]) : stall.signal;
    const stopWatching = watchRows(
      { rows: () => laneRows, waiting: () => reading && holds === 0 },
      this.idleMs,
      () => {
        stalled = new SourceMisbehavedError(
          `the source sent no row of ${this.table.name} for ${this.idleMs / 1000} s while the copy waited`,
        );
        stall.abort(stalled);
        conn.destroy();
      },
    );
    try {
      while (this.next < this.ranges.length) {
        const range = this.ranges[this.next++];
        reading = true;
        await queryRowPackets(
          raw,
          this.sql(range),
          (buffer, start, end) => {
            laneRows++;
            encoder.encode(buffer, start, end);
            const wait = this.pacer?.take() ?? 0;
            if (wait > 0) {
              hold();
              setTimeout(release, wait);
            }
            if (++this.rows - this.reported >= PROGRESS_EVERY) {
              this.reported = this.rows;
              this.onProgress?.(this.rows);
            }
          },
          signal,
        );
        reading = false;
        if (writeError) throw writeError;
      }
    } catch (err) {
      throw stalled ?? err;
    } finally {
      stopWatching();
    }
    encoder.flush();
    encoder.nulls.forEach((n, i) => (this.nulls[i] += n));
    await endFifoWriter(socket);
    if (writeError) throw writeError;
  }

  /** Stops writing: DuckDB sees every pipe end. */
  closeSockets(): void {
    for (const s of this.sockets) s.destroy();
  }
}

/**
 * After a failure: drops the lanes' connections (their reads cannot be stopped cleanly, and the
 * snapshot is lost with them: the attempt fails as a whole), ends every pipe so DuckDB finishes,
 * and waits for everything to settle.
 */
async function abort(lanes: Connection[], run: LaneRun, fifos: FifoSet, pending: Promise<unknown>[]) {
  for (const conn of lanes) conn.destroy();
  run.closeSockets();
  abandonFifos(fifos);
  await Promise.allSettled(pending);
}
