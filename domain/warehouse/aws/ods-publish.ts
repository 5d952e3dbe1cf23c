/**
 * ODS in AWS: data integration writes Parquet locally (exact types, reconciled counts), then the
 * files go to S3 and each ODS table is registered in Glue as `plat_<id>_ods.<table>`, so Athena's
 * modeling statements read it like any other layer.
 */
import type { LayerName, Prd } from '../../../shared/prd-schema';
import { fileNameFor } from '../../../shared/safe-file-name';
import { DuckDbWarehouse } from '../duckdb-warehouse';
import type { BuiltTable } from '../warehouse-engine';
import { layerDir } from '../warehouse-layout';
import type { UploadedTableFile } from './layer-file-upload';
import type { ParquetTableDefinition } from './parquet-table-registration';

/** What publishing needs of the Athena warehouse (athena-warehouse.ts): uploads and registration. */
export interface OdsPublishTarget {
  uploadLayerFiles(localDir: string, projectId: string, layer: LayerName): Promise<UploadedTableFile[]>;
  registerParquetTable(projectId: string, layer: LayerName, def: ParquetTableDefinition): Promise<BuiltTable>;
}

/** DuckDB column types as Glue/Hive types. */
export function hiveType(duckType: string): string {
  const t = duckType.toUpperCase();
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (decimal) return `decimal(${decimal[1]},${decimal[2]})`;
  const simple: Record<string, string> = {
    TINYINT: 'tinyint',
    SMALLINT: 'smallint',
    INTEGER: 'int',
    BIGINT: 'bigint',
    // Beyond BIGINT: Hive has no unsigned 64-bit type.
    UBIGINT: 'decimal(20,0)',
    FLOAT: 'float',
    DOUBLE: 'double',
    BOOLEAN: 'boolean',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
    BLOB: 'binary',
  };
  return simple[t] ?? 'string';
}

export async function publishOds(
  engine: OdsPublishTarget,
  warehouseRoot: string,
  projectId: string,
  prd: Prd,
): Promise<BuiltTable[]> {
  const local = await new DuckDbWarehouse(warehouseRoot).describeLayer(projectId, 'ods');
  const uploaded = await engine.uploadLayerFiles(layerDir(warehouseRoot, projectId, 'ods'), projectId, 'ods');
  const registered: BuiltTable[] = [];
  for (const table of prd.layers.ods) {
    const file = uploaded.find((u) => u.table === fileNameFor(table.source_tables[0]));
    const schema = local.find((t) => t.name === table.name);
    if (!file || !schema) continue;
    registered.push(
      await engine.registerParquetTable(projectId, 'ods', {
        name: table.name,
        location: file.location,
        columns: schema.columns.map((c) => ({ name: c.name, type: hiveType(c.type) })),
        rowCount: schema.row_count,
      }),
    );
  }
  return registered;
}
