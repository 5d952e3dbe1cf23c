/**
 * Athena results as plat's QueryRows. Athena sends every value as text; values are typed from
 * ResultSetMetadata the way the embedded engine's JSON rows are (integers up to 32 bits, floats and
 * booleans as JSON values; bigint, decimal, dates and times as exact strings), so one API answer
 * looks the same on both engines.
 */
import type { ColumnInfo, Row } from '@aws-sdk/client-athena';
import type { QueryRows } from '../warehouse-engine';

export function toQueryRows(columns: ColumnInfo[], rows: Row[]): Omit<QueryRows, 'truncated'> {
  const names = columns.map((c, i) => c.Name ?? c.Label ?? `_col${i}`);
  return {
    columns: names,
    rows: rows.map((row) => {
      const out: Record<string, unknown> = {};
      names.forEach((name, i) => {
        out[name] = athenaValue(columns[i].Type ?? 'varchar', row.Data?.[i]?.VarCharValue);
      });
      return out;
    }),
  };
}

/** One cell: a missing VarCharValue is SQL NULL. */
export function athenaValue(type: string, text: string | undefined): unknown {
  if (text === undefined) return null;
  switch (type.toLowerCase()) {
    case 'boolean':
      return text === 'true';
    case 'tinyint':
    case 'smallint':
    case 'integer':
    case 'int':
      return Number(text);
    case 'double':
    case 'float':
    case 'real': {
      // NaN and Infinity have no JSON form: keep Athena's text.
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    default:
      return text;
  }
}
