/**
 * Profiles one ODS table: one full scan for exact NULL counts, distinct counts and the event
 * column's range, one query (sampled on large tables) for every column's top five values, and one
 * for the longest gap in the event dates.
 */
import { chooseGrain } from '../../shared/chart-grain';
import type { ColumnProfile, TableProfileReport, TimeRange } from './data-profile-types';
import { type JsonRow, type OdsCatalog } from './ods-catalog-reader';
import { quoteIdent } from '../../shared/sql-quoting';

/** Above this many rows distinct counts are HyperLogLog estimates (exact COUNT DISTINCT costs memory). */
const EXACT_DISTINCT_MAX_ROWS = 500_000;
/** Above this many rows frequent values are counted on a reservoir sample of this size. */
export const FREQUENT_VALUES_SAMPLE_ROWS = 100_000;
const MAX_VALUE_CHARS = 60;
const TOP_VALUES = 5;

/** One ODS table to profile, with its columns and role. */
export interface TableToProfile {
  table: string;
  source_table: string;
  role: TableProfileReport['role'];
  columns: { name: string; type: string }[];
  /** Counted beforehand: it decides exact vs estimated distinct counts and sampling. */
  rows: number;
  /** The business-event column, when the table has one. */
  event_column?: string;
  /** How the event column reads as a day, when it is text or a year with its parts (an expression). */
  event_day?: string;
}

/** Credentials never appear in a profile, not even as frequent values (same rule as the PRD analyst). */
const SENSITIVE = /(password|passwd|secret|token|hash|salt)/i;
const isBlob = (type: string) => /^(BLOB|BYTEA|VARBINARY|BINARY)$/i.test(type);
const num = (v: JsonRow[string]) => (v === null ? 0 : Number(v));

