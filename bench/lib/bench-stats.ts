/** Small helpers shared by the benchmarks: percentiles, timing, formatting and the machine's load. */
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

export function summarize(samples: number[]): Summary {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length),
    max: samples.length ? Math.max(...samples) : NaN,
  };
}

/** Milliseconds taken by `fn`, and its result. */
export async function timed<T>(fn: () => Promise<T> | T): Promise<[number, T]> {
  const started = performance.now();
  const out = await fn();
  return [performance.now() - started, out];
}

export const ms = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '-');
export const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
export const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '-');

/** "load average 1/5/15 min: 2.31 3.58 3.13 on 2 cores". */
export function loadLine(): string {
  const [a, b, c] = os.loadavg().map((x) => x.toFixed(2));
  return `load average (1/5/15 min): ${a} ${b} ${c} on ${os.cpus().length} cores`;
}

/** A one-line description of the machine, printed at the top of every benchmark. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `node ${process.version}, ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM; ${loadLine()}`;
}

/** Left-aligned first column, right-aligned others. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
    .join('\n');
}

/** Seeded PRNG: the demo data's, so benches and generated databases draw alike. */
export { seededRandom } from '../../scripts/demo-data/random';

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got ${raw})`);
  return n;
}

/** Runs a benchmark's main and exits: 0 when it finished, 1 (with the error) when it threw. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
