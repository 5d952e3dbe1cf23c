/**
 * What a refresh reads of each table (docs/refresh.md#what-a-refresh-reads): the rows changed since
 * the ODS's own high-water mark (the greatest update time or key it holds, so a refresh cut short and
 * retried starts from what was merged, never from a note that may be out of step), or the table whole.
 * Changed rows are merged by the table's key; without a key to merge by, the table is read whole.
 */
import type { PrdRefresh } from '../../../shared/prd-refresh';
import type { SourceTable } from '../../../shared/source-schema';
import { quoteMysqlIdent } from '../../../shared/sql-quoting';
import type { KeyBuckets } from './key-buckets';

/**
 * How far before the high-water mark a refresh looks again: a transaction that stamped its rows
 * before the last refresh's snapshot but committed after it still has its rows read. Rows read twice
 * are merged by key, so looking back costs only their reading.
 */
export const LATE_COMMIT_MARGIN_SECONDS = 15 * 60;

/** One table's read: its changed rows (merged by `key`), or all of it. */
export type TableRead =
  | {
      table: string;
      kind: 'changes';
      detect: 'updated_at' | 'key';
      column: string;
      /** The WHERE predicate of the changed rows, built from the high-water mark. */
      predicate: string;
      /** The high-water mark the predicate starts from (as the ODS holds it), for the report. */
      since: string;
      /** Columns the changed rows replace old ones by. */
      key: string[];
      /** Whether the source's keys are read to drop the rows deleted there. */
      keySet: boolean;
      /** For one integer key: the buckets deleted rows are found by counting (key-buckets.ts). */
      buckets?: KeyBuckets;
    }
  | { table: string; kind: 'whole'; why: string };

/** A timestamp as DuckDB prints one (`2026-11-30 10:00:00[.123456]`): the only form put in a predicate. */
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$/;
const INTEGER_TEXT = /^-?\d{1,20}$/;

/**
 * The columns changed rows are merged by: the primary key, else a unique column that is never NULL
 * (NULLs are all different, so they could not tell a changed row from a new one).
 */
export function mergeKey(table: SourceTable): string[] {
  if (table.primary_key.length) return table.primary_key;
  const unique = (table.unique_columns ?? []).find(
    (name) => table.columns.find((c) => c.name === name)?.nullable === false,
  );
  return unique ? [unique] : [];
}

/**
 * The read of `table` under its plan entry (none: read whole), given the greatest value of the
 * entry's column in the ODS (`mark`, undefined when the ODS holds no such value yet).
 */
export function tableRead(
  table: SourceTable,
  entry: PrdRefresh | undefined,
  mark: string | undefined,
): TableRead {
  const whole = (why: string): TableRead => ({ table: table.name, kind: 'whole', why });
  if (!entry || entry.detect === 'full' || !entry.column)
    return whole(entry ? 'the plan reads it whole' : 'the refresh plan does not name it');
  const column = table.columns.find((c) => c.name === entry.column);
  if (!column) return whole(`${entry.column} is not a column of the table as copied`);
  const key = mergeKey(table);
  if (!key.length) return whole('no key to merge changed rows by');
  if (mark === undefined) return whole(`the ODS holds no ${entry.column} to start from`);
  const name = quoteMysqlIdent(column.name);
  let predicate: string;
  if (entry.detect === 'updated_at') {
    if (!TIMESTAMP_TEXT.test(mark)) return whole(`${entry.column}'s high-water mark is not a timestamp`);
    const at = mark.length === 10 ? `${mark} 00:00:00` : mark;
    predicate = `${name} >= TIMESTAMP '${at}' - INTERVAL ${LATE_COMMIT_MARGIN_SECONDS} SECOND`;
    // A row never stamped has no time to compare: it is read each time rather than missed.
    if (column.nullable) predicate = `(${predicate} OR ${name} IS NULL)`;
  } else {
    if (!INTEGER_TEXT.test(mark)) return whole(`${entry.column}'s high-water mark is not an integer`);
    predicate = `${name} > ${mark}`;
  }
  return {
    table: table.name,
    kind: 'changes',
    detect: entry.detect,
    column: column.name,
    predicate,
    since: mark,
    key,
    keySet: entry.deletes === 'key_set',
  };
}