/** Long values are cut so a profile stays readable (and small). */
function renderValue(value: JsonRow[string]): string {
  const text = String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** Whether an event column of this warehouse type holds `yyyymmdd` days (docs/offline-analyst.md#calendar-dimensions). */
const isDayKey = (type: string) =>
  /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UINTEGER|UBIGINT)$/i.test(type);

/** The day of an event column: a date or time cast, a `yyyymmdd` integer parsed (NULL when no day). */
const dayOf = (column: string, type: string) =>
  isDayKey(type)
    ? `CAST(try_strptime(CAST(${column} AS VARCHAR), '%Y%m%d') AS DATE)`
    : `CAST(${column} AS DATE)`;

/** Row count, per-column NULLs, distinct counts and top values, and the event column's time range. */
export async function profileTable(catalog: OdsCatalog, t: TableToProfile): Promise<TableProfileReport> {
  const from = quoteIdent(t.table);
  const estimate = t.rows > EXACT_DISTINCT_MAX_ROWS;
  const distinctFn = (col: string) => (estimate ? `approx_count_distinct(${col})` : `count(DISTINCT ${col})`);
  const selects = ['count(*) AS n'];
  t.columns.forEach((c, i) => {
    const col = quoteIdent(c.name);
    selects.push(`count(${col}) AS nn_${i}`);
    if (!isBlob(c.type)) selects.push(`${distinctFn(col)} AS d_${i}`);
  });
  const eventType = t.columns.find((c) => c.name === t.event_column)?.type ?? '';
  // The day of the event column: as its reading says (text, parts), else by its type.
  const eventDay = (e: string) => t.event_day ?? dayOf(e, eventType);
  if (t.event_column) {
    const e = quoteIdent(t.event_column);
    // An integer `yyyymmdd` or text event column is shown as the days it names, a date or time as written.
    const shown = isDayKey(eventType) || t.event_day ? eventDay(e) : e;
    selects.push(
      `CAST(min(${shown}) AS VARCHAR) AS t_min`,
      `CAST(max(${shown}) AS VARCHAR) AS t_max`,
      `date_diff('day', min(${eventDay(e)}), max(${eventDay(e)})) + 1 AS t_days`,
      `count(DISTINCT ${eventDay(e)}) AS t_active`,
      `count(${eventDay(e)}) AS t_dated`,
    );
  }
  const [stats] = await catalog.query(`SELECT ${selects.join(', ')} FROM ${from}`);
  const rows = num(stats.n);

  const columns: ColumnProfile[] = t.columns.map((c, i) => {
    const nonNull = num(stats[`nn_${i}`]);
    return {
      name: c.name,
      type: c.type,
      null_rate: rows ? (rows - nonNull) / rows : 0,
      null_count: rows - nonNull,
      distinct_count: isBlob(c.type) ? null : Math.min(num(stats[`d_${i}`]), nonNull),
      frequent_values: [],
    };
  });
  const sampled = rows > FREQUENT_VALUES_SAMPLE_ROWS;
  await addFrequentValues(catalog, from, columns, rows, sampled);

  const nullCells = columns.reduce((n, c) => n + c.null_count, 0);
  const report: TableProfileReport = {
    table: t.table,
    source_table: t.source_table,
    layer: 'ods',
    role: t.role,
    row_count: rows,
    field_count: columns.length,
    null_rate: rows && columns.length ? nullCells / (rows * columns.length) : 0,
    columns,
  };
  const range = timeRange(t.event_column, stats);
  if (range) {
    // How its series is charted: by day, week or month from its rows per bucket.
    const dated = t.event_day
      ? num(stats.t_dated)
      : rows - (columns.find((c) => c.name === range.column)?.null_count ?? 0);
    range.grain = chooseGrain(dated, range.days);
    const gap = await longestGap(catalog, from, eventDay(quoteIdent(range.column)));
    if (gap) range.longest_gap = gap;
    report.time_range = range;
  }
  if (sampled) report.sampled_rows = FREQUENT_VALUES_SAMPLE_ROWS;
  return report;
}

/** Row counts of many tables in one query (Parquet answers them from metadata). */
export async function rowCounts(catalog: OdsCatalog, tables: string[]): Promise<Map<string, number>> {
  if (!tables.length) return new Map();
  const rows = await catalog.query(
    tables.map((t, i) => `(SELECT ${i} AS k, count(*) AS n FROM ${quoteIdent(t)})`).join(' UNION ALL '),
  );
  return new Map(rows.map((r) => [tables[num(r.k)], num(r.n)]));
}

function timeRange(column: string | undefined, stats: JsonRow): TimeRange | undefined {
  if (!column || stats.t_min === null || stats.t_min === undefined) return undefined;
  return {
    column,
    min: String(stats.t_min),
    max: String(stats.t_max),
    days: num(stats.t_days),
    active_days: num(stats.t_active),
  };
}

/** The longest stretch of empty calendar days between two days with rows. */
async function longestGap(
  catalog: OdsCatalog,
  from: string,
  /** The event column's day (an expression over the quoted column). */
  day: string,
): Promise<TimeRange['longest_gap'] | undefined> {
  const [gap] = await catalog.query(
    `SELECT CAST(d + 1 AS VARCHAR) AS gap_from, CAST(next_d - 1 AS VARCHAR) AS gap_to, date_diff('day', d, next_d) - 1 AS days
     FROM (SELECT d, lead(d) OVER (ORDER BY d) AS next_d
           FROM (SELECT DISTINCT ${day} AS d FROM ${from} WHERE ${day} IS NOT NULL))
     WHERE date_diff('day', d, next_d) > 1 ORDER BY days DESC, d LIMIT 1`,
  );
  return gap ? { from: String(gap.gap_from), to: String(gap.gap_to), days: num(gap.days) } : undefined;
}

/**
 * Top values of every column that has repeats, in one UNION ALL query. On large tables a seeded
 * reservoir sample is materialized once (single-threaded, so the same rows are drawn every run) and
 * counts are scaled back to the table's size.
 */
async function addFrequentValues(
  catalog: OdsCatalog,
  from: string,
  columns: ColumnProfile[],
  rows: number,
  sampled: boolean,
): Promise<void> {
  const wanted = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !isBlob(c.type) && !SENSITIVE.test(c.name))
    .filter(({ c }) => c.distinct_count !== null && c.distinct_count > 0)
    .filter(({ c }) => c.distinct_count! < rows - c.null_count);
  if (!wanted.length) return;
  const src = sampled ? 's' : from;
  // A value seen once in a sample says nothing about its frequency (and would be scaled up).
  const once = sampled ? 'HAVING count(*) > 1' : '';
  const parts = wanted.map(({ c, i }) => {
    const col = quoteIdent(c.name);
    return `(SELECT ${i} AS k, CAST(${col} AS VARCHAR) AS v, count(*) AS c FROM ${src}
      WHERE ${col} IS NOT NULL GROUP BY 2 ${once} ORDER BY 3 DESC, 2 LIMIT ${TOP_VALUES})`;
  });
  const sample = sampled
    ? `WITH s AS MATERIALIZED (SELECT * FROM ${from} USING SAMPLE reservoir(${FREQUENT_VALUES_SAMPLE_ROWS} ROWS) REPEATABLE (42)) `
    : '';
  const result = await catalog.query(
    `${sample}SELECT * FROM (${parts.join(' UNION ALL ')}) ORDER BY k, c DESC, v`,
    // The reservoir sample is repeatable only on one thread.
    { singleThreaded: sampled },
  );
  const scale = sampled ? rows / FREQUENT_VALUES_SAMPLE_ROWS : 1;
  for (const r of result) {
    columns[num(r.k)].frequent_values.push({ value: renderValue(r.v), count: Math.round(num(r.c) * scale) });
  }
}
