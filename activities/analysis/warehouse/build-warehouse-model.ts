/** Data modeling: the DWD, DWS and ADS scripts written from the PRD, stored, then executed layer by layer. */
import type { ModelingSummary } from '../../../shared/warehouse-model';
import {
  layerScript,
  layerSelects,
  MODELED_LAYERS,
  ModelSqlError,
  type ModeledLayer,
} from '../../../domain/warehouse/model-sql';
import { layerDatabaseName } from '../../../domain/warehouse/warehouse-layout';
import { loadSourceSchema } from '../source-access';
import { buildWithRepairs, modelFailure } from './model-repairs';
import { logStage } from './stage-log';
import type { ModelScripts, WarehouseActivityDeps, WarehouseStageRequest } from './warehouse-deps';

export async function buildWarehouseModel(
  deps: WarehouseActivityDeps,
  { project_id, prd }: WarehouseStageRequest,
): Promise<ModelingSummary> {
  const { store, warehouseRoot } = deps;
  const source = await loadSourceSchema(store, warehouseRoot, project_id);
  const scripts: ModelScripts = { layers: [] };
  try {
    for (const layer of MODELED_LAYERS) {
      const tables = layerSelects(prd, layer, project_id, source);
      scripts.layers.push({
        layer,
        database: layerDatabaseName(project_id, layer),
        script: layerScript(project_id, layer, tables),
        tables,
      });
    }
  } catch (err) {
    if (err instanceof ModelSqlError) throw modelFailure(err.layer, err.table, '', err.message);
    throw err;
  } finally {
    // Stored before running, so a failing script can be read through the API.
    await store.putArtifact(project_id, 'model_scripts', scripts);
  }
  const summary: ModelingSummary = { layers: [], repairs: [], usage: [] };
  for (const entry of scripts.layers) {
    const layer = entry.layer as ModeledLayer;
    const built = await buildWithRepairs(deps, project_id, prd, entry, summary);
    if (summary.repairs.some((r) => r.layer === layer)) {
      entry.script = layerScript(project_id, layer, entry.tables);
      await store.putArtifact(project_id, 'model_scripts', scripts);
    }
    summary.layers.push({
      layer,
      database: entry.database,
      tables: built.map((t) => ({
        name: t.name,
        row_count: t.row_count,
        columns: t.columns.length,
        partition_by: t.partition_by,
      })),
    });
    await logStage(
      store,
      project_id,
      'data_modeling',
      layer,
      `built ${entry.database}: ${built.map((t) => `${t.name} (${t.row_count} rows)`).join(', ')}`,
      { layer, tables: built.length },
    );
  }
  return summary;
}
