/**
 * Whether a table's rows arrive in the order of its key, read from the data: its last rows by key,
 * in key order, along each date that varies. A key whose next value is (almost) never dated earlier
 * is evidence that new rows take higher keys, so a refresh can read from the last key it saw
 * (docs/offline-analyst.md#change-detection).
 */
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { DateColumnStats, KeyOrder, SourceColumn } from '../../shared/source-schema';
import { quoteMysqlIdent } from '../../shared/sql-quoting';
import { INTEGER } from './value-keys';

/** Rows read from the end of the key: enough to see the order, cheap through the key's index. */
export const KEY_ORDER_ROWS = 1000;
/** Dates tried along the key, at most. */
const MAX_DATES = 3;

/** A table's key and dates as the explorer knows them. */
export interface KeyedTable {
  name: string;
  columns: SourceColumn[];
  primaryKey: string[];
  dateStats?: Record<string, DateColumnStats>;
}

/** The key and the dates {@link keyOrder} would read; undefined when the table has no such pair. */
export function keyOrderReads(table: KeyedTable): { key: string; dates: string[] } | undefined {
  const key = integerKey(table);
  const dates = key ? varyingDates(table) : [];
  return key && dates.length ? { key, dates } : undefined;
}

/** The dates read along the table's integer key, the one it follows best; undefined when it has none. */
export async function keyOrder(db: Connection, table: KeyedTable): Promise<KeyOrder | undefined> {
  const reads = keyOrderReads(table);
  if (!reads) return undefined;
  const { key } = reads;
  let best: KeyOrder | undefined;
  for (const along of reads.dates) {
    const [rows] = await db.query<RowDataPacket[]>(
      `SELECT ${quoteMysqlIdent(along)} AS d FROM ${quoteMysqlIdent(table.name)}
        WHERE ${quoteMysqlIdent(along)} IS NOT NULL ORDER BY ${quoteMysqlIdent(key)} DESC LIMIT ?`,
      [KEY_ORDER_ROWS],
    );
    // Read newest key first; turned to key order. A zero date reads as no time and is left out.
    const times = rows
      .map((r) => timeOf(r.d))
      .filter((t): t is number => t !== undefined)
      .reverse();
    const found = { key, along, rows: times.length, ...steps(times) };
    if (!best || backwardShare(found) < backwardShare(best)) best = found;
  }
  return best;
}

/** The share of steps between keys that go back in time (1 when none moves). */
export function backwardShare(order: Pick<KeyOrder, 'forward' | 'backward'>): number {
  const moved = order.forward + order.backward;
  return moved === 0 ? 1 : order.backward / moved;
}

function integerKey({ columns, primaryKey }: KeyedTable): string | undefined {
  if (primaryKey.length !== 1) return undefined;
  const column = columns.find((c) => c.name === primaryKey[0]);
  return column && INTEGER.test(column.data_type) ? column.name : undefined;
}

/** Dates and timestamps (not days read from numbers or text) with more than one value. */
function varyingDates({ dateStats }: KeyedTable): string[] {
  return Object.entries(dateStats ?? {})
    .filter(([, s]) => !s.encoding && s.first !== undefined && s.first !== s.last)
    .map(([column]) => column)
    .slice(0, MAX_DATES);
}

function timeOf(value: unknown): number | undefined {
  const time = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isFinite(time) ? time : undefined;
}

function steps(times: number[]): { forward: number; backward: number } {
  let forward = 0;
  let backward = 0;
  for (let i = 1; i < times.length; i++) {
    if (times[i] > times[i - 1]) forward++;
    else if (times[i] < times[i - 1]) backward++;
  }
  return { forward, backward };
}
