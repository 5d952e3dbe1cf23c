/**
 * Calendar arithmetic on UTC epoch milliseconds. Generators work in UTC only, so the output never
 * depends on the machine's time zone.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Midnight UTC of the given instant's UTC calendar day. */
export function utcMidnight(instant: Date | number): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Midnight UTC of a calendar date (month 1–12). */
export function utcDate(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day);
}

/** The same calendar day `years` years earlier or later (29 February becomes 1 March). */
export function addYears(day: number, years: number): number {
  const d = new Date(day);
  return Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate());
}

/** The same day of the month `months` months later (clamped dates roll over, as Date.UTC does). */
export function addMonths(day: number, months: number): number {
  const d = new Date(day);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate());
}

/** `YYYY-MM-DD`. */
export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:MM:SS` (seconds truncated), the text form of DATETIME and TIMESTAMP. */
export function formatDateTime(ms: number): string {
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(ms: number): number {
  return new Date(ms).getUTCDay();
}

/** 1 = 1 January … 366. */
export function dayOfYear(ms: number): number {
  const d = new Date(ms);
  return Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY_MS) + 1;
}

/** Month 1–12 and day of month. */
export function monthAndDay(ms: number): { month: number; day: number } {
  const d = new Date(ms);
  return { month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Whole days from `from` to `to` (both midnights). */
export function daysBetween(from: number, to: number): number {
  return Math.round((to - from) / DAY_MS);
}
