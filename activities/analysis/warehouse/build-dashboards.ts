/** Visualization: datasets (valid metrics) and dashboards, served live by the gateway's dashboard page. */
import type { VisualizationSummary } from '../../../shared/warehouse-model';
import { buildDashboardSpec, dashboardUrl } from '../../../domain/visualization/dashboard-spec';
import type { MetricValidationReport } from '../../../domain/warehouse/metric-validation';
import type { WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';

export async function buildDashboards(
  deps: WarehouseActivityDeps,
  { project_id, prd }: WarehouseStageRequest,
): Promise<VisualizationSummary> {
  const { store, publicUrl } = deps;
  const validation = await store.getArtifact<MetricValidationReport>(project_id, 'metric_validation');
  const url = dashboardUrl(publicUrl, project_id);
  const spec = buildDashboardSpec(prd, validation, url);
  await store.putArtifact(project_id, 'dashboards', spec);
  return {
    url,
    dashboards: spec.dashboards.length,
    charts: spec.dashboards.reduce((n, d) => n + d.charts.length, 0),
  };
}
