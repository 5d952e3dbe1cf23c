/**
 * The ODS's change log (docs/dbt-export.md#incremental-models): a refresh's changes appear in one
 * folder when it ends, never half; a refresh that changed nothing leaves none; folders past the
 * retention are removed and the newest removed stamp is kept, so a late reader knows.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDb } from '../../../domain/warehouse/duckdb-module';
import { ODS_COPY_SETTINGS, PARQUET_OPTIONS } from '../../../domain/warehouse/ods-table-copy';
import {
  CHANGED_AT,
  closeChangeLog,
  loggedRefreshes,
  logChanges,
  openChangeLog,
} from '../../../domain/warehouse/refresh/change-log';
import { newTestDataDir } from '../../harness/platform-gateway';

const DAY = 86_400_000;

describe('the change log', () => {
  let duck: DuckDBConnection;
  let ods: string;
  beforeAll(async () => {
    // The refresh's own settings: it logs with them.
    duck = await (await openDuckDb(':memory:', ODS_COPY_SETTINGS)).connect();
    ods = path.join(newTestDataDir(), 'ods');
    fs.mkdirSync(ods, { recursive: true });
  });
  afterAll(() => duck.closeSync());

  it("keeps each refresh's changed rows, stamped, in one folder that appears when the refresh ends", async () => {
    const stamp = Date.UTC(2026, 10, 1, 6, 0, 0, 123);
    const log = openChangeLog(ods, stamp);
    const file = path.join(ods, 'orders.parquet');
    await logChanges(duck, log, file, `SELECT 1 AS nr, 'old' AS v`);
    await logChanges(duck, log, file, `SELECT 1 AS nr, 'new' AS v`);
    expect(loggedRefreshes(ods)).toEqual([]);
    closeChangeLog(log, 35, stamp);
    expect(loggedRefreshes(ods)).toEqual([stamp]);
    const rows = (
      await duck.runAndReadAll(
        `SELECT nr, v, CAST(${CHANGED_AT} AS VARCHAR) AS at FROM read_parquet('${ods}/change-log/${stamp}/orders.parquet') ORDER BY v`,
      )
    ).getRowObjectsJson();
    expect(rows).toEqual([
      { nr: 1, v: 'new', at: '2026-11-01 06:00:00.123' },
      { nr: 1, v: 'old', at: '2026-11-01 06:00:00.123' },
    ]);
    // Nothing changed (a table read again, no row different): no folder.
    const unchanged = openChangeLog(ods, stamp + 1);
    await logChanges(duck, unchanged, file, `SELECT 1 AS nr, 'new' AS v WHERE false`);
    closeChangeLog(unchanged, 35, stamp + 1);
    expect(loggedRefreshes(ods)).toEqual([stamp]);
  });

  it('removes the refreshes older than the retention, and says up to which one', async () => {
    const first = loggedRefreshes(ods)[0];
    const later = first + 10 * DAY;
    const log = openChangeLog(ods, later);
    await logChanges(duck, log, path.join(ods, 'orders.parquet'), `SELECT 2 AS nr, 'x' AS v`);
    closeChangeLog(log, 5, later);
    expect(loggedRefreshes(ods)).toEqual([later]);
    expect(fs.readFileSync(path.join(ods, 'change-log', 'trimmed-through'), 'utf8')).toBe(String(first));
    expect(fs.existsSync(path.join(ods, 'change-log-work'))).toBe(false);
  });

  it("moves in what a failed refresh logged (it may have changed ODS files) with the next refresh's", async () => {
    const [kept] = loggedRefreshes(ods);
    const failed = openChangeLog(ods, kept + 1000);
    await logChanges(duck, failed, path.join(ods, 'orders.parquet'), `SELECT 3 AS nr, 'y' AS v`);
    // The failed refresh never closed its log; the next one does.
    const next = openChangeLog(ods, kept + 2000);
    await logChanges(duck, next, path.join(ods, 'customers.parquet'), `SELECT 4 AS id`);
    closeChangeLog(next, 35, kept + 2000);
    expect(loggedRefreshes(ods)).toEqual([kept, kept + 1000, kept + 2000]);
    expect(fs.readdirSync(path.join(ods, 'change-log', String(kept + 1000)))).toEqual(['orders.parquet']);
  });

  it('keeps no more than the ODS itself holds, the oldest removed first and the newest always kept', async () => {
    const root = path.join(newTestDataDir(), 'ods');
    fs.mkdirSync(root, { recursive: true });
    const odsFile = path.join(root, 'orders.parquet');
    // Hashes: rows that do not compress, so sizes follow row counts.
    const rows = (n: number, tag: string) => `SELECT i AS nr, md5('${tag}' || i) AS v FROM range(${n}) t(i)`;
    await duck.run(`COPY (${rows(2000, 'ods')}) TO '${odsFile}' (${PARQUET_OPTIONS})`);
    const odsBytes = fs.statSync(odsFile).size;
    const start = Date.UTC(2026, 10, 2);
    const stamps = [0, 1, 2, 3, 4].map((i) => start + i * 1000);
    const sizes: number[] = [];
    for (const stamp of stamps) {
      const log = openChangeLog(root, stamp);
      await logChanges(duck, log, odsFile, rows(700, `s${stamp}`));
      closeChangeLog(log, 35, stamp, 0);
      sizes.push(fs.statSync(path.join(root, 'change-log', String(stamp), 'orders.parquet')).size);
    }
    // Newest first, as many as fit in the ODS's size.
    let total = 0;
    const fit = [...stamps]
      .reverse()
      .filter((_stamp, i) => (total += sizes[stamps.length - 1 - i]) <= odsBytes || i === 0);
    expect(fit.length).toBeGreaterThan(0);
    expect(fit.length).toBeLessThan(stamps.length);
    expect(loggedRefreshes(root)).toEqual([...fit].reverse());
    const trimmed = Number(fs.readFileSync(path.join(root, 'change-log', 'trimmed-through'), 'utf8'));
    expect(trimmed).toBe(stamps[stamps.length - fit.length - 1]);
    // One refresh's log larger than the whole ODS is still kept: the next reader needs it.
    const big = start + 10_000;
    const log = openChangeLog(root, big);
    await logChanges(duck, log, odsFile, rows(6000, 'big'));
    closeChangeLog(log, 35, big, 0);
    expect(loggedRefreshes(root)).toEqual([big]);
    expect(fs.readFileSync(path.join(root, 'change-log', 'trimmed-through'), 'utf8')).toBe(String(stamps[4]));
  });
});
