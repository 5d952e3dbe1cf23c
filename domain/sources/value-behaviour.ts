/**
 * How the numbers of a table behave in the rows the explorer read (docs/offline-analyst.md#levels-and-flows):
 * whether they are often exactly 0, how widely they spread, whether they move by small steps when
 * followed over time (a level: a price, a temperature, a population) or jump about (a flow: rain,
 * deaths, goals), and whether one never changes within a thing (an attribute: a country's region).
 * The analyst reads these beside the names, so an unknown name is judged by its values.
 */
import type { DateColumnStats, NumberBehaviour, SourceColumn, ValueSeries } from '../../shared/source-schema';
import { readDay } from '../../shared/text-dates';

type Row = Record<string, unknown>;

const NUMBER_TYPES = /^(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric|float|double|real)$/;
const TEXT_TYPES = /char|text/;
/** Followed pairs needed before steps say anything. */
const MIN_PAIRS = 20;
/** Columns tried as what splits rows into series (fewest values first), and how many at once. */
const MAX_SPLIT_CANDIDATES = 6;
const MAX_SPLIT_SIZE = 2;

/** Whether a column holds numbers the explorer may follow. */
export const isNumberColumn = (c: SourceColumn): boolean => NUMBER_TYPES.test(c.data_type);

/** The sortable day of a row in the date `stats` of `column` describe, or undefined. */
function dayOf(row: Row, column: string, stats: DateColumnStats): string | number | undefined {
  const v = row[column];
  if (v === null || v === undefined) return undefined;
  switch (stats.encoding) {
    case undefined:
      return v instanceof Date ? v.toISOString() : String(v);
    case 'text':
      return stats.format ? readDay(String(v), stats.format) : undefined;
    case 'parts': {
      const p = stats.parts!;
      const part = (c?: string) => (c ? Number(row[c] ?? 0) : 0);
      return Number(v) * 10000 + part(p.month) * 100 + part(p.day);
    }
    default:
      return Number(v);
  }
}

/** The date set on most rows, that the series are followed along. */
function alongOf(dateStats: Record<string, DateColumnStats>): string | undefined {
  return Object.entries(dateStats)
    .filter(([, s]) => s.non_null - (s.placeholder ?? 0) > 0)
    .sort(([, a], [, b]) => b.non_null - (b.placeholder ?? 0) - (a.non_null - (a.placeholder ?? 0)))[0]?.[0];
}

const keyOf = (row: Row, columns: string[]) => JSON.stringify(columns.map((c) => row[c] ?? null));

/**
 * The fewest columns that, with the day, tell the rows apart: the things whose readings the table
 * keeps (a share's symbol, a census group's age and sex). Undefined when none do (rows are events).
 */
function seriesSplit(rows: Row[], days: (string | number)[], candidates: string[]): string[] | undefined {
  const unique = (split: string[]) =>
    new Set(rows.map((r, i) => `${days[i]}|${keyOf(r, split)}`)).size === rows.length;
  const tried = candidates.slice(0, MAX_SPLIT_CANDIDATES);
  if (unique([])) return [];
  for (let size = 1; size <= MAX_SPLIT_SIZE; size++)
    for (const split of combinations(tried, size)) if (unique(split)) return split;
  return undefined;
}

function combinations<T>(items: T[], size: number): T[][] {
  if (size === 0) return [[]];
  return items.flatMap((x, i) => combinations(items.slice(i + 1), size - 1).map((rest) => [x, ...rest]));
}

/**
 * Steps over spread: the mean squared change between following readings of one thing, over twice
 * their variance around that thing's mean. About 1 for values that jump about independently; near
 * 0 for values that move by small steps (von Neumann's ratio, halved).
 */
function stepRatio(series: number[][]): { pairs: number; ratio: number } | undefined {
  let squaredSteps = 0;
  let pairs = 0;
  let spread = 0;
  let n = 0;
  for (const s of series) {
    if (s.length < 2) continue;
    n += s.length;
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    for (let i = 1; i < s.length; i++) squaredSteps += (s[i] - s[i - 1]) ** 2;
    pairs += s.length - 1;
    spread += s.reduce((a, x) => a + (x - mean) ** 2, 0);
  }
  if (pairs < MIN_PAIRS || spread === 0) return undefined;
  return { pairs, ratio: round(squaredSteps / pairs / (2 * (spread / n))) };
}

/**
 * The behaviour of each number column of a table from its sampled rows, and the series its rows
 * make when a date orders them. Date columns (and a date's parts) are left out.
 */
