/**
 * Primary-key checks on the copied data: is each source primary key still unique and non-NULL in
 * ODS? Measured exactly (composite keys as tuples), every table in one UNION ALL query.
 */
import { type OdsCatalog } from './ods-catalog-reader';
import type { OdsTableMeta } from './relation-detector';
import { quoteIdent } from '../../shared/sql-quoting';

/** Uniqueness and NULLs of one table's primary key in ODS. */
export interface KeyCheck {
  table: string;
  key: string[];
  rows: number;
  /** Rows that share their key with an earlier row. */
  duplicate_rows: number;
  /** Rows with a NULL in any key column. */
  null_key_rows: number;
}

/** One KeyCheck per table whose whole primary key is present in ODS. */
export async function checkPrimaryKeys(catalog: OdsCatalog, tables: OdsTableMeta[]): Promise<KeyCheck[]> {
  const keyed = tables
    .map((t) => ({ t, key: t.source.primary_key }))
    .filter(({ t, key }) => key.length > 0 && key.every((k) => t.columns.some((c) => c.name === k)));
  if (!keyed.length) return [];
  const sql = keyed
    .map(({ t, key }, i) => {
      const cols = key.map(quoteIdent);
      const tuple = cols.length === 1 ? cols[0] : `(${cols.join(', ')})`;
      return `(SELECT ${i} AS k, count(*) AS n,
        count(*) FILTER (WHERE ${cols.map((c) => `${c} IS NULL`).join(' OR ')}) AS null_rows,
        count(DISTINCT ${tuple}) FILTER (WHERE ${cols.map((c) => `${c} IS NOT NULL`).join(' AND ')}) AS distinct_keys
       FROM ${quoteIdent(t.ods)})`;
    })
    .join('\nUNION ALL\n');
  const rows = await catalog.query(`SELECT * FROM (${sql}) ORDER BY k`);
  return rows.map((row) => {
    const { t, key } = keyed[Number(row.k)];
    const n = Number(row.n);
    const nullRows = Number(row.null_rows);
    return {
      table: t.ods,
      key,
      rows: n,
      null_key_rows: nullRows,
      duplicate_rows: n - nullRows - Number(row.distinct_keys),
    };
  });
}
