/**
 * A table's changed rows merged into its ODS file (docs/refresh.md#merging): every old row whose key
 * the changes hold is replaced by its new version, every old row whose key the source no longer has
 * (when its keys were read) is dropped, and the new rows are added. The file is written beside its
 * name and renamed over it, so readers see the old table or the new one, never half of it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { quoteIdent, quoteLiteral } from '../../../shared/sql-quoting';
import { PARQUET_OPTIONS } from '../ods-table-copy';
import { rangePredicate } from './key-buckets';

export interface MergeFiles {
  /** The table's ODS file, replaced by the merge. */
  file: string;
  /** The changed rows, as read from the source with the table's column plan. */
  changes: string;
  /** Every key the source holds (absent: deletes are not looked for), or only those in `keyRanges`. */
  keys?: string;
  /**
   * The key ranges `keys` covers (one integer key): only an old row in them and not among the keys
   * was deleted. Absent: `keys` holds every key.
   */
  keyRanges?: [bigint, bigint][];
  /** The columns a row is known by. */
  key: string[];
  /** The column the next refresh reads from: its greatest value is returned. */
  column: string;
  /** Given the changed rows (old versions replaced or dropped, and the new ones) before the file is replaced. */
  recordDelta?: (select: string) => Promise<void>;
}

export interface MergeResult {
  rows: number;
  deleted: number;
  /** The greatest value of `column` after the merge (undefined when every value is NULL). */
  watermark?: string;
}

export async function mergeChanges(duck: DuckDBConnection, m: MergeFiles): Promise<MergeResult> {
  const read = (file: string) => `read_parquet(${quoteLiteral(file)})`;
  const using = `USING (${m.key.map(quoteIdent).join(', ')})`;
  const one = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJS()[0];
  // SEMI and ANTI joins keep the left side's columns only; DuckDB wants the sides named.
  let kept = `SELECT o.* FROM ${read(m.file)} o ANTI JOIN ${read(m.changes)} c ${using}`;
  let deleted = 0;
  // The old versions of changed rows, and (below) of deleted ones: what the layers above must redo.
  const replaced: string[] = [];
  if (m.keys && m.keyRanges) {
    // Counted buckets: the old rows in the ranges that lost rows whose keys the source no longer has.
    const k = quoteIdent(m.key[0]);
    const gone = `SELECT ${k} FROM ${read(m.file)} WHERE ${rangePredicate(m.key[0], m.keyRanges, false)} EXCEPT SELECT ${k} FROM ${read(m.keys)}`;
    deleted = Number((await one(`SELECT COUNT(*) AS n FROM (${gone})`)).n);
    kept = `SELECT o.* FROM (${kept}) o ANTI JOIN (${gone}) g ${using}`;
    replaced.push(`SELECT o.* FROM ${read(m.file)} o SEMI JOIN (${gone}) g ${using}`);
  } else if (m.keys) {
    deleted = Number(
      (await one(`SELECT COUNT(*) AS n FROM ${read(m.file)} o ANTI JOIN ${read(m.keys)} k ${using}`)).n,
    );
    kept = `SELECT o.* FROM (${kept}) o SEMI JOIN ${read(m.keys)} k ${using}`;
    replaced.push(`SELECT o.* FROM ${read(m.file)} o ANTI JOIN ${read(m.keys)} k ${using}`);
  }
  if (m.recordDelta) {
    // Rows read again but not changed (the look-back re-reads the newest) are no change: only the
    // versions that differ, old and new, and the deleted rows' old ones.
    const columns = (await duck.runAndReadAll(`DESCRIBE SELECT * FROM ${read(m.file)}`))
      .getRowObjectsJS()
      .map((c) => quoteIdent(String(c.column_name)))
      .join(', ');
    const before = `SELECT ${columns} FROM (SELECT o.* FROM ${read(m.file)} o SEMI JOIN ${read(m.changes)} c ${using})`;
    const after = `SELECT ${columns} FROM ${read(m.changes)}`;
    await m.recordDelta(
      [`${before} EXCEPT ALL ${after}`, `${after} EXCEPT ALL ${before}`, ...replaced]
        .map((r) => `(${r})`)
        .join(' UNION ALL BY NAME '),
    );
  }
  const tmp = `${m.file}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await duck.run(
      `COPY (${kept} UNION ALL BY NAME SELECT * FROM ${read(m.changes)}) TO ${quoteLiteral(tmp)} (${PARQUET_OPTIONS})`,
    );
    fs.renameSync(tmp, m.file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  const after = await one(
    `SELECT COUNT(*) AS n, CAST(MAX(${quoteIdent(m.column)}) AS VARCHAR) AS mark FROM ${read(m.file)}`,
  );
  return { rows: Number(after.n), deleted, watermark: after.mark === null ? undefined : String(after.mark) };
}
