/** Where a project's warehouse lives on the embedded engine: Parquet per table plus a DuckDB catalog per layer. */
import * as path from 'node:path';
import type { LayerName } from '../../shared/prd-schema';
import { fileNameFor, pathInside } from '../../shared/safe-file-name';

/** `plat_<project_id>_<layer>` (docs/requirements.md#workflow), the name users query. */
export function layerDatabaseName(projectId: string, layer: LayerName): string {
  return `plat_${projectId.replace(/-/g, '_')}_${layer}`;
}

/** `<root>/<project_id>/<layer>`, checked to stay inside the warehouse root. */
export function layerDir(warehouseRoot: string, projectId: string, layer: LayerName): string {
  return pathInside(warehouseRoot, projectId, layer);
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

/**
 * The Parquet file of source table `table` in the ODS directory: `<fileNameFor(table)>.parquet`, so
 * a source's name (`../../x`, `a/b`, `*`) never becomes a path or a glob
 * (docs/architecture.md#file-names-from-source-names). An ordinary name keeps its file (`orders.parquet`).
 */
export function odsTableFile(odsDir: string, table: string): string {
  return pathInside(odsDir, `${fileNameFor(table)}.parquet`);
}
