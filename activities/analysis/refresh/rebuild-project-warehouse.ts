/**
 * A refresh's rebuild (docs/refresh.md#rebuilding-the-layers): DWD, DWS and ADS built again from the
 * refreshed ODS by the scripts data modeling stored (with any repair it made), layer by layer, each
 * replaced whole. No model is asked anything: the SQL is the one the project was approved with.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { ModelScripts } from '../warehouse/warehouse-deps';
import { logStage } from '../warehouse/stage-log';
import type { LayerName } from '../../../shared/prd-schema';
import type { RefreshDeps, RefreshRequest } from './refresh-deps';

export async function rebuildProjectWarehouse(
  { store, engine }: RefreshDeps,
  req: RefreshRequest,
): Promise<Record<string, number>> {
  const scripts = await store.getArtifact<ModelScripts>(req.project_id, 'model_scripts');
  if (!scripts?.layers.length)
    throw ApplicationFailure.nonRetryable(
      `project ${req.project_id} has no stored modeling scripts to rebuild its warehouse with`,
      'NotRefreshable',
    );
  const rows: Record<string, number> = {};
  for (const { layer, database, tables } of scripts.layers) {
    const built = await engine.buildLayer(req.project_id, layer as LayerName, tables);
    for (const t of built) rows[`${layer}.${t.name}`] = t.row_count;
    await logStage(
      store,
      req.project_id,
      'data_modeling',
      `${req.refresh_id}:${layer}`,
      `refresh: rebuilt ${database}: ${built.map((t) => `${t.name} (${t.row_count} rows)`).join(', ')}`,
      { refresh_id: req.refresh_id, layer, tables: built.length },
    );
  }
  return rows;
}
