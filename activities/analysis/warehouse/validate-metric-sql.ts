/** Query building: every ADS metric's SQL run and sanity-checked. */
import type { MetricValidationSummary } from '../../../shared/warehouse-model';
import { validateMetrics } from '../../../domain/warehouse/metric-validation';
import { logStage } from './stage-log';
import type { WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';

export async function validateMetricSql(
  deps: WarehouseActivityDeps,
  { project_id, prd }: WarehouseStageRequest,
): Promise<MetricValidationSummary> {
  const { store, engine } = deps;
  const report = await validateMetrics(engine, project_id, prd);
  await store.putArtifact(project_id, 'metric_validation', report);
  for (const r of report.results)
    await logStage(
      store,
      project_id,
      'query_building',
      `metric:${r.name}`,
      `${r.name}: ${r.valid ? 'valid' : 'invalid'}, ${r.reason}`,
      {
        metric: r.name,
        valid: r.valid,
      },
    );
  return {
    metrics_total: report.results.length,
    valid: report.results.filter((r) => r.valid).map((r) => r.name),
    invalid: report.results.filter((r) => !r.valid).map((r) => ({ name: r.name, reason: r.reason })),
  };
}
