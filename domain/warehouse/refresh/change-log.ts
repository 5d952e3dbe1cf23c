/**
 * The ODS's change log (docs/dbt-export.md#incremental-models): each refresh's changed rows, old and
 * new versions, kept beside the ODS for the readers that carry the warehouse on elsewhere (the dbt
 * project's incremental models). One folder a refresh, `ods/change-log/<epoch ms>/<file>.parquet`,
 * each row stamped `_plat_changed_at` with the refresh's time; written aside and moved in whole when
 * the refresh's ODS is written, so a reader never sees half a refresh. Folders older than the
 * retention are removed, and the newest removed stamp is kept in `trimmed-through`, so a reader that
 * last read before it knows its changes are gone.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { quoteLiteral } from '../../../shared/sql-quoting';
import { PARQUET_OPTIONS } from '../ods-table-copy';

const LOG = 'change-log';
const WORK = 'change-log-work';
/** The newest stamp removed by retention, as text (epoch milliseconds). */
const TRIMMED = 'trimmed-through';
/** The column each logged row carries: when the refresh that changed it started. */
export const CHANGED_AT = '_plat_changed_at';
/** How long a refresh's changes are kept: a reader must read more often than this. */
export const CHANGE_LOG_DAYS = 35;

/** One refresh's change log, being written. */
export interface ChangeLogWriter {
  odsDir: string;
  stamp: number;
  work: string;
}

/** Starts the change log of a refresh that started at `stamp` (epoch milliseconds). */
export function openChangeLog(odsDir: string, stamp: number): ChangeLogWriter {
  const work = path.join(odsDir, WORK, String(stamp));
  fs.mkdirSync(work, { recursive: true });
  return { odsDir, stamp, work };
}

/**
 * Logs the rows `select` returns as changes of ODS file `odsFile` (added to any logged before). A
 * table's changes are logged before its ODS file is replaced: a refresh that fails between logs a
 * change it did not make, which makes a reader recompute a day for nothing, never miss one.
 */
export async function logChanges(
  duck: DuckDBConnection,
  log: ChangeLogWriter,
  odsFile: string,
  select: string,
): Promise<void> {
  const file = path.join(log.work, path.basename(odsFile));
  const tmp = `${file}.tmp`;
  const stamped = `SELECT *, make_timestamp(${log.stamp * 1000}::BIGINT) AS ${CHANGED_AT} FROM (${select})`;
  const rows = fs.existsSync(file)
    ? `SELECT * FROM read_parquet(${quoteLiteral(file)}) UNION ALL BY NAME ${stamped}`
    : stamped;
  try {
    const copied = await duck.runAndReadAll(`COPY (${rows}) TO ${quoteLiteral(tmp)} (${PARQUET_OPTIONS})`);
    // No change, no file: a refresh that changed nothing leaves no folder.
    if (Number(copied.getRows()[0]?.[0] ?? 0) > 0) fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * The least room the log may take, whatever the ODS's size: a small ODS's log is not trimmed for a
 * few megabytes.
 */
export const CHANGE_LOG_FLOOR_BYTES = 64 * 1024 * 1024;

/**
 * Moves the refresh's log in beside the earlier ones (with any a failed refresh left: it may have
 * changed some ODS files before it failed), and removes those older than `keepDays` and, oldest
 * first, those past the size cap, recording the newest removed stamp. The cap is the ODS's own size
 * (at least `floorBytes`): a reader further behind than that rebuilds from the ODS for less than the
 * log would cost it to read. The newest refresh's log is always kept. A refresh that changed nothing
 * leaves no folder.
 */
export function closeChangeLog(
  log: ChangeLogWriter,
  keepDays = CHANGE_LOG_DAYS,
  now = Date.now(),
  floorBytes = CHANGE_LOG_FLOOR_BYTES,
): void {
  const dir = path.join(log.odsDir, LOG);
  const work = path.join(log.odsDir, WORK);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(work).filter((n) => /^\d+$/.test(n))) {
    const folder = path.join(work, name);
    // A write cut short leaves its .tmp: never moved in.
    for (const f of fs.readdirSync(folder).filter((f) => f.endsWith('.tmp'))) fs.rmSync(path.join(folder, f));
    // One rename a refresh: a reader sees all of its tables or none.
    if (fs.readdirSync(folder).length && !fs.existsSync(path.join(dir, name)))
      fs.renameSync(folder, path.join(dir, name));
  }
  fs.rmSync(work, { recursive: true, force: true });
  const oldest = now - keepDays * 86_400_000;
  const logged = loggedRefreshes(log.odsDir);
  const stale = logged.filter((stamp) => stamp < oldest);
  const cap = Math.max(floorBytes, parquetBytes(log.odsDir));
  const [newest, ...older] = [...logged].reverse();
  let kept = newest === undefined ? 0 : parquetBytes(path.join(dir, String(newest)));
  for (const stamp of older) {
    if (stale.includes(stamp)) continue;
    kept += parquetBytes(path.join(dir, String(stamp)));
    if (kept > cap) stale.push(stamp);
  }
  if (!stale.length) return;
  for (const stamp of stale) fs.rmSync(path.join(dir, String(stamp)), { recursive: true, force: true });
  const trimmed = path.join(dir, TRIMMED);
  const before = fs.existsSync(trimmed) ? Number(fs.readFileSync(trimmed, 'utf8')) : 0;
  fs.writeFileSync(trimmed, String(Math.max(before, ...stale)));
}

/** The bytes of the Parquet files directly in `dir`. */
function parquetBytes(dir: string): number {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.parquet'))
    .reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

/** The stamps of the refreshes logged, oldest first. */
export function loggedRefreshes(odsDir: string): number[] {
  const dir = path.join(odsDir, LOG);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
}