export function numberBehaviour(
  columns: SourceColumn[],
  samples: Row[],
  dateStats: Record<string, DateColumnStats> | undefined,
  distinct: Record<string, number>,
): { behaviour: Record<string, NumberBehaviour>; series?: ValueSeries } {
  const dateColumns = new Set(
    Object.entries(dateStats ?? {}).flatMap(([c, s]) => [c, ...Object.values(s.parts ?? {})]),
  );
  const numbers = columns.filter((c) => isNumberColumn(c) && !dateColumns.has(c.name));
  const behaviour: Record<string, NumberBehaviour> = {};
  if (!samples.length || !numbers.length) return { behaviour };

  const { series, groups } = rowSeries(columns, samples, dateStats, distinct, dateColumns);

  // Things a number may be an attribute of: text with several rows for most of its values.
  const things = columns.filter(
    (c) =>
      TEXT_TYPES.test(c.data_type) &&
      (distinct[c.name] ?? 0) >= 3 &&
      (distinct[c.name] ?? 0) <= samples.length / 2,
  );

  for (const c of numbers) {
    if (series?.by.includes(c.name)) continue;
    const values = samples
      .map((r) => r[c.name])
      .filter((v) => v !== null && v !== undefined)
      .map(Number);
    const set = values.filter((v) => Number.isFinite(v));
    if (!set.length) continue;
    const b = valueStats(set);
    if (groups.length) {
      const steps = stepRatio(
        groups.map((g) => g.map((r) => Number(r[c.name])).filter((v) => Number.isFinite(v) && v !== null)),
      );
      if (steps) b.steps = steps;
    }
    const within =
      new Set(set).size >= 2 ? things.find((t) => constantWithin(samples, t.name, c.name)) : undefined;
    if (within) b.constant_within = within.name;
    behaviour[c.name] = b;
  }
  return { behaviour, ...(series ? { series } : {}) };
}

/** The series the rows make when a date orders them, split by the things they are readings of, and its rows by thing. */
function rowSeries(
  columns: SourceColumn[],
  samples: Row[],
  dateStats: Record<string, DateColumnStats> | undefined,
  distinct: Record<string, number>,
  dateColumns: Set<string>,
): { series?: ValueSeries; groups: Row[][] } {
  const along = dateStats ? alongOf(dateStats) : undefined;
  if (!along) return { groups: [] };
  const dated = samples
    .map((r) => ({ r, d: dayOf(r, along, dateStats![along]) }))
    .filter((x): x is { r: Row; d: string | number } => x.d !== undefined);
  const candidates = columns
    .filter(
      (c) =>
        !dateColumns.has(c.name) &&
        (TEXT_TYPES.test(c.data_type) || /int/.test(c.data_type)) &&
        (distinct[c.name] ?? 0) >= 2 &&
        (distinct[c.name] ?? 0) <= dated.length / 2,
    )
    .sort((a, b) => distinct[a.name] - distinct[b.name])
    .map((c) => c.name);
  const split =
    dated.length >= MIN_PAIRS
      ? seriesSplit(
          dated.map((x) => x.r),
          dated.map((x) => x.d),
          candidates,
        )
      : undefined;
  if (!split) return { groups: [] };
  const byThing = new Map<string, { r: Row; d: string | number }[]>();
  for (const x of dated) byThing.set(keyOf(x.r, split), [...(byThing.get(keyOf(x.r, split)) ?? []), x]);
  const groups = [...byThing.values()].map((g) =>
    g.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : 0)).map((x) => x.r),
  );
  return { series: { along, by: split, rows: dated.length, series: groups.length }, groups };
}

/** What a column's finite values say of themselves. */
function valueStats(set: number[]): NumberBehaviour {
  const mean = set.reduce((a, b) => a + b, 0) / set.length;
  const sd = Math.sqrt(set.reduce((a, x) => a + (x - mean) ** 2, 0) / set.length);
  const b: NumberBehaviour = {
    rows: set.length,
    distinct: new Set(set).size,
    integers: set.every((v) => Number.isInteger(v)),
    min: Math.min(...set),
    max: Math.max(...set),
    zeros: round(set.filter((v) => v === 0).length / set.length),
    negatives: round(set.filter((v) => v < 0).length / set.length),
    spread: mean === 0 ? 0 : round(sd / Math.abs(mean)),
  };
  // A time of day written hhmm (517, 1835): whole, 0–2400, never 60 minutes or more.
  if (b.integers && b.distinct > 12 && b.min >= 0 && b.max <= 2400 && set.every((v) => v % 100 < 60))
    b.clock = true;
  return b;
}

/** Whether `column` never changes among the rows of each value of `thing` that has several rows. */
function constantWithin(rows: Row[], thing: string, column: string): boolean {
  const seen = new Map<unknown, { value: number; rows: number }>();
  for (const r of rows) {
    const t = r[thing];
    const v = r[column];
    if (t === null || t === undefined || v === null || v === undefined) continue;
    const got = seen.get(t);
    if (!got) seen.set(t, { value: Number(v), rows: 1 });
    else if (got.value !== Number(v)) return false;
    else got.rows++;
  }
  // Several things seen more than once, and the number differs between them: it is theirs.
  const repeated = [...seen.values()].filter((x) => x.rows >= 2);
  return repeated.length >= 3 && new Set(repeated.map((x) => x.value)).size >= 2;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
