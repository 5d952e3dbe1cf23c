/** Where a project's warehouse lives on the embedded engine: Parquet per table plus a DuckDB catalog per layer. */
import * as path from 'node:path';
import type { LayerName } from '../../shared/prd-schema';

/** `plat_<project_id>_<layer>` (docs/requirements.md#workflow), the name users query. */
export function layerDatabaseName(projectId: string, layer: LayerName): string {
  return `plat_${projectId.replace(/-/g, '_')}_${layer}`;
}

export function layerDir(warehouseRoot: string, projectId: string, layer: LayerName): string {
  return path.join(warehouseRoot, projectId, layer);
}

export function layerDatabaseFile(warehouseRoot: string, projectId: string, layer: LayerName): string {
  return path.join(
    layerDir(warehouseRoot, projectId, layer),
    `${layerDatabaseName(projectId, layer)}.duckdb`,
  );
}

/** The source schema (tables, keys, relations) saved next to the ODS files. */
export function sourceSchemaFile(warehouseRoot: string, projectId: string): string {
  return path.join(layerDir(warehouseRoot, projectId, 'ods'), 'source-schema.json');
}
