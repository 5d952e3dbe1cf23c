/**
 * An event time that is no date type (a `yyyymmdd` integer, text, a year with its parts, moments
 * since 1970: docs/offline-analyst.md#dates-read-from-values) is a date only when the fact's DWD
 * `event_date` parses it as one: `strptime`, `try_strptime`, `make_date` or `make_timestamp` over
 * that column. Kept apart from prd-schema.ts, which imports it, so the rule reads in one place.
 */
import { parseExpression, visit } from './expression';

const PARSERS = new Set(['strptime', 'try_strptime', 'make_date', 'make_timestamp']);
/** Types a parsed day may be kept in: integers and text. */
const DAY_HOLDERS =
  /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|UBIGINT|UINTEGER|HUGEINT|USMALLINT|UTINYINT|VARCHAR|TEXT|STRING)$/i;

/** Whether `fact`'s DWD event_date parses the `event_time` column (an integer or text) as a day. */
export function readsParsedDay(
  prd: {
    layers: { dwd: { source_tables: string[]; fields: { name: string; source: string }[] }[] };
  },
  fact: string,
  eventTime: { table: string; column: string },
  columnType: string,
): boolean {
  if (!DAY_HOLDERS.test(columnType.trim())) return false;
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
