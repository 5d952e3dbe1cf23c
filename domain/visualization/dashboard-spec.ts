/**
 * Visualization: the datasets (one per valid ADS metric) and dashboards of a project, as the
 * gateway's dashboard page renders them. The page queries the ADS layer live (direct query, no
 * cached import), so this spec holds SQL, never data.
 */
import { chooseGrain, spanDays, type GrainChoice } from '../../shared/chart-grain';
import type { Prd } from '../../shared/prd-schema';
import type { MetricValidationReport } from '../warehouse/metric-validation';

export interface DashboardDataset {
  metric: string;
  description: string;
  unit: string;
  ads_table: string;
  /** The validated metric SQL: returns stat_date and value (and `dimension` for a breakdown). */
  sql: string;
  /** `series`: a value a day; `breakdown`: a value a day per dimension value, charted as top-N. */
  kind: 'series' | 'breakdown';
  /** The ADS column a breakdown splits by. */
  dimension?: string;
  /** Whether values add up over days (counts, sums) or not (distinct counts, averages). */
  additive: boolean;
  first_date: string | null;
  last_date: string | null;
  /** How a series is charted: by day, week or month, from its fact's events per bucket. */
  grain?: GrainChoice;
}

export interface DashboardSpec {
  url: string;
  generated_at: string;
  /** The layer the page queries. */
  layer: 'ads';
  datasets: DashboardDataset[];
  dashboards: {
    title: string;
    description: string;
    charts: { metric: string; title: string; chart: Prd['dashboards'][number]['chart'] }[];
  }[];
  /** Metrics left off the dashboards, with the query-building stage's reason. */
  skipped: { metric: string; reason: string }[];
}

/** The dashboard page of a project (served by the gateway; authenticates with the user's token). */
export function dashboardUrl(publicUrl: string, projectId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/ui/projects/${encodeURIComponent(projectId)}/dashboard`;
}

export function buildDashboardSpec(
  prd: Prd,
  validation: MetricValidationReport | undefined,
  url: string,
): DashboardSpec {
  const checks = new Map(validation?.results.map((r) => [r.name, r]) ?? []);
  const datasets: DashboardDataset[] = [];
  const skipped: DashboardSpec['skipped'] = [];
  for (const m of prd.metrics) {
    const check = checks.get(m.name);
    if (!check?.valid) {
      skipped.push({ metric: m.name, reason: check?.reason ?? 'not validated' });
      continue;
    }
    datasets.push({
      metric: m.name,
      description: m.description,
      unit: m.unit,
      ads_table: m.ads_table,
      sql: m.sql,
      kind: m.kind,
      ...(m.dimension ? { dimension: m.dimension } : {}),
      additive: m.additive,
      first_date: check.first_date,
      last_date: check.last_date,
    });
  }
  // Each ADS table's events: the total of its first additive count (the fact's rows).
  const grains = new Map<string, GrainChoice>();
  for (const m of prd.metrics) {
    const check = checks.get(m.name);
    if (grains.has(m.ads_table) || m.unit !== 'count' || !m.additive || m.kind !== 'series') continue;
    if (!check?.valid || check.total == null || !check.first_date || !check.last_date) continue;
    grains.set(m.ads_table, chooseGrain(check.total, spanDays(check.first_date, check.last_date)));
  }
  for (const d of datasets) {
    const grain = grains.get(d.ads_table);
    if (grain && d.kind === 'series') d.grain = grain;
  }
  const valid = new Set(datasets.map((d) => d.metric));
  const dashboards = prd.dashboards
    .map((d) => ({
      title: d.title,
      description: d.description,
      charts: d.metrics
        .filter((m) => valid.has(m))
        .map((m) => ({
          metric: m,
          title: prd.metrics.find((x) => x.name === m)?.description ?? m,
          chart: d.chart,
        })),
    }))
    .filter((d) => d.charts.length > 0);
  return { url, generated_at: new Date().toISOString(), layer: 'ads', datasets, dashboards, skipped };
}
