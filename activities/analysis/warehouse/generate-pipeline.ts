/** The production-pipeline agent: runnable incremental-load templates (no model calls). */
import type { PipelineSummary } from '../../../shared/warehouse-model';
import { generatePipelineTemplates } from '../../../domain/pipeline/pipeline-templates';
import { loadSourceSchema } from '../source-access';
import { logStage } from './stage-log';
import type { ModelScripts, WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';

export async function generatePipeline(
  deps: WarehouseActivityDeps,
  { project_id, prd }: WarehouseStageRequest,
): Promise<PipelineSummary> {
  const { store, warehouseRoot } = deps;
  const scripts = await store.getArtifact<ModelScripts>(project_id, 'model_scripts');
  const templates = await generatePipelineTemplates({
    projectId: project_id,
    prd,
    source: await loadSourceSchema(store, warehouseRoot, project_id),
    layers: scripts?.layers ?? [],
  });
  await store.putArtifact(project_id, 'pipeline_templates', templates);
  await logStage(
    store,
    project_id,
    'production_pipeline',
    'templates',
    `${templates.files.length} files: ${templates.incremental.length} tables load incrementally, ${templates.full_reload.length} reload whole`,
    { files: templates.files.length },
  );
  return { files: templates.files.map((f) => f.path) };
}
