/** Data governance: quality rules evaluated into a report; every table registered in the catalog with lineage. */
import type { GovernanceSummary } from '../../../shared/warehouse-model';
import { buildCatalog } from '../../../domain/governance/catalog';
import { evaluateQualityRules } from '../../../domain/governance/quality-checks';
import { logStage } from './stage-log';
import type { ModelScripts, WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';

export async function governWarehouse(
  deps: WarehouseActivityDeps,
  { project_id, prd }: WarehouseStageRequest,
): Promise<GovernanceSummary> {
  const { store, engine } = deps;
  const report = await evaluateQualityRules(engine, project_id, prd);
  await store.putArtifact(project_id, 'quality_report', report);
  for (const r of report.results.filter((x) => x.status !== 'passed')) {
    await logStage(
      store,
      project_id,
      'data_governance',
      `rule:${r.name}`,
      `${r.severity} rule "${r.name}" ${r.status}: ${r.message}`,
      {
        rule: r.name,
        status: r.status,
        severity: r.severity,
        violations: r.violations,
      },
    );
  }
  const scripts = await store.getArtifact<ModelScripts>(project_id, 'model_scripts');
  const selects = Object.fromEntries((scripts?.layers ?? []).map((l) => [l.layer, l.tables]));
  const catalog = await buildCatalog(engine, project_id, prd, selects);
  await store.putArtifact(project_id, 'catalog', catalog);
  await logStage(
    store,
    project_id,
    'data_governance',
    'catalog',
    `registered ${catalog.tables.length} tables with lineage`,
    {
      tables: catalog.tables.length,
      lineage_edges: catalog.lineage.length,
    },
  );
  return {
    rules_total: report.rules_total,
    rules_passed: report.rules_passed,
    rules_failed: report.rules_failed,
    rules_errored: report.rules_errored,
    blocking_failed: report.blocking_failed,
    catalog_tables: catalog.tables.length,
  };
}
