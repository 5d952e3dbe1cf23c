/** A Glue table as plat's BuiltTable. Glue counts no rows: the count is the `plat_row_count` parameter a build writes. */
import type { Table, TableInput } from '@aws-sdk/client-glue';
import type { LayerName } from '../../../shared/prd-schema';
import type { BuiltTable } from '../warehouse-engine';

/** Table parameter holding the row count measured when the table was built or registered. */
export const rowCountParameter = 'plat_row_count';
/** Table parameter holding the build that wrote the table's current data. */
export const runIdParameter = 'plat_run_id';

/** The BuiltTable of a Glue table; `row_count` is undefined when the table carries no count. */
export function builtTableOf(
  layer: LayerName,
  table: Table | TableInput,
): Omit<BuiltTable, 'row_count'> & { row_count: number | undefined } {
  const partitionKeys = table.PartitionKeys ?? [];
  const counted = table.Parameters?.[rowCountParameter];
  return {
    layer,
    name: table.Name!,
    location: table.StorageDescriptor?.Location ?? '',
    row_count: counted === undefined ? undefined : Number(counted),
    // Athena lists partition columns after the others; so do we.
    columns: [...(table.StorageDescriptor?.Columns ?? []), ...partitionKeys].map((c) => ({
      name: c.Name!,
      type: c.Type ?? 'unknown',
    })),
    partition_by: partitionKeys.map((c) => c.Name!),
  };
}
