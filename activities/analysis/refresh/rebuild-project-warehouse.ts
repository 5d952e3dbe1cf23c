/**
 * A refresh's rebuild (docs/refresh.md#rebuilding-the-layers): DWD, DWS and ADS built again from the
 * refreshed ODS by the scripts data modeling stored (with any repair it made), layer by layer. No
 * model is asked anything: the SQL is the one the project was approved with. The embedded engine
 * computes only the days the changes touch (docs/refresh.md#only-affected-days); the ODS's pending
 * changes are dropped once every layer took them in.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { ModelScripts } from '../warehouse/warehouse-deps';
import { logStage } from '../warehouse/stage-log';
import type { LayerName } from '../../../shared/prd-schema';
import type { RefreshDeps, RefreshRequest } from './refresh-deps';
import { recomputedText, type RebuildOutcome, type RecomputedScope } from '../../../shared/refresh-model';
import { clearDeltas } from '../../../domain/warehouse/refresh/ods-delta';
import type { BuiltTable, RefreshedTable, TableScope } from '../../../domain/warehouse/warehouse-engine';

export async function rebuildProjectWarehouse(
  { store, engine, warehouseRoot }: RefreshDeps,
  req: RefreshRequest,
): Promise<RebuildOutcome> {
  const scripts = await store.getArtifact<ModelScripts>(req.project_id, 'model_scripts');
  if (!scripts?.layers.length)
    throw ApplicationFailure.nonRetryable(
      `project ${req.project_id} has no stored modeling scripts to rebuild its warehouse with`,
      'NotRefreshable',
    );
  const rows: Record<string, number> = {};
  const scopes: Record<string, RecomputedScope> = {};
  const below: Record<string, TableScope> = {};
  for (const { layer, database, tables } of scripts.layers) {
    const built: (BuiltTable | RefreshedTable)[] = engine.refreshLayer
      ? await engine.refreshLayer(req.project_id, layer as LayerName, tables, below, req.range)
      : await engine.buildLayer(req.project_id, layer as LayerName, tables);
    for (const t of built) {
      rows[`${layer}.${t.name}`] = t.row_count;
      if (!('scope' in t)) continue;
      below[`${layer}.${t.name}`] = t.scope;
      scopes[`${layer}.${t.name}`] = recomputedScope(t.scope);
    }
    await logStage(
      store,
      req.project_id,
      'data_modeling',
      `${req.refresh_id}:${layer}`,
      `refresh: rebuilt ${database}: ${built.map((t) => `${t.name} (${t.row_count} rows${'scope' in t ? `, ${recomputedText(recomputedScope(t.scope))}` : ''})`).join(', ')}`,
      { refresh_id: req.refresh_id, layer, tables: built.length },
    );
  }
  if (engine.refreshLayer) clearDeltas(warehouseRoot, req.project_id);
  return { rows, scopes };
}

/** A table's scope as the project record keeps it: the number of days, not the days. */
function recomputedScope(scope: TableScope): RecomputedScope {
  if (scope.kind !== 'days') return scope;
  return { kind: 'days', column: scope.column, days: scope.days.length + (scope.null_day ? 1 : 0) };
}
