/**
 * Integer date keys (`yyyymmdd`, 20240131 for 31 January 2024), as warehouses and exports store
 * days (docs/offline-analyst.md#calendar-dimensions): what counts as one, and the PRD expression
 * that reads one as a DATE. Pure, so workflows may use it.
 */
import { columnReference } from './prd-sql/expression-sql';
import type { DateColumnStats } from './source-schema';
import {
  epochDateSource,
  partsDateSource,
  shapeOfFormat,
  textDateSource,
  type DateParts,
} from './text-dates';

/** The MySQL integer types wide enough for `yyyymmdd`. */
export const DATE_KEY_TYPES: ReadonlySet<string> = new Set(['int', 'integer', 'mediumint', 'bigint']);
/** The range of days a date key may name (earlier or later values are placeholders such as 0 or 99991231). */
export const DATE_KEY_MIN = 19000102;
export const DATE_KEY_MAX = 21001231;

/** `2024-01-31` for 20240131 (number or text); undefined when the value is not a real day in range. */
export function dateKeyDay(value: string | number | null | undefined): string | undefined {
  const text = String(value ?? '').trim();
  if (!/^\d{8}$/.test(text)) return undefined;
  const n = Number(text);
  if (n < DATE_KEY_MIN || n > DATE_KEY_MAX) return undefined;
  const [y, m, d] = [Number(text.slice(0, 4)), Number(text.slice(4, 6)), Number(text.slice(6, 8))];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return undefined;
  return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
}

/** How a column that is no date type is read as one (docs/offline-analyst.md#dates-read-from-values). */
export interface DayReading {
  encoding: 'yyyymmdd' | 'text' | 'parts' | 'epoch';
  /** For epoch: seconds or milliseconds. */
  unit?: 's' | 'ms';
  /** For text: its strptime format. */
  format?: string;
  /** For parts: the year, month and day columns. */
  parts?: DateParts;
  /** For text: the day/month order could not be told from the values. */
  ambiguous?: boolean;
}

/** How the explorer found a column that is no date type to hold days, as a reading; undefined for a date. */
export function dayReadingOf(stats: DateColumnStats | undefined): DayReading | undefined {
  if (!stats?.encoding) return undefined;
  const { encoding, format, ambiguous, parts, unit } = stats;
  if (encoding === 'text') return { encoding, format, ...(ambiguous ? { ambiguous } : {}) };
  if (encoding === 'parts') return { encoding, parts };
  if (encoding === 'epoch') return { encoding, unit };
  return { encoding };
}

/** What one value of a reading dates: a day, or only a month or a year (a year and month kept in parts). */
export const dayGrain = (reading: DayReading | undefined): 'day' | 'month' | 'year' =>
  reading?.encoding !== 'parts' || reading.parts?.day ? 'day' : reading.parts?.month ? 'month' : 'year';

/**
 * The PRD expression of a fact's `event_date` from a column: a cast for dates and timestamps; a
 * `yyyymmdd` key, text or a year with its month and day parsed as a day (a value that is no day
 * gives NULL, never an error).
 */
export function eventDateSource(table: string, column: string, reading?: DayReading): string {
  const ref = columnReference(table, column);
  if (reading?.encoding === 'yyyymmdd')
    return `CAST(try_strptime(CAST(${ref} AS VARCHAR), '%Y%m%d') AS DATE)`;
  if (reading?.encoding === 'text' && reading.format && shapeOfFormat(reading.format))
    return textDateSource(table, column, reading.format);
  if (reading?.encoding === 'parts' && reading.parts) return partsDateSource(table, reading.parts);
  if (reading?.encoding === 'epoch' && reading.unit) return epochDateSource(table, column, reading.unit);
  return `CAST(${ref} AS DATE)`;
}
