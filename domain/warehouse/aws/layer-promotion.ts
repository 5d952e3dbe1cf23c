/**
 * The second half of a layer build, once every table is staged: each staging table becomes the live
 * one. Glue has no rename, so the live table is deleted and created again from the staging table's
 * definition (pointing at the new data), its partitions copied, and the staging entry dropped. Then
 * the replaced data and tables no longer in the layer go. Glue has no transactions either: readers
 * can miss a table for the moment between its delete and create.
 */
import type { BuiltTable } from '../warehouse-engine';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { isStagingTableName } from './ctas-statement';
import { builtTableOf, rowCountParameter, runIdParameter } from './glue-built-table';
import {
  createPartitions,
  deleteTableIfExists,
  getTable,
  listPartitions,
  listTables,
  putTable,
  renamedTableInput,
} from './glue-catalog';
import type { LayerTarget, StagedTable } from './layer-staging';
import { deleteOwnedData, dropTableWithData } from './table-data';
import { layerKeyPrefix, tableKeyPrefix } from './warehouse-s3-layout';

export async function promoteStaged(
  ctx: AwsWarehouseContext,
  target: LayerTarget,
  staged: StagedTable[],
): Promise<BuiltTable[]> {
  const { glue } = ctx.clients;
  const { database } = target;
  // Read everything first, so a Glue hiccup here changes nothing live.
  const prepared = [];
  for (const s of staged) {
    const table = await getTable(glue, database, s.staging);
    if (!table) throw new Error(`Athena reported ${database}.${s.staging} built, but Glue has no such table`);
    prepared.push({
      s,
      input: renamedTableInput(table, s.spec.name, {
        [rowCountParameter]: String(s.rowCount),
        [runIdParameter]: target.runId,
      }),
      partitions: await listPartitions(glue, database, s.staging),
    });
  }
  const before = (await listTables(glue, database)) ?? [];

  const built: BuiltTable[] = [];
  for (const { s, input, partitions } of prepared) {
    const old = before.find((t) => t.Name === s.spec.name);
    await deleteTableIfExists(glue, database, s.spec.name);
    await putTable(glue, database, input);
    await createPartitions(glue, database, s.spec.name, partitions);
    await deleteTableIfExists(glue, database, s.staging);
    if (old && old.StorageDescriptor?.Location !== input.StorageDescriptor?.Location) {
      await deleteOwnedData(
        ctx,
        old.StorageDescriptor?.Location,
        tableKeyPrefix(ctx.prefix, target.projectId, target.layer, s.spec.name),
      );
    }
    built.push({ ...builtTableOf(target.layer, input), row_count: s.rowCount });
  }

  // The layer is what this build made: earlier tables it no longer defines go.
  const keep = new Set(staged.map((s) => s.spec.name));
  for (const t of before) {
    if (t.Name && !keep.has(t.Name) && !isStagingTableName(t.Name))
      await dropTableWithData(ctx, database, t, layerKeyPrefix(ctx.prefix, target.projectId, target.layer));
  }
  return built;
}
