/**
 * The rules a refresh schedule keeps (docs/refresh.md#schedules), checked where the request arrives:
 * an interval of at least five minutes, or a five-field cron whose minute is one number (so at most
 * hourly), in a real IANA time zone. A refresh reads the source, so its pace is a cost the owner
 * chooses within these bounds.
 */

/** The shortest interval between two scheduled refreshes. */
export const MIN_REFRESH_MINUTES = 5;
const MAX_REFRESH_MINUTES = 366 * 24 * 60;
const UNIT_MINUTES = { m: 1, h: 60, d: 24 * 60 } as const;

/** Minutes of an interval (`30m`, `6h`, `1d`), or why it is refused. */
export function everyMinutes(every: string): number | { problem: string } {
  const m = /^([1-9]\d{0,5})(m|h|d)$/.exec(every);
  if (!m) return { problem: 'an interval is a whole number and a unit: 30m, 6h, 1d' };
  const minutes = Number(m[1]) * UNIT_MINUTES[m[2] as keyof typeof UNIT_MINUTES];
  if (minutes < MIN_REFRESH_MINUTES) return { problem: `at least ${MIN_REFRESH_MINUTES}m between refreshes` };
  if (minutes > MAX_REFRESH_MINUTES) return { problem: 'at most 366d between refreshes' };
  return minutes;
}

const FIELD = /^(\*|\d{1,2}(-\d{1,2})?(\/\d{1,2})?|\*\/\d{1,2})(,(\d{1,2}(-\d{1,2})?(\/\d{1,2})?))*$/;
const WEEKDAY_NAMES = /^[a-z]{3}(-[a-z]{3})?(,[a-z]{3}(-[a-z]{3})?)*$/i;
const MONTH_NAMES = WEEKDAY_NAMES;

/** Why a cron expression is refused, or undefined when it is kept. */
export function cronProblem(cron: string): string | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5)
    return 'a cron expression has five fields: minute hour day-of-month month day-of-week';
  const [minute, hour, day, month, weekday] = fields;
  if (!/^\d{1,2}$/.test(minute) || Number(minute) > 59)
    return 'the minute is one number, 0-59: a refresh runs at most hourly (use every for shorter intervals)';
  if (!FIELD.test(hour)) return `hour ${hour} is not a cron field`;
  if (!FIELD.test(day)) return `day-of-month ${day} is not a cron field`;
  if (!FIELD.test(month) && !MONTH_NAMES.test(month)) return `month ${month} is not a cron field`;
  if (!FIELD.test(weekday) && !WEEKDAY_NAMES.test(weekday))
    return `day-of-week ${weekday} is not a cron field`;
  return undefined;
}

/** Whether `zone` is a time zone this runtime (and so Temporal's tz database) knows. */
export function knownTimeZone(zone: string): boolean {
  if (zone.length > 64 || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
