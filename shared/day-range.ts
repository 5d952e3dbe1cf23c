/**
 * A backfill's range of days (docs/refresh.md#backfill): `from` to `to`, both included, as
 * `YYYY-MM-DD`, read and checked the same way by the gateway, the workflow and the engine.
 */

/** Days from `from` to `to`, both included (`YYYY-MM-DD`). */
export interface DayRange {
  from: string;
  to: string;
}

/** The most days one backfill may name: ten years. */
export const MAX_BACKFILL_DAYS = 3660;

/** A calendar day as `YYYY-MM-DD`. */
export const DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const DAY_MS = 86_400_000;

/** The day's midnight (UTC) in milliseconds, or undefined when it is no calendar day (2025-02-30). */
function dayMs(day: string): number | undefined {
  if (!DAY_PATTERN.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day ? undefined : ms;
}

/** Why a range cannot be backfilled (undefined when it can). */
export function dayRangeProblem(range: DayRange): string | undefined {
  const from = dayMs(range.from);
  const to = dayMs(range.to);
  if (from === undefined) return `from: ${JSON.stringify(range.from)} is not a calendar day (YYYY-MM-DD)`;
  if (to === undefined) return `to: ${JSON.stringify(range.to)} is not a calendar day (YYYY-MM-DD)`;
  if (to < from) return `to (${range.to}) is before from (${range.from})`;
  const days = (to - from) / DAY_MS + 1;
  if (days > MAX_BACKFILL_DAYS) return `${days} days: a backfill covers at most ${MAX_BACKFILL_DAYS}`;
  return undefined;
}

/** Every day of a valid range, in order (throws on one `dayRangeProblem` refuses). */
export function daysOf(range: DayRange): string[] {
  const problem = dayRangeProblem(range);
  if (problem) throw new Error(problem);
  const days: string[] = [];
  for (let ms = dayMs(range.from)!; ms <= dayMs(range.to)!; ms += DAY_MS)
    days.push(new Date(ms).toISOString().slice(0, 10));
  return days;
}
