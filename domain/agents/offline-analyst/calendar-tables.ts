/**
 * Calendar dimensions (docs/offline-analyst.md#calendar-dimensions): a table of one row per day, a
 * date column plus columns holding that day's parts (year, quarter, month, day, weekday, names, a
 * `yyyymmdd` key), recognised by its data whatever it is called. A fact whose time is a key into
 * it is dated by the calendar's date through that key.
 */
import type { PrdRelationship } from '../../../shared/prd-schema';
import type { SourceTable } from '../../../shared/source-schema';
import { keyCandidate, type EventTimeCandidate } from './event-time';
import { withoutAccents } from './foreign-words';

/** A table recognised as a calendar. */
export interface Calendar {
  table: string;
  /** Its date column: one row per day. */
  dateColumn: string;
  /** The columns holding a part of that day, with the part (`month: month`, `dow: weekday`). */
  parts: { column: string; part: string }[];
}

/** Rows from which a table can show it holds one row per day. */
const MIN_DAYS = 28;
/** Share of the days between the first and the last a calendar holds (a few may be missing). */
const DAYS_SHARE = 0.9;
/** Part columns a calendar has at least, beyond its date. */
const MIN_PARTS = 2;

/**
 * Languages whose month and weekday names a calendar column may hold: those the analyst reads
 * schema words in (docs/offline-analyst.md#names-in-other-languages). The names come from the
 * runtime's ICU data (Intl), not from a list of our own.
 */
const CALENDAR_LANGUAGES = ['en', 'es', 'pt', 'de', 'fr', 'it'];

/** Every way a day's month or weekday is named: whole, abbreviated, its first three letters, with or without accents. */
function namesOf(field: 'month' | 'weekday'): (d: Date) => string[] {
  const formats = CALENDAR_LANGUAGES.flatMap((language) =>
    (['long', 'short'] as const).map(
      (width) => new Intl.DateTimeFormat(language, { [field]: width, timeZone: 'UTC' }),
    ),
  );
  const byKey = new Map<number, string[]>();
  return (d) => {
    const key = field === 'month' ? d.getUTCMonth() : 100 + d.getUTCDay();
    let names = byKey.get(key);
    if (!names) {
      const written = formats.map((f) => f.format(d).toLowerCase().replace(/\.$/, ''));
      const all = written.flatMap((n) => [n, n.slice(0, 3)]);
      names = [...new Set([...all, ...all.map(withoutAccents)])];
      byKey.set(key, names);
    }
    return names;
  };
}
const monthNames = namesOf('month');
const weekdayNames = namesOf('weekday');

/** The day a sampled value names: ISO text at midnight, or a driver's local midnight rendered in UTC. */
function sampledDay(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(ms)) return undefined;
  // A DATE read in a session east or west of UTC lands up to 14 hours off midnight: the nearest midnight is its day.
  return new Date(Math.round(ms / 86_400_000) * 86_400_000);
}

/** Every reading of a day's parts a calendar column may hold, by part name. */
function partsOf(d: Date): Record<string, string[]> {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + 1;
  const dom = d.getUTCDate();
  const dow = d.getUTCDay();
  const doy = Math.floor((d.getTime() - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
  const iso = d.toISOString().slice(0, 10);
  return {
    year: [String(y)],
    quarter: [String(Math.ceil(m / 3)), `q${Math.ceil(m / 3)}`, `${y}-q${Math.ceil(m / 3)}`],
    month: [String(m), iso.slice(0, 7), iso.slice(0, 7).replace('-', '')],
    'day of month': [String(dom)],
    'day of year': [String(doy)],
    // Sunday-based 0..6 or 1..7, Monday-based 1..7 (ISO) or 0..6.
    'weekday (sunday 0)': [String(dow)],
    'weekday (sunday 1)': [String(dow + 1)],
    'weekday (monday 1)': [String(dow === 0 ? 7 : dow)],
    'weekday (monday 0)': [String((dow + 6) % 7)],
    'month name': monthNames(d),
    'weekday name': weekdayNames(d),
    'weekend flag': [dow === 0 || dow === 6 ? '1' : '0', dow === 0 || dow === 6 ? 'true' : 'false'],
    'yyyymmdd key': [iso.replace(/-/g, '')],
  };
}

/**
 * The part a column holds on every sampled row (`month or quarter` when a few January days cannot
 * tell them apart), or undefined.
 */
function partOfColumn(rows: { day: Date; value: string }[]): string | undefined {
  const readings = rows.map(({ day, value }) => ({
    parts: partsOf(day),
    value: value.trim().toLowerCase().replace(/\.$/, ''),
  }));
  const names = Object.keys(readings[0].parts).filter((name) =>
    readings.every((r) => r.parts[name].includes(r.value)),
  );
  return names.length ? names.join(' or ') : undefined;
}

/**
 * The table as a calendar: a date column set on every row, one row per day over nearly every day
 * from its first to its last (figures over the whole table), and at least two other columns that
 * hold parts of that day on every sampled row. Undefined when the data do not show one.
 */
export function calendarOf(table: SourceTable): Calendar | undefined {
  if (table.row_count < MIN_DAYS || table.sample_rows.length < 3) return undefined;
  // A day kept as a DATE, or as a DATETIME at midnight (a `the_date` of a warehouse's time table).
  for (const column of table.columns.filter((c) => ['date', 'datetime', 'timestamp'].includes(c.data_type))) {
    const stats = table.date_stats?.[column.name];
    if (!stats?.first || !stats.last || stats.non_null !== table.row_count || stats.placeholder) continue;
    const span = (Date.parse(stats.last) - Date.parse(stats.first)) / 86_400_000 + 1;
    if (table.row_count > span || table.row_count < DAYS_SHARE * span) continue;
    const days = table.sample_rows.map((r) => sampledDay(r[column.name]));
    if (days.some((d) => !d)) continue;
    const parts = table.columns
      .filter((c) => c.name !== column.name)
      .flatMap((c) => {
        const rows = table.sample_rows.map((r, i) => ({ day: days[i]!, value: r[c.name] }));
        if (rows.some((r) => r.value === null || r.value === undefined)) return [];
        const part = partOfColumn(rows as { day: Date; value: string }[]);
        return part ? [{ column: c.name, part }] : [];
      });
    if (parts.length >= MIN_PARTS) return { table: table.name, dateColumn: column.name, parts };
  }
  return undefined;
}

/** `one row per day from 2023-01-01 to 2024-12-31; date full_date; parts year (year), month (month)`. */
export function calendarEvidence(calendar: Calendar, table: SourceTable): string {
  const stats = table.date_stats?.[calendar.dateColumn];
  return `a calendar: one row per day${stats ? ` from ${stats.first} to ${stats.last}` : ''} in ${calendar.dateColumn}, with that day's ${calendar.parts
    .map((p) => `${p.part} in ${p.column}`)
    .join(', ')}`;
}

/**
 * The dates a fact takes from the calendars it references: per calendar, its date through the
 * fact's first key into it (the key data modeling joins on), named and measured by that key.
 */
export function calendarCandidates(
  fact: SourceTable,
  references: PrdRelationship[],
  calendars: Map<string, Calendar>,
): EventTimeCandidate[] {
  const seen = new Set<string>();
  return references.flatMap((r) => {
    const calendar = calendars.get(r.references_table);
    if (!calendar || r.table !== fact.name || r.columns.length !== 1 || seen.has(calendar.table)) return [];
    seen.add(calendar.table);
    const candidate = keyCandidate(fact, r.columns[0], calendar.table, calendar.dateColumn);
    return candidate ? [candidate] : [];
  });
}
