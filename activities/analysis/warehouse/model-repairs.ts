/**
 * Data modeling's layer build with repairs: when a statement fails and a model is configured,
 * Claude repairs that SELECT (at most MAX_REPAIRS times per layer); offline, or past the last
 * repair, the stage fails with the statement (a non-retryable `ModelBuildFailed`).
 */
import { ApplicationFailure } from '@temporalio/activity';
import { claudeRepairSelect, DATA_MODELER } from '../../../domain/agents/claude-sql-repair';
import type { ModeledLayer } from '../../../domain/warehouse/model-sql';
import { LayerBuildError } from '../../../domain/warehouse/warehouse-engine';
import { layerDatabaseName } from '../../../domain/warehouse/warehouse-layout';
import { layerNames, type Prd } from '../../../shared/prd-schema';
import type { ModelingSummary } from '../../../shared/warehouse-model';
import { logStage } from './stage-log';
import type { ModelScripts, WarehouseActivityDeps } from './warehouse-deps';

/** Repairs Claude may make per layer before the stage fails with the statement. */
const MAX_REPAIRS = 2;

/**
 * Builds one layer; when a statement fails and a model is configured, Claude repairs that SELECT
 * (at most MAX_REPAIRS times per layer). Offline, the failing statement is reported as is.
 */
export async function buildWithRepairs(
  { store, engine, llm }: WarehouseActivityDeps,
  projectId: string,
  prd: Prd,
  entry: ModelScripts['layers'][number],
  summary: ModelingSummary,
) {
  const layer = entry.layer as ModeledLayer;
  for (let repairs = 0; ; repairs++) {
    try {
      return await engine.buildLayer(projectId, layer, entry.tables);
    } catch (err) {
      if (!(err instanceof LayerBuildError)) throw err;
      if (!llm || repairs >= MAX_REPAIRS) throw modelFailure(err.layer, err.table, err.statement, err.reason);
      const readable = [];
      for (const lower of layerNames.slice(0, layerNames.indexOf(layer)))
        for (const t of await engine.describeLayer(projectId, lower))
          readable.push({ name: `${layerDatabaseName(projectId, lower)}."${t.name}"`, columns: t.columns });
      const fix = await claudeRepairSelect({
        settings: llm,
        layer,
        table: prd.layers[layer].find((t) => t.name === err.table)!,
        statement: err.statement,
        reason: err.reason,
        readable,
      });
      summary.usage.push(fix.usage);
      summary.repairs.push({ layer, table: err.table, reason: err.reason });
      entry.tables = entry.tables.map((t) => (t.name === err.table ? { ...t, select: fix.select } : t));
      await logStage(
        store,
        projectId,
        'data_modeling',
        `repair:${layer}:${err.table}:${repairs}`,
        `repaired ${err.table} with Claude after: ${err.reason}`,
        {
          agent: DATA_MODELER,
          table: err.table,
          input_tokens: fix.usage.input_tokens,
          output_tokens: fix.usage.output_tokens,
        },
      );
    }
  }
}

/** The stage's failure for a statement that does not build. */
export function modelFailure(
  layer: string,
  table: string,
  statement: string,
  reason: string,
): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'ModelBuildFailed',
    nonRetryable: true,
    message: `${layer}.${table}: ${reason}`,
    details: [{ layer, table, statement, reason }],
  });
}
