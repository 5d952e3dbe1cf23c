/**
 * The documents and bytes written to the alias over simulated time (docs/search-lifecycle.md#simulating-a-policy):
 * a daily volume, growing by a percentage each day (compounded, capped), spread evenly over the day.
 * Cumulative counts are a function of time, so writing them in any number of pieces gives the same
 * totals: the simulator can jump over passes where nothing happens.
 */
import { MAX_BYTES_PER_DAY, MAX_DOCS_PER_DAY, type IngestProfileInput } from './simulation-input';

export const DAY_MS = 86_400_000;

export class IngestProfile {
  /** Documents written before each day (float), for days 0..days. */
  private readonly docsBefore: number[];
  private readonly docRate: number[];
  private readonly bytesBefore?: number[];
  private readonly byteRate?: number[];
  /** Whether a daily volume reached its cap. */
  readonly capped: boolean;

  constructor(
    readonly input: IngestProfileInput,
    days: number,
  ) {
    const growth = 1 + input.growth_percent / 100;
    let capped = false;
    const series = (perDay: number, max: number) => {
      const rate: number[] = [];
      const before: number[] = [0];
      let r = perDay;
      for (let d = 0; d <= days; d++) {
        if (r > max) {
          r = max;
          capped = true;
        }
        rate.push(r);
        before.push(before[d] + r);
        r *= growth;
      }
      return { rate, before };
    };
    const docs = series(input.docs_per_day, MAX_DOCS_PER_DAY);
    this.docRate = docs.rate;
    this.docsBefore = docs.before;
    if (input.bytes_per_day !== undefined) {
      const bytes = series(input.bytes_per_day, MAX_BYTES_PER_DAY);
      this.byteRate = bytes.rate;
      this.bytesBefore = bytes.before;
    }
    this.capped = capped;
  }

  /** Documents written from the start until `t` (ms from the start). */
  docsAt(t: number): number {
    return Math.floor(cumulative(this.docsBefore, this.docRate, t));
  }

  /** Primary bytes written from the start until `t`. */
  bytesAt(t: number): number {
    if (this.bytesBefore && this.byteRate) return Math.floor(cumulative(this.bytesBefore, this.byteRate, t));
    return this.docsAt(t) * this.input.doc_bytes!;
  }

  /** The volume of day `d` (0 = the first day). */
  day(d: number): { docs: number; bytes: number } {
    const i = Math.min(d, this.docRate.length - 1);
    return {
      docs: Math.round(this.docRate[i]),
      bytes: Math.round(this.byteRate ? this.byteRate[i] : this.docRate[i] * this.input.doc_bytes!),
    };
  }

  /**
   * The first time after `from` at which `measure` (documents or bytes written since the start)
   * reaches `target`, or undefined before `until`. Both are monotone, so a bisection finds it.
   */
  reaches(measure: 'docs' | 'bytes', target: number, from: number, until: number): number | undefined {
    const at = (t: number) => (measure === 'docs' ? this.docsAt(t) : this.bytesAt(t));
    if (at(until) < target) return undefined;
    if (at(from) >= target) return from;
    let lo = from;
    let hi = until;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (at(mid) >= target) hi = mid;
      else lo = mid;
    }
    return hi;
  }
}

function cumulative(before: number[], rate: number[], t: number): number {
  if (t <= 0) return 0;
  const d = Math.min(Math.floor(t / DAY_MS), rate.length - 1);
  return before[d] + (rate[d] * (t - d * DAY_MS)) / DAY_MS;
}
