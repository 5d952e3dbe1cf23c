/**
 * Primary-key ranges that let several connections read one big table side by side. A table splits
 * when its key is a single integer column; the ranges are contiguous and the first and last are open
 * ended, so together they cover every possible key whatever the data (no row can fall between two
 * ranges or outside them).
 */
import type { RowDataPacket } from 'mysql2';
import type { Connection } from 'mysql2/promise';
import type { SourceTable } from '../../shared/source-schema';
import { quoteMysqlIdent } from '../../shared/sql-quoting';

const INTEGER_TYPES = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint']);

/** The single integer primary-key column a table can be split on, if it has one. */
export function splitColumn(table: SourceTable): string | undefined {
  if (table.primary_key.length !== 1) return undefined;
  const column = table.columns.find((c) => c.name === table.primary_key[0]);
  return column && INTEGER_TYPES.has(column.data_type) ? column.name : undefined;
}

/**
 * Up to `parts - 1` increasing boundaries dividing [min, max] into ranges of equal key width
 * (fewer when the key space is narrower than `parts`).
 */
export function splitKeySpace(min: bigint, max: bigint, parts: number): bigint[] {
  const width = max - min + 1n;
  const bounds: bigint[] = [];
  for (let i = 1n; i < BigInt(parts); i++) {
    const bound = min + (width * i) / BigInt(parts);
    if (bound > min && bound <= max && bound !== bounds[bounds.length - 1]) bounds.push(bound);
  }
  return bounds;
}

/**
 * WHERE predicates, one per range: `key < b1`, `key >= b1 AND key < b2`, …, `key >= bn`. With no
 * boundary the single predicate is empty (the whole table).
 */
export function rangePredicates(column: string, bounds: bigint[]): string[] {
  if (bounds.length === 0) return [''];
  const key = quoteMysqlIdent(column);
  return [
    `${key} < ${bounds[0]}`,
    ...bounds.slice(1).map((b, i) => `${key} >= ${bounds[i]} AND ${key} < ${b}`),
    `${key} >= ${bounds[bounds.length - 1]}`,
  ];
}

/**
 * The ranges to read `table` in (predicates as above), asked on a connection inside the snapshot the
 * rows will be read from. One range (`['']`) when the table cannot or need not be split.
 */
export async function keyRanges(conn: Connection, table: SourceTable, parts: number): Promise<string[]> {
  const column = splitColumn(table);
  if (!column || parts < 2) return [''];
  const key = quoteMysqlIdent(column);
  // Cast to text: BIGINT UNSIGNED does not fit a JavaScript number.
  const [rows] = await conn.query<RowDataPacket[]>(
    `SELECT CAST(MIN(${key}) AS CHAR) AS lo, CAST(MAX(${key}) AS CHAR) AS hi FROM ${quoteMysqlIdent(table.name)}`,
  );
  const { lo, hi } = rows[0] as { lo: string | null; hi: string | null };
  if (lo === null || hi === null) return [''];
  return rangePredicates(column, splitKeySpace(BigInt(lo), BigInt(hi), parts));
}
