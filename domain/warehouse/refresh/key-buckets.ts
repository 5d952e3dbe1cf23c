/**
 * Deleted rows found by counting, not by reading every key (docs/refresh.md#deletes-by-counting):
 * a table with one integer key is cut into buckets of equal key width; the source counts its rows
 * per bucket (one GROUP BY, a few thousand numbers back) and DuckDB counts the ODS's after the
 * changes are merged. Only a bucket where the ODS holds more rows than the source lost rows there,
 * and only its keys are read. Every row inserted since the last refresh is among the changes (the
 * plan's stamp or counter sees new rows), so a count can only be higher in the ODS by deletes.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { quoteIdent, quoteLiteral, quoteMysqlIdent } from '../../../shared/sql-quoting';

/** Buckets a table's key span is cut into: small enough to count fast, fine enough to read little. */
export const KEY_BUCKETS = 4096;

/** Where a key column's buckets lie: `key DIV width` names a key's bucket on both sides. */
export interface KeyBuckets {
  column: string;
  /** Whole number, at least 1. */
  width: bigint;
}

/**
 * The buckets of `column` over the ODS's key span, or undefined when the keys are not whole numbers
 * from 0 up (a negative key divides differently in MySQL and DuckDB).
 */
export function keyBuckets(column: string, min: string | null, max: string | null): KeyBuckets | undefined {
  if (min === null || max === null || !/^\d{1,19}$/.test(min) || !/^\d{1,19}$/.test(max)) return undefined;
  const span = BigInt(max) - BigInt(min) + 1n;
  const width = span / BigInt(KEY_BUCKETS) + 1n;
  return { column, width };
}

/**
 * The buckets cut into `parts` runs of whole buckets, as key predicates (MySQL quoting): the first
 * from the lowest key, the last up to the highest (rows added past the span included), so the
 * source's count can be shared among readers.
 */
export function bucketParts(b: KeyBuckets, parts: number): string[] {
  const key = quoteMysqlIdent(b.column);
  const per = BigInt(Math.ceil(KEY_BUCKETS / Math.max(1, parts)));
  const bounds = Array.from({ length: Math.max(1, parts) - 1 }, (_, i) => BigInt(i + 1) * per * b.width);
  return [...bounds, undefined].map((to, i) => {
    const from = i ? bounds[i - 1] : undefined;
    return [from !== undefined ? `${key} >= ${from}` : '', to !== undefined ? `${key} < ${to}` : '']
      .filter(Boolean)
      .join(' AND ');
  });
}

/** Rows per bucket in the source (or in the part of its keys `where` names), read in the refresh's snapshot. */
export async function sourceBucketCounts(
  reader: Connection,
  table: string,
  b: KeyBuckets,
  where = '',
): Promise<Map<string, number>> {
  const key = quoteMysqlIdent(b.column);
  const [rows] = await reader.query<RowDataPacket[]>(
    `SELECT CAST(${key} DIV ${b.width} AS CHAR) AS b, COUNT(*) AS n FROM ${quoteMysqlIdent(table)}${where ? ` WHERE ${where}` : ''} GROUP BY 1`,
  );
  return new Map(rows.map((r) => [String(r.b), Number(r.n)]));
}

/** Rows per bucket in the ODS as the merge will leave it (before deletes): old rows not changed, and the changes. */
export async function mergedBucketCounts(
  duck: DuckDBConnection,
  files: { ods: string; changes: string },
  key: string[],
  b: KeyBuckets,
): Promise<Map<string, number>> {
  const k = quoteIdent(b.column);
  const read = (file: string) => `read_parquet(${quoteLiteral(file)})`;
  const using = `USING (${key.map(quoteIdent).join(', ')})`;
  const rows = (
    await duck.runAndReadAll(
      `SELECT CAST(${k} // ${b.width} AS VARCHAR) AS b, COUNT(*) AS n FROM (
         SELECT o.${k} FROM ${read(files.ods)} o ANTI JOIN ${read(files.changes)} c ${using}
         UNION ALL SELECT ${k} FROM ${read(files.changes)}) GROUP BY 1`,
    )
  ).getRowObjectsJS();
  return new Map(rows.map((r) => [String(r.b), Number(r.n)]));
}

/** Half-open key ranges `[from, to)` of the buckets where the ODS holds more rows than the source. */
export function bucketsWithDeletes(
  ods: Map<string, number>,
  source: Map<string, number>,
  b: KeyBuckets,
): [bigint, bigint][] {
  const lost = [...ods]
    .filter(([bucket, n]) => n > (source.get(bucket) ?? 0))
    .map(([bucket]) => BigInt(bucket))
    .sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const ranges: [bigint, bigint][] = [];
  for (const bucket of lost) {
    const from = bucket * b.width;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === from) last[1] = from + b.width;
    else ranges.push([from, from + b.width]);
  }
  return ranges;
}

/** A WHERE predicate of `ranges` on the key (MySQL or DuckDB quoting); `FALSE` when there is none. */
export function rangePredicate(column: string, ranges: [bigint, bigint][], mysql: boolean): string {
  if (!ranges.length) return 'FALSE';
  const k = mysql ? quoteMysqlIdent(column) : quoteIdent(column);
  return ranges.map(([from, to]) => `(${k} >= ${from} AND ${k} < ${to})`).join(' OR ');
}
