/** Registers a folder of Parquet files as a Glue table (how ODS tables enter the catalog: no CTAS made them). */
import type { TableInput } from '@aws-sdk/client-glue';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { invalidNameReason } from './ctas-statement';
import { rowCountParameter } from './glue-built-table';
import { putTable } from './glue-catalog';

/** A Parquet table to register; column types are Glue/Hive types (`bigint`, `decimal(5,2)`, `string`, ...). */
export interface ParquetTableDefinition {
  name: string;
  /** The s3:// folder holding the table's Parquet files. */
  location: string;
  columns: { name: string; type: string }[];
  /** Rows in the files, when known (stored as `plat_row_count`, since Glue counts none). */
  rowCount?: number;
}

/** Creates the table in `database`, or replaces its definition when it exists. */
export async function registerParquetTable(
  ctx: AwsWarehouseContext,
  database: string,
  def: ParquetTableDefinition,
): Promise<TableInput> {
  const invalid = [def.name, ...def.columns.map((c) => c.name)].map(invalidNameReason).find(Boolean);
  if (invalid) throw new Error(`cannot register ${database}.${def.name}: ${invalid}`);
  const input: TableInput = {
    Name: def.name,
    TableType: 'EXTERNAL_TABLE',
    Parameters: {
      classification: 'parquet',
      EXTERNAL: 'TRUE',
      ...(def.rowCount === undefined ? {} : { [rowCountParameter]: String(def.rowCount) }),
    },
    PartitionKeys: [],
    StorageDescriptor: {
      Location: def.location,
      Columns: def.columns.map((c) => ({ Name: c.name, Type: c.type })),
      InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
      OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
      SerdeInfo: {
        SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
        Parameters: { 'serialization.format': '1' },
      },
    },
  };
  await putTable(ctx.clients.glue, database, input);
  return input;
}
