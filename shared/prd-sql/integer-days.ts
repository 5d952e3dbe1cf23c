/**
 * An integer event time (`yyyymmdd`, docs/offline-analyst.md#calendar-dimensions) is a date only
 * when the fact's DWD `event_date` parses it as one: `strptime`, `try_strptime` or `make_date` over
 * that column. Kept apart from prd-schema.ts, which imports it, so the rule reads in one place.
 */
import { parseExpression, visit } from './expression';

const PARSERS = new Set(['strptime', 'try_strptime', 'make_date', 'make_timestamp']);
/** Integers (`yyyymmdd`, a year with its month and day) and text whose values are days. */
const INTEGER =
  /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|UBIGINT|UINTEGER|HUGEINT|USMALLINT|UTINYINT|VARCHAR|TEXT|STRING)$/i;

/** Whether `fact`'s DWD event_date reads the integer `event_time` column as a day. */
export function readsIntegerDay(
  prd: {
    layers: { dwd: { source_tables: string[]; fields: { name: string; source: string }[] }[] };
  },
  fact: string,
  eventTime: { table: string; column: string },
  columnType: string,
): boolean {
  if (!INTEGER.test(columnType.trim())) return false;
  const dwd = prd.layers.dwd.find((t) => t.source_tables[0]?.toLowerCase() === fact.toLowerCase());
  const source = dwd?.fields.find((f) => f.name === 'event_date')?.source;
  if (!source) return false;
  let parsed = false;
  try {
    visit(parseExpression(source), (e) => {
      if (e.kind !== 'call' || !PARSERS.has(e.name.toLowerCase())) return;
      visit(e, (x) => {
        if (
          x.kind === 'column' &&
          x.column.toLowerCase() === eventTime.column.toLowerCase() &&
          (x.table ?? eventTime.table).toLowerCase() === eventTime.table.toLowerCase()
        )
          parsed = true;
      });
    });
  } catch {
    return false;
  }
  return parsed;
}
