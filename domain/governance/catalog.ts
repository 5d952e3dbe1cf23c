/**
 * Data governance, part 2: every warehouse table registered in the project's catalog with schema,
 * layer, row count, location and table-level lineage (the tables its SQL reads; for ODS, the source
 * table it copies). The embedded catalog is a project artifact; in AWS the tables live in Glue.
 */
import { layerNames, type LayerName, type Prd } from '../../shared/prd-schema';
import type { LayerTableSpec, WarehouseEngine } from '../warehouse/warehouse-engine';
import { layerDatabaseName } from '../warehouse/warehouse-layout';

export interface CatalogEntry {
  database: string;
  table: string;
  layer: LayerName;
  description: string;
  row_count: number;
  columns: { name: string; type: string; description: string }[];
  partition_by: string[];
  location: string;
  /** Qualified names this table is built from (`mysql:<db>.<table>` for ODS). */
  upstream: string[];
}

export interface Catalog {
  generated_at: string;
  engine: WarehouseEngine['kind'];
  tables: CatalogEntry[];
  lineage: { from: string; to: string }[];
}

/** Qualified table names a generated SELECT reads. */
export function tablesRead(select: string): string[] {
  const found = [...select.matchAll(/\b(plat_[a-z0-9_]+_(?:ods|dwd|dws|ads))\."((?:[^"]|"")+)"/g)];
  return [...new Set(found.map((m) => `${m[1]}.${m[2].replace(/""/g, '"')}`))];
}

export async function buildCatalog(
  engine: WarehouseEngine,
  projectId: string,
  prd: Prd,
  selects: Partial<Record<LayerName, LayerTableSpec[]>>,
): Promise<Catalog> {
  const tables: CatalogEntry[] = [];
  for (const layer of layerNames) {
    const database = layerDatabaseName(projectId, layer);
    for (const built of await engine.describeLayer(projectId, layer)) {
      const planned = prd.layers[layer].find((t) => t.name === built.name);
      const fieldDoc = new Map(planned?.fields.map((f) => [f.name, f.description]) ?? []);
      const spec = selects[layer]?.find((s) => s.name === built.name);
      tables.push({
        database,
        table: built.name,
        layer,
        description: planned?.description ?? '',
        row_count: built.row_count,
        columns: built.columns.map((c) => ({ ...c, description: fieldDoc.get(c.name) ?? '' })),
        partition_by: built.partition_by,
        location: built.location,
        upstream:
          layer === 'ods'
            ? (planned?.source_tables ?? []).map((s) => `mysql:${prd.source.database}.${s}`)
            : spec
              ? tablesRead(spec.select)
              : [],
      });
    }
  }
  return {
    generated_at: new Date().toISOString(),
    engine: engine.kind,
    tables,
    lineage: tables.flatMap((t) => t.upstream.map((from) => ({ from, to: `${t.database}.${t.table}` }))),
  };
}
