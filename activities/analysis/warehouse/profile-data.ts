/** The analytics advisor: the data-profile report (docs/requirements.md#data-profile) over ODS, using the quality report when there is one. */
import type { ProfileSummary } from '../../../shared/warehouse-model';
import { buildDataProfile } from '../../../domain/advisor/data-profile';
import { renderProfileMarkdown } from '../../../domain/advisor/profile-markdown';
import type { QualityReport } from '../../../domain/governance/quality-checks';
import { loadSourceSchema } from '../source-access';
import { logStage } from './stage-log';
import type { WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';

export async function profileData(
  deps: WarehouseActivityDeps,
  { project_id, prd }: WarehouseStageRequest,
): Promise<ProfileSummary> {
  const { store, warehouseRoot, engine } = deps;
  const quality = await store.getArtifact<QualityReport>(project_id, 'quality_report');
  const schema = await loadSourceSchema(store, warehouseRoot, project_id);
  // Profiled locally: on the host's own files, or (Athena) a download of the published ODS.
  const ods = await engine.localOds(project_id);
  let report;
  try {
    report = await buildDataProfile({
      warehouseRoot: ods.warehouseRoot,
      projectId: project_id,
      prd,
      schema,
      quality: quality && {
        rules_total: quality.rules_total,
        rules_passed: quality.rules_passed,
        rules_failed: quality.rules_failed,
        blocking_failed: quality.blocking_failed.length,
      },
    });
  } finally {
    ods.release();
  }
  await store.putArtifact(project_id, 'data_profile', {
    ...report,
    markdown: renderProfileMarkdown(report),
  });
  for (const [i, insight] of report.key_insights.entries())
    await logStage(store, project_id, 'analytics_advisor', `insight:${i}`, insight);
  return { overall_score: report.overall_score, insights: report.key_insights.length };
}
