/** Spreading a fixed number of events over a date range, following a daily weight (season, weekday). */
import { DAY_MS, dayOfYear, weekday } from './calendar';
import type { SeededRandom } from './random';

export interface EventSpread {
  /** First day (midnight UTC), included. */
  from: number;
  /** Last day (midnight UTC), excluded. */
  to: number;
  count: number;
  /** Relative weight of a day (default 1). */
  weight?: (day: number) => number;
  /** Hours of the day events happen in, [first, last) (default 0–24). */
  hours?: [number, number];
}

/** Exactly `count` instants (epoch ms, whole seconds), sorted, drawn day by weight then time of day. */
export function spreadEvents(rng: SeededRandom, spread: EventSpread): number[] {
  const days: number[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (let day = spread.from; day < spread.to; day += DAY_MS) {
    total += Math.max(0, spread.weight?.(day) ?? 1);
    days.push(day);
    cumulative.push(total);
  }
  if (total <= 0) throw new Error('no day has a positive weight');
  const [firstHour, lastHour] = spread.hours ?? [0, 24];
  const instants: number[] = [];
  for (let i = 0; i < spread.count; i++) {
    const target = rng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    instants.push(days[lo] + rng.int(firstHour * 3600, lastHour * 3600 - 1) * 1000);
  }
  return instants.sort((a, b) => a - b);
}

/** A yearly cycle peaking on day-of-year `peakDay`, between 1 − amplitude and 1 + amplitude. */
export function yearlyCycle(day: number, peakDay: number, amplitude: number): number {
  return 1 + amplitude * Math.cos((2 * Math.PI * (dayOfYear(day) - peakDay)) / 365);
}

/** Weekdays at 1, weekends at `weekendFactor`. */
export function weekendFactor(day: number, factor: number): number {
  const wd = weekday(day);
  return wd === 0 || wd === 6 ? factor : 1;
}

/** Linear growth from 1 at `from` to `endFactor` at `to`. */
export function growth(day: number, from: number, to: number, endFactor: number): number {
  return 1 + ((endFactor - 1) * (day - from)) / (to - from);
}
