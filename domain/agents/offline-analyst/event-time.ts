/**
 * Event time by evidence (docs/offline-analyst.md#event-time-by-evidence): the date or timestamp that
 * says when a fact's event happened, chosen among the table's own dates and its header's by
 * - coverage: the share of rows where it is set (a date set on a handful of rows dates nothing);
 * - plausibility: not mostly in the future, not a sentinel, not one constant day;
 * - meaning: a date naming the table or a business event (order, invoice, booking, payment) before
 *   a plain date, a row's creation before a later moment (shipped, allocated, returned, due).
 * Birth, hire and expiry dates are never event times; row-maintenance timestamps (`last_update`)
 * are not either.
 */
import type { DateColumnStats, SourceColumn, SourceTable } from '../../../shared/source-schema';
import { columnWords, singularWords, stem } from './name-words';
import { dayGrain, dayReadingOf, type DayReading } from '../../../shared/date-keys';

const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);
/** Dates about a person or a contract, not about an event the business counts. */
const NEVER = [
  'birth',
  'birthday',
  'birthdate',
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
  'sale',
  'sold',
  'purchase',
  'purchased',
  'rental',
  'rented',
  'booking',
  'booked',
  'reservation',
  'reserved',
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
/** Later moments of an event (shipped, allocated, returned, closed): after the row's creation. */
const LATER = [
  'ship',
  'shipped',
  'shipping',
  'allocated',
  'allocation',
  'dispatched',
  'commit',
  'committed',
  'receipt',
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

/** What a candidate's name says, best first. */
const MEANINGS = [
  'names the table itself',
  'names a business event',
  'is a plain date column',
  'is the row creation time',
  'is a later moment of the event',
] as const;
export type EventTimeMeaning = (typeof MEANINGS)[number];

/** How far the figures support a candidate, best first. */
export type EventTimeSupport = 'complete' | 'partial' | 'sparse' | 'implausible';
export const SUPPORT_ORDER: EventTimeSupport[] = ['complete', 'partial', 'sparse', 'implausible'];
/** Shares of rows set from which a date is complete, or at least usable. */
const COMPLETE_SHARE = 0.95;
const USABLE_SHARE = 0.5;

/** One date a fact could be dated by, with the figures that rank it. */
export interface EventTimeCandidate {
  /** The table holding the column: the fact itself, or its header. */
  table: string;
  column: string;
  /** Whether the date is the header's, reached through the fact's N:1 key. */
  inherited: boolean;
  meaning: EventTimeMeaning;
  support: EventTimeSupport;
  /** Share of rows where it is set (0..1); undefined when the rows were not profiled. */
  coverage?: number;
  first?: string;
  last?: string;
  /** Why the figures weaken it (`set on 2% of rows`, `61% in the future`). */
  weakness?: string;
  /** The column's type and nullability, for the evidence. */
  type: string;
  /** How a column that is no date type reads as a day (`yyyymmdd`, text, parts, epoch); absent for a date. */
  reading?: DayReading;
  /** For a calendar's date: the fact's key into the calendar (docs/offline-analyst.md#calendar-dimensions). */
  via?: string;
}

/**
 * Whether a column holds dates: a date or timestamp, or an integer the explorer measured as
 * `yyyymmdd` days on every sampled row (its figures then say how many rows really are days).
 */
export function isTemporal(table: SourceTable, column: SourceColumn): boolean {
  return TEMPORAL.has(column.data_type) || table.date_stats?.[column.name]?.encoding !== undefined;
}

function meaningOf(table: SourceTable, column: SourceColumn): EventTimeMeaning | undefined {
  return isTemporal(table, column) ? meaningOfName(table, column.name) : undefined;
}

/** What a date column's name says of it (a key into a calendar is read by its name too). */
function meaningOfName(table: SourceTable, name: string): EventTimeMeaning | undefined {
  const words = columnWords(table, name);
  const has = (vocab: string[]) => words.some((w) => vocab.includes(w));
  if (has(NEVER)) return undefined;
  if (has(AUDIT) || (words.includes('last') && !has(EVENT))) return undefined;
  const tableStems = singularWords(table.name).map(stem);
  const ownEvent = (w: string) => w.length > 2 && tableStems.includes(stem(w));
  // `shipped` is a later moment of an order, but the event itself of a shipment.
  const later = words.some((w) => LATER.includes(w) && !ownEvent(w));
  if (words.some(ownEvent) && !has(CREATED) && !later) return MEANINGS[0];
  if (later) return MEANINGS[4];
  if (has(EVENT)) return MEANINGS[1];
  if (has(CREATED)) return MEANINGS[3];
  // A bare `date`, `timestamp`, `occurred_on`, `day`: probably the event.
  return MEANINGS[2];
}

/** The figures of a column as support, coverage and the weakness they show. */
function supportOf(
  table: SourceTable,
  column: SourceColumn,
): Pick<EventTimeCandidate, 'support' | 'coverage' | 'first' | 'last' | 'weakness'> {
  const stats: DateColumnStats | undefined = table.date_stats?.[column.name];
  // Not profiled: the declaration is all there is (a NOT NULL date is set on every row).
  if (!stats || table.row_count === 0) return { support: column.nullable ? 'partial' : 'complete' };
  // Placeholders (0000-00-00, 1900-01-01) date nothing: counted as unset. The row count was taken
  // in another scan, so a table written to in between could show more dates than rows.
  const dated = stats.non_null - (stats.placeholder ?? 0);
  const coverage = Math.min(1, dated / table.row_count);
  const figures = { coverage, first: stats.first, last: stats.last };
  if (dated > 0 && stats.future / dated > 0.5)
    return { ...figures, support: 'implausible', weakness: `${percent(stats.future / dated)} in the future` };
  if (stats.non_null > 0 && (stats.placeholder ?? 0) / stats.non_null > 0.5)
    return {
      ...figures,
      support: 'implausible',
      weakness: 'mostly placeholder dates (1900-01-01 or earlier)',
    };
  if (dated > 30 && stats.first === stats.last)
    return { ...figures, support: 'implausible', weakness: `one day only (${stats.first})` };
  const support = supportOfCoverage(coverage);
  return support === 'complete'
    ? { ...figures, support }
    : { ...figures, support, weakness: `set on ${percent(coverage)} of rows` };
}

/** How well a share of rows set supports a date: complete, partial (usable) or sparse. */
export const supportOfCoverage = (coverage: number): EventTimeSupport =>
  coverage >= COMPLETE_SHARE ? 'complete' : coverage >= USABLE_SHARE ? 'partial' : 'sparse';

/** A share as a percentage, `<1%` for a few rows of many. */
export const percent = (x: number): string => `${x < 0.01 && x > 0 ? '<1' : Math.round(100 * x)}%`;

/** How a reading writes its days, for the evidence (`read as %d/%m/%Y`, `with month and day`). */
function writtenAs(r: DayReading): string {
  if (r.encoding === 'text')
    return `read as ${r.format}${r.ambiguous ? ' (day and month could be either way round)' : ''}`;
  if (r.encoding === 'epoch') return `${r.unit === 's' ? 'seconds' : 'milliseconds'} since 1970`;
  if (r.encoding === 'parts')
    return `with ${[r.parts?.month, r.parts?.day].filter(Boolean).join(' and ') || 'no month or day: a year only'}`;
  return r.encoding;
}

/**
 * Every date of a table that could say when its rows' events happened: its own dates, and the
 * dates of calendars its keys reach (`calendar`, from calendar-tables.ts), which replace the keys.
 */
export function ownCandidates(table: SourceTable, calendar: EventTimeCandidate[] = []): EventTimeCandidate[] {
  const keys = new Set(calendar.map((c) => c.via));
  const own = table.columns.flatMap((column): EventTimeCandidate[] => {
    const meaning = meaningOf(table, column);
    if (!meaning || keys.has(column.name)) return [];
    const reading = TEMPORAL.has(column.data_type)
      ? undefined
      : dayReadingOf(table.date_stats?.[column.name]);
    return [
      {
        table: table.name,
        column: column.name,
        inherited: false,
        meaning,
        type: `${column.type}${reading ? ` ${writtenAs(reading)}` : ''}${column.nullable ? '' : ', not null'}`,
        ...(reading ? { reading } : {}),
        ...supportOf(table, column),
      },
    ];
  });
  return [...own, ...calendar];
}

/**
 * A calendar's date offered to a fact through its key `keyColumn` (docs/offline-analyst.md#calendar-dimensions):
 * named by the key (`order_date_key` is an order date, `ship_date_key` a later moment) and measured
 * by it (the rows where the key is set); undefined when the key's name rules a business date out.
 */
export function keyCandidate(
  fact: SourceTable,
  keyColumn: string,
  calendar: string,
  dateColumn: string,
): EventTimeCandidate | undefined {
  const key = fact.columns.find((c) => c.name === keyColumn);
  const meaning = key && meaningOfName(fact, keyColumn);
  if (!key || !meaning) return undefined;
  return {
    table: calendar,
    column: dateColumn,
    inherited: false,
    via: keyColumn,
    meaning,
    type: `date through ${fact.name}.${keyColumn}${key.nullable ? '' : ', not null'}`,
    ...supportOf(fact, key),
  };
}

/** A candidate's rank by meaning: a header's event date sits between the fact's plain dates and its creation time. */
function meaningRank(c: EventTimeCandidate): number {
  const own = MEANINGS.indexOf(c.meaning);
  return c.inherited && own <= 2 ? 2.5 : own;
}

/** 0 for a day, 1 for a year and month, 2 for a year alone: a day says more of when. */
const coarseness = (c: EventTimeCandidate): number => ['day', 'month', 'year'].indexOf(dayGrain(c.reading));

/** Candidates best first: support, then meaning, then the fact's own before its header's, then column order. */
export function rankCandidates(candidates: EventTimeCandidate[]): EventTimeCandidate[] {
  return candidates
    .map((c, i) => ({ c, i }))
    .sort(
      (a, b) =>
        SUPPORT_ORDER.indexOf(a.c.support) - SUPPORT_ORDER.indexOf(b.c.support) ||
        coarseness(a.c) - coarseness(b.c) ||
        meaningRank(a.c) - meaningRank(b.c) ||
        Number(a.c.inherited) - Number(b.c.inherited) ||
        a.i - b.i,
    )
    .map(({ c }) => c);
}

/** Whether figures support dating rows by this candidate at all. */
export const isUsable = (c: EventTimeCandidate): boolean =>
  c.support === 'complete' || c.support === 'partial';

/** `orders.order_date (datetime, not null; set on 100% of rows, 2021-01-02 … 2023-12-31)`. */
export function describeCandidate(c: EventTimeCandidate): string {
  const figures =
    c.coverage !== undefined
      ? `; set on ${c.coverage > 0 && c.coverage < 0.01 ? '<1' : Math.round(100 * c.coverage)}% of rows${c.first ? `, ${c.first} … ${c.last}` : ''}`
      : '';
  return `${c.table}.${c.column} (${c.type}${figures})`;
}

/** Why the chosen candidate won, in a sentence for the PRD. */
export function choiceEvidence(chosen: EventTimeCandidate, others: EventTimeCandidate[]): string {
  const why = chosen.weakness ? `${chosen.meaning}, though ${chosen.weakness}` : chosen.meaning;
  const rest = others
    .slice(0, 4)
    .map((o) => `${o.table}.${o.column} (${o.weakness ?? o.meaning})`)
    .join(', ');
  return `${describeCandidate(chosen)} ${why}${rest ? `; preferred over ${rest}` : ''}`;
}

export interface OwnEventTime {
  column: string;
  evidence: string;
  candidate: EventTimeCandidate;
}

/**
 * The table's own best business date (whatever its support), its calendars' among them, or
 * undefined when it has none.
 */
export function ownEventTime(
  table: SourceTable,
  calendar: EventTimeCandidate[] = [],
): OwnEventTime | undefined {
  const [best, ...others] = rankCandidates(ownCandidates(table, calendar));
  if (!best) return undefined;
  return { column: best.column, evidence: choiceEvidence(best, others), candidate: best };
}

/** Date columns that are not event times, for the PRD's evidence (`employees.birth_date: a birth date`). */
export function rejectedDateColumns(table: SourceTable): string[] {
  return table.columns
    .filter((c) => isTemporal(table, c) && meaningOf(table, c) === undefined)
    .map((c) => `${table.name}.${c.name}`);
}

/**
 * Why a column cannot be a fact's event time (a birth, hire or expiry date; a row-maintenance
 * timestamp while the table has a business date), or undefined when it can.
 */
export function eventTimeObjection(table: SourceTable, columnName: string): string | undefined {
  const column = table.columns.find((c) => c.name === columnName);
  if (!column) return `${table.name} has no column ${columnName}`;
  if (!isTemporal(table, column))
    return `${table.name}.${columnName} is ${column.type}, not a date, a timestamp or a column whose values read as days`;
  if (meaningOf(table, column) !== undefined) return undefined;
  const words = columnWords(table, column.name);
  if (words.some((w) => NEVER.includes(w)))
    return `${table.name}.${columnName} is a birth, hire or validity date, not when a business event happened`;
  // An audit timestamp is acceptable only when the table has nothing better.
  const better = ownEventTime(table);
  if (better) return `${table.name}.${columnName} records row maintenance; use ${better.column}`;
  return undefined;
}
