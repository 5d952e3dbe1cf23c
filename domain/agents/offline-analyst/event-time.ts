/**
 * A table's own business date: the date or timestamp column that says when the row's event
 * happened (order, invoice, payment, shipment, visit), ranked by name. Birth, hire and expiry dates
 * are never event times; row-maintenance timestamps (`last_update`) are not either, and a creation
 * timestamp (`created_at`) counts only when nothing better exists.
 */
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { nameWords, singularWords } from './name-words';

const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);
/** Dates about a person or a contract, not about an event the business counts. */
const NEVER = [
  'birth',
  'birthday',
  'dob',
  'born',
  'hire',
  'hired',
  'death',
  'died',
  'expiry',
  'expires',
  'expiration',
  'expire',
  'valid',
  'until',
  'effective',
];
const AUDIT = [
  'update',
  'updated',
  'modified',
  'modify',
  'changed',
  'etl',
  'sync',
  'synced',
  'loaded',
  'load',
  'deleted',
  'archived',
  'ingested',
];
const CREATED = [
  'created',
  'create',
  'creation',
  'inserted',
  'insert',
  'added',
  'registered',
  'signup',
  'joined',
];
const EVENT = [
  'order',
  'ordered',
  'invoice',
  'invoiced',
  'payment',
  'paid',
  'transaction',
  'txn',
  'sale',
  'sold',
  'purchase',
  'purchased',
  'ship',
  'shipped',
  'shipping',
  'rental',
  'rented',
  'booking',
  'booked',
  'event',
  'occurred',
  'opened',
  'start',
  'started',
  'visit',
  'visited',
  'view',
  'viewed',
  'placed',
  'submitted',
  'posted',
  'issued',
  'logged',
  'login',
  'checkin',
  'received',
  'sent',
  'clicked',
  'played',
  'reported',
];
/** Later moments of an event (returned, delivered, closed): a fallback when nothing else exists. */
const LATER = [
  'return',
  'returned',
  'delivered',
  'delivery',
  'closed',
  'resolved',
  'end',
  'ended',
  'finished',
  'completed',
  'cancelled',
  'canceled',
  'due',
  'required',
  'expected',
  'promised',
  'checkout',
];

/** Why a column is (or is not) an event time, as a rank: lower is better; undefined: never. */
function rank(table: SourceTable, column: SourceColumn): number | undefined {
  if (!TEMPORAL.has(column.data_type)) return undefined;
  const words = nameWords(column.name);
  const has = (vocab: string[]) => words.some((w) => vocab.includes(w));
  if (has(NEVER)) return undefined;
  if (has(AUDIT) || (words.includes('last') && !has(EVENT))) return undefined;
  const stem = singularWords(table.name);
  if (words.some((w) => stem.includes(w) && w.length > 2) && !has(LATER) && !has(CREATED)) return 1;
  if (has(EVENT)) return 2;
  if (has(LATER)) return 4;
  if (has(CREATED)) return 5;
  // A bare `date`, `timestamp`, `occurred_on`, `day`: probably the event.
  return 3;
}

export interface OwnEventTime {
  column: string;
  evidence: string;
}

/** The table's own business event time, or undefined when it has none. */
export function ownEventTime(table: SourceTable): OwnEventTime | undefined {
  const ranked = table.columns
    .map((c, i) => ({ c, i, r: rank(table, c) }))
    .filter((x): x is { c: SourceColumn; i: number; r: number } => x.r !== undefined)
    .sort(
      (a, b) =>
        // A date named after the table wins; otherwise an always-present date beats an optional
        // one (shipped, returned and checked-in dates are null until that later moment happens).
        Number(a.r !== 1) - Number(b.r !== 1) ||
        Number(a.c.nullable) - Number(b.c.nullable) ||
        a.r - b.r ||
        a.i - b.i,
    );
  const best = ranked[0];
  if (!best) return undefined;
  const others = ranked.slice(1).map((x) => x.c.name);
  const why = [
    'names the table itself',
    'names a business event',
    'is a plain date column',
    'is a later moment of the event, the only date there is',
    'is the row creation time, the only date there is',
  ][best.r - 1];
  return {
    column: best.c.name,
    evidence:
      `${table.name}.${best.c.name} (${best.c.type}${best.c.nullable ? '' : ', not null'}) ${why}` +
      (others.length ? `; preferred over ${others.join(', ')}` : ''),
  };
}

/** Date columns that are not event times, for the PRD's evidence (`employees.birth_date: a birth date`). */
export function rejectedDateColumns(table: SourceTable): string[] {
  return table.columns
    .filter((c) => TEMPORAL.has(c.data_type) && rank(table, c) === undefined)
    .map((c) => `${table.name}.${c.name}`);
}

/**
 * Why a column cannot be a fact's event time (a birth, hire or expiry date; a row-maintenance
 * timestamp while the table has a business date), or undefined when it can.
 */
export function eventTimeObjection(table: SourceTable, columnName: string): string | undefined {
  const column = table.columns.find((c) => c.name === columnName);
  if (!column) return `${table.name} has no column ${columnName}`;
  if (!TEMPORAL.has(column.data_type))
    return `${table.name}.${columnName} is ${column.type}, not a date or timestamp`;
  if (rank(table, column) !== undefined) return undefined;
  const words = nameWords(column.name);
  if (words.some((w) => NEVER.includes(w)))
    return `${table.name}.${columnName} is a birth, hire or validity date, not when a business event happened`;
  // An audit timestamp is acceptable only when the table has nothing better.
  if (ownEventTime(table))
    return `${table.name}.${columnName} records row maintenance; use ${ownEventTime(table)!.column}`;
  return undefined;
}
