/** Where a project's warehouse lives on the embedded engine: Parquet per table plus a DuckDB catalog per layer. */
import * as path from 'node:path';
import type { LayerName } from '../../shared/prd-schema';
import { fileNameFor, pathInside } from '../../shared/safe-file-name';

/** `plat_<project_id>_<layer>` (docs/requirements.md#workflow), the name users query. */
export function layerDatabaseName(projectId: string, layer: LayerName): string {
  return `plat_${projectId.replace(/-/g, '_')}_${layer}`;
}

/** What a project id may be here: one plain path segment (the gateway gives `proj-<date>-<suffix>`). */
const PROJECT_DIR_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** Whether an entry of the warehouse root can be a project's directory (not `.spill`, not a stray file name). */
export const isProjectDirName = (name: string): boolean => PROJECT_DIR_NAME.test(name);

/**
 * `<root>/<project_id>/<layer>`. Called several times a query: a project id is checked to be one
 * plain segment, which keeps the path inside the root without touching the disk; names from a
 * source go through `pathInside` (odsTableFile).
 */
export function layerDir(warehouseRoot: string, projectId: string, layer: LayerName): string {
  if (!isProjectDirName(projectId)) throw new Error(`not a project id: ${JSON.stringify(projectId)}`);
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

/**
 * The Parquet file of source table `table` in the ODS directory: `<fileNameFor(table)>.parquet`, so
 * a source's name (`../../x`, `a/b`, `*`) never becomes a path or a glob
 * (docs/architecture.md#file-names-from-source-names). An ordinary name keeps its file (`orders.parquet`).
 */
export function odsTableFile(odsDir: string, table: string): string {
  return pathInside(odsDir, `${fileNameFor(table)}.parquet`);
}
