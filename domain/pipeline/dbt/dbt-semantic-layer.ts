/**
 * The ADS metrics as dbt's semantic layer, and the dashboards as exposures: one semantic model per
 * ADS table (its `stat_date` the time dimension, its breakdown attributes categorical dimensions,
 * each metric's column a measure) and one simple metric per plat metric, named as plat names it.
 */
import type { Prd } from '../../../shared/prd-schema';
import { literalText } from './dbt-models';

type Yaml = Record<string, unknown>;

/** MetricFlow names: lower-case words joined by single underscores, starting with a letter. */
export function semanticName(...parts: string[]): string {
  const name = parts
    .join('_')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return /^[a-z]/.test(name) ? name : `m_${name}`;
}

/** The value column a metric's SQL reads (`SELECT stat_date, revenue AS value …` → `revenue`). */
function valueColumn(sql: string): string | undefined {
  return /\b(?:SUM\s*\(\s*)?([a-z_][a-z0-9_]*)\s*\)?\s+AS\s+value\b/i.exec(sql)?.[1];
}

/** Semantic models, metrics and the time spine's properties, as one properties file's content. */
export function semanticLayer(prd: Prd): { semantic_models: Yaml[]; metrics: Yaml[] } {
  const semanticModels: Yaml[] = [];
  const metrics: Yaml[] = [];
  // Labels must be unique: two facts' "Total tax amount per day" are told apart by their table.
  const labels = new Map<string, number>();
  for (const m of prd.metrics) labels.set(m.description, (labels.get(m.description) ?? 0) + 1);
  const labelOf = (m: Prd['metrics'][number]) =>
    (labels.get(m.description)! > 1 ? `${m.description} (${m.ads_table})` : m.description).slice(0, 200);
  for (const ads of prd.layers.ads) {
    const own = prd.metrics.filter((m) => m.ads_table === ads.name);
    if (!own.length || !ads.fields.some((f) => f.name === 'stat_date')) continue;
    const measures = new Map<string, Yaml>();
    for (const metric of own) {
      const column = valueColumn(metric.sql);
      if (!column || !ads.fields.some((f) => f.name === column)) continue;
      const measure = semanticName(ads.name, column);
      measures.set(measure, {
        name: measure,
        agg: metric.additive ? 'sum' : 'average',
        expr: column,
        description: metric.additive ? `${column}, summed` : `${column}, averaged over days`,
      });
      metrics.push({
        name: semanticName(metric.name),
        label: literalText(labelOf(metric)),
        description: literalText(
          `${metric.description} (plat metric ${metric.name}, unit ${metric.unit || 'none'})`,
        ),
        type: 'simple',
        type_params: { measure: measure },
      });
    }
    const dimensions = ads.fields
      .filter((f) => f.name !== 'stat_date' && f.type.startsWith('VARCHAR'))
      .map((f) => ({ name: f.name, type: 'categorical', description: literalText(f.description || f.name) }));
    semanticModels.push({
      name: semanticName('sm', ads.name),
      description: literalText(ads.description),
      model: `ref('${ads.name}')`,
      defaults: { agg_time_dimension: 'stat_date' },
      primary_entity: semanticName(ads.name, 'row'),
      dimensions: [
        { name: 'stat_date', type: 'time', type_params: { time_granularity: 'day' } },
        ...dimensions,
      ],
      measures: [...measures.values()],
    });
  }
  return { semantic_models: semanticModels, metrics };
}

/** Each dashboard as an exposure that depends on the ADS tables its metrics read. */
export function exposures(prd: Prd): Yaml[] {
  const byMetric = new Map(prd.metrics.map((m) => [m.name, m]));
  const used = new Set<string>();
  return prd.dashboards.map((d) => {
    let name = semanticName(d.title);
    for (let i = 2; used.has(name); i++) name = semanticName(d.title, String(i));
    used.add(name);
    const tables = [...new Set(d.metrics.map((m) => byMetric.get(m)?.ads_table).filter(Boolean))] as string[];
    return {
      name,
      label: literalText(d.title),
      type: 'dashboard',
      maturity: 'medium',
      description: literalText(`${d.description || d.title} (${d.chart} chart of ${d.metrics.join(', ')})`),
      depends_on: tables.map((t) => `ref('${t}')`),
      owner: { name: 'plat' },
    };
  });
}
