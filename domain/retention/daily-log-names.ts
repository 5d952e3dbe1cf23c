/**
 * How plat's own services' daily log files are named (docs/monitoring.md#retention): the launcher
 * writes them, the retention pass reads the day back from the name.
 */
import { DAY_MS } from './retention-periods';

/** `worker-2026-11-24.log`: one UTC day of a service's lines. */
export function dailyLogName(service: string, day: string): string {
  return `${service}-${day}.log`;
}

/** `worker-before-2026-11-24.log`: a plain log left by an older plat, all of it from before `day`. */
export function earlierLogName(service: string, day: string): string {
  return `${service}-before-${day}.log`;
}

/** A daily log file's service, day, and the last instant its lines can carry; undefined for other files. */
export function parseDailyLogName(
  name: string,
): { service: string; day: string; earlier: boolean; lastLine: Date } | undefined {
  const m = /^([a-z]+)-(before-)?(\d{4}-\d{2}-\d{2})\.log$/.exec(name);
  if (!m) return undefined;
  const dayStart = Date.parse(`${m[3]}T00:00:00Z`);
  if (Number.isNaN(dayStart)) return undefined;
  // A day's file ends with its day; a `before-<day>` file ends where that day starts.
  const earlier = Boolean(m[2]);
  return { service: m[1], day: m[3], earlier, lastLine: new Date(dayStart + (earlier ? 0 : DAY_MS)) };
}
