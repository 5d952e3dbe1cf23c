/**
 * Grain by density (docs/web-ui.md#grain): a daily series is charted by day, week or month,
 * whichever is finest while a bucket still holds a handful of events on average, so four hundred
 * invoices over five years are monthly bars, not five years of daily bars of height 1 or 2. The
 * ADS stays daily; only charts and the profile group.
 */

export type ChartGrain = 'day' | 'week' | 'month';

/** Events a bucket should hold on average for its bar to say something. */
export const EVENTS_PER_BUCKET = 5;

const BUCKET_DAYS: Record<ChartGrain, number> = { day: 1, week: 7, month: 365.25 / 12 };

/** The grain chosen for a series, and why. */
export interface GrainChoice {
  grain: ChartGrain;
  /** Average events per bucket of that grain over the span. */
  events_per_bucket: number;
  /** Average events per calendar day over the span: the page picks a grain for a narrower range from it. */
  events_per_day: number;
  /** `monthly: about 6.7 events a month (400 over 1,827 days)`. */
  reason: string;
}

/** The grain for `events` spread over `spanDays` calendar days (first to last, both included). */
export function chooseGrain(events: number, spanDays: number): GrainChoice {
  const days = Number.isFinite(spanDays) ? Math.max(1, spanDays) : 1;
  const per = (g: ChartGrain) => (events * BUCKET_DAYS[g]) / days;
  // A grain needs at least two buckets in the span to show a trend at all.
  const allowed = (['day', 'week', 'month'] as const).filter(
    (g) => g === 'day' || days >= 2 * BUCKET_DAYS[g],
  );
  const grain: ChartGrain = allowed.find((g) => per(g) >= EVENTS_PER_BUCKET) ?? allowed[allowed.length - 1];
  const perBucket = Math.round(per(grain) * 10) / 10;
  const adverb = { day: 'daily', week: 'weekly', month: 'monthly' }[grain];
  return {
    grain,
    events_per_bucket: perBucket,
    events_per_day: per('day'),
    reason: `${adverb}: about ${perBucket} events a ${grain} (${events.toLocaleString('en-US')} over ${days.toLocaleString('en-US')} days)`,
  };
}

/** Calendar days from `first` to `last` (`YYYY-MM-DD…`), both included. */
export function spanDays(first: string, last: string): number {
  return Math.round((Date.parse(last.slice(0, 10)) - Date.parse(first.slice(0, 10))) / 86_400_000) + 1;
}
