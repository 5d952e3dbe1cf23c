/**
 * The first half of a layer build: each table is written by an Athena CTAS into a staging table
 * `<name>__building` whose data goes to a folder of its own (`.../<name>/<run_id>/`), then counted.
 * Nothing live is touched, so a failure is undone by dropping what was staged.
 */
import type { LayerName } from '../../../shared/prd-schema';
import { LayerBuildError, type LayerTableSpec } from '../warehouse-engine';
import { AthenaQueryError } from './athena-query-runner';
import { countRows } from './athena-row-count';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import {
  columnProbeStatement,
  countStatement,
  ctasStatement,
  partitionColumnsLast,
  stagingTableName,
} from './ctas-statement';
import { getTable } from './glue-catalog';
import { deleteOwnedData, dropTableWithData } from './table-data';
import { s3Uri, tableKeyPrefix } from './warehouse-s3-layout';

/** A table written by this build, not yet live. */
export interface StagedTable {
  spec: LayerTableSpec;
  staging: string;
  /** s3:// folder of this build's data. */
  location: string;
  rowCount: number;
}

export interface LayerTarget {
  projectId: string;
  layer: LayerName;
  database: string;
  runId: string;
}

/**
 * Stages one table. `staged` gets the entry before the CTAS starts, so the caller's clean-up also
 * covers the table that failed (a failed CTAS can leave files behind).
 */
export async function stageTable(
  ctx: AwsWarehouseContext,
  target: LayerTarget,
  spec: LayerTableSpec,
  staged: StagedTable[],
): Promise<void> {
  const { database, layer } = target;
  const owned = tableKeyPrefix(ctx.prefix, target.projectId, layer, spec.name);
  const entry: StagedTable = {
    spec,
    staging: stagingTableName(spec.name),
    location: s3Uri(ctx.bucket, `${owned}${target.runId}/`),
    rowCount: 0,
  };
  // A build that died before cleaning up leaves its staging table; CTAS would refuse the name.
  const leftover = await getTable(ctx.clients.glue, database, entry.staging);
  if (leftover) await dropTableWithData(ctx, database, leftover, owned);
  staged.push(entry);

  let select = spec.select;
  if (spec.partition_by.length) {
    const probe = columnProbeStatement(spec.select);
    const columns = await athena(layer, spec.name, probe, async () => {
      const id = await ctx.runner.run(probe);
      return (await ctx.runner.results(id, 0)).columns.map((c) => c.Name ?? '');
    });
    try {
      select = partitionColumnsLast(spec.select, columns, spec.partition_by);
    } catch (err) {
      throw new LayerBuildError(layer, spec.name, spec.select, (err as Error).message);
    }
  }
  const ctas = ctasStatement({
    database,
    table: entry.staging,
    location: entry.location,
    partitionBy: spec.partition_by,
    select,
  });
  await athena(layer, spec.name, ctas, () => ctx.runner.run(ctas));
  const count = countStatement(database, entry.staging);
  entry.rowCount = await athena(layer, spec.name, count, () =>
    countRows(ctx.runner, database, entry.staging),
  );
}

/** Drops every staged table and its data (best effort: the original failure is what matters). */
export async function discardStaged(
  ctx: AwsWarehouseContext,
  target: LayerTarget,
  staged: StagedTable[],
): Promise<void> {
  await Promise.allSettled(
    staged.map(async (s) => {
      const owned = tableKeyPrefix(ctx.prefix, target.projectId, target.layer, s.spec.name);
      const table = await getTable(ctx.clients.glue, target.database, s.staging);
      if (table) await dropTableWithData(ctx, target.database, table, owned);
      await deleteOwnedData(ctx, s.location, owned);
    }),
  );
}

/** Runs one Athena step; a statement Athena did not run becomes the LayerBuildError naming it. */
async function athena<T>(
  layer: LayerName,
  table: string,
  statement: string,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof AthenaQueryError) throw new LayerBuildError(layer, table, statement, err.reason);
    throw err;
  }
}
