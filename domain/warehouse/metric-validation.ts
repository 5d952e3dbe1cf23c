/**
 * Query building: every ADS metric's SQL parsed, run and sanity-checked, so dashboards show only
 * metrics that work and the report says why the others do not.
 */
import type { Prd, PrdMetric } from '../../shared/prd-schema';
import type { ProjectQuery, WarehouseEngine } from './warehouse-engine';

export interface MetricCheck {
  name: string;
  ads_table: string;
  sql: string;
  unit: string;
  valid: boolean;
  /** Why the metric is not valid (first failed check), or what it returns. */
  reason: string;
  row_count: number;
  columns: string[];
  first_date: string | null;
  last_date: string | null;
  min: number | null;
  max: number | null;
  /** The sum of the values over every row (absent in reports written before it was kept). */
  total?: number | null;
  sample: Record<string, unknown>[];
}

export interface MetricValidationReport {
  generated_at: string;
  results: MetricCheck[];
}

const MAX_ROWS = 100_000;
/** How a metric that failed to run says so (its session is not used again). */
const DOES_NOT_RUN = 'does not run: ';

export async function validateMetrics(
  engine: WarehouseEngine,
  projectId: string,
  prd: Prd,
): Promise<MetricValidationReport> {
  // A metric's SQL is a tenant's (docs/security.md#tenant-sql): one that does not run may have left
  // its session unusable, so the metrics after it get a fresh one and it fails alone. Sessions are
  // shared otherwise: opening one attaches every layer, which costs more than most checks.
  const results: MetricCheck[] = [];
  let next = 0;
  while (next < prd.metrics.length)
    await engine.withQuerySession(projectId, async (query) => {
      while (next < prd.metrics.length) {
        const result = await check(query, prd.metrics[next++]);
        results.push(result);
        if (result.reason.startsWith(DOES_NOT_RUN)) return;
      }
    });
  return { generated_at: new Date().toISOString(), results };
}

async function check(query: ProjectQuery, metric: PrdMetric): Promise<MetricCheck> {
  const result: MetricCheck = {
    name: metric.name,
    ads_table: metric.ads_table,
    sql: metric.sql,
    unit: metric.unit,
    valid: false,
    reason: '',
    row_count: 0,
    columns: [],
    first_date: null,
    last_date: null,
    min: null,
    max: null,
    total: null,
    sample: [],
  };
  if (!/^\s*(select|with)\b/i.test(metric.sql)) {
    result.reason = 'not a SELECT statement';
    return result;
  }
  let rows: Record<string, unknown>[];
  try {
    const out = await query(metric.sql.replace(/;\s*$/, ''), MAX_ROWS, 'ads');
    rows = out.rows;
    result.columns = out.columns;
  } catch (err) {
    result.reason = `${DOES_NOT_RUN}${(err as Error).message.split('\n')[0]}`;
    return result;
  }
  result.row_count = rows.length;
  result.sample = rows.slice(0, 3);
  const fail = (reason: string) => ((result.reason = reason), result);

  if (!result.columns.includes('stat_date'))
    return fail('no stat_date column: a dashboard cannot plot it over time');
  const breakdown = metric.kind === 'breakdown';
  if (breakdown && !result.columns.includes('dimension'))
    return fail('no dimension column: a breakdown needs the value it splits by');
  const valueColumn = result.columns.includes('value')
    ? 'value'
    : result.columns.find((c) => c !== 'stat_date' && c !== 'dimension');
  if (!valueColumn) return fail('no value column besides stat_date');
  if (!rows.length) return fail('returns no rows');
  const values = rows.map((r) => r[valueColumn]).filter((v) => v !== null && v !== undefined);
  if (!values.length) return fail(`${valueColumn} is NULL on every row`);
  const numbers = values.map(Number);
  if (numbers.some((n) => !Number.isFinite(n))) return fail(`${valueColumn} is not numeric`);
  const dates = rows.map((r) => String(r.stat_date));
  // A series has one row a day; a breakdown one row a day per dimension value.
  const keys = breakdown ? rows.map((r) => `${String(r.stat_date)}|${String(r.dimension)}`) : dates;
  if (new Set(keys).size !== keys.length)
    return fail(
      breakdown ? 'more than one row per stat_date and dimension' : 'more than one row per stat_date',
    );
  // Money is signed (a day of refunds, a ledger's credits: docs/offline-analyst.md#money-as-text);
  // a count never is.
  if (metric.unit === 'count' && numbers.some((n) => n < 0)) return fail('negative count values');
  // Rows without a date (a fact whose event time is unset on some rows) have no place on a time axis.
  const sorted = [
    ...new Set(
      rows.filter((r) => r.stat_date !== null && r.stat_date !== undefined).map((r) => String(r.stat_date)),
    ),
  ].sort();
  if (!sorted.length) return fail('stat_date is NULL on every row');
  result.first_date = sorted[0];
  result.last_date = sorted[sorted.length - 1];
  result.min = Math.min(...numbers);
  result.max = Math.max(...numbers);
  result.total = numbers.reduce((n, v) => n + v, 0);
  result.valid = true;
  const values_ = breakdown
    ? `, ${new Set(rows.map((r) => String(r.dimension))).size} ${metric.dimension ?? 'dimension'} values`
    : '';
  result.reason = `${sorted.length} days from ${result.first_date} to ${result.last_date}${values_}, ${valueColumn} ${result.min} … ${result.max}`;
  return result;
}
