/**
 * A person who edits a PRD dates a fact by changing its `event_time` (docs/offline-analyst.md#event-time-by-evidence);
 * this makes the fact's DWD `event_date`, which every daily aggregate above it groups by, follow.
 * Pure, so the workflow may run it on the PRD a person sends.
 */
import type { Prd } from './prd-schema';
import { columnReference } from './prd-sql/expression-sql';
import { eventDateSource } from './date-keys';
import { columnsOf, parseExpression } from './prd-sql/expression';

/**
 * Whether an event_date expression already dates by exactly that column (a `yyyymmdd` key read
 * as a day, docs/offline-analyst.md#calendar-dimensions): kept as it is rather than cast again.
 */
function readsOnly(source: string, table: string, column: string): boolean {
  try {
    const names = columnsOf(parseExpression(source));
    return names.length === 1 && names[0].table === table && names[0].column === column;
  } catch {
    return false;
  }
}

/** The PRD with each dated fact's DWD `event_date` computed from its `event_time`. */
export function alignEventDates(prd: Prd): Prd {
  const dwd = prd.layers.dwd.map((table) => {
    const fact = prd.facts.find((f) => f.event_time && f.table === table.source_tables[0]);
    const field = table.fields.find((f) => f.name === 'event_date');
    if (!fact?.event_time || !field) return table;
    const { table: holder, column, path } = fact.event_time;
    // A column that is no date reads as its candidate says (text in a format, a day in parts).
    const reading = (fact.event_time_candidates ?? []).find(
      (c) => c.table === holder && c.column === column && c.reads_as,
    )?.reads_as;
    const source = reading
      ? eventDateSource(holder, column, reading)
      : `CAST(${columnReference(holder, column)} AS DATE)`;
    if (field.source.replace(/\s+/g, ' ').trim() === source || readsOnly(field.source, holder, column))
      return table;
    return {
      ...table,
      source_tables: table.source_tables.includes(holder)
        ? table.source_tables
        : [...table.source_tables, holder],
      fields: table.fields.map((f) =>
        f === field
          ? {
              ...f,
              source,
              description: path.length ? `${holder}.${column} via ${path.join(', ')}` : `date of ${column}`,
            }
          : f,
      ),
    };
  });
  return { ...prd, layers: { ...prd.layers, dwd } };
}
