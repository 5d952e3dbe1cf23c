/**
 * What the layer-refresh tests share: a project's ODS registered from its files, its modeled layers
 * refreshed in order as the refresh workflow does, and every modeled table compared with a new build
 * on a copy of the same ODS.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { registerViews } from '../../../domain/warehouse/ods-ingestion';
import { clearDeltas } from '../../../domain/warehouse/refresh/ods-delta';
import type { DayRange, LayerTableSpec, TableScope } from '../../../domain/warehouse/warehouse-engine';
import {
  layerDatabaseFile,
  layerDatabaseName,
  layerDir,
  odsTableFile,
} from '../../../domain/warehouse/warehouse-layout';
import type { LayerName, Prd } from '../../../shared/prd-schema';

export const MODELED = ['dwd', 'dws', 'ads'] as const;
export type ModeledLayers = Record<(typeof MODELED)[number], LayerTableSpec[]>;

/** A project refreshed in place (`kept`) and the one built anew to compare it with (`fresh`). */
export interface LayerProjects {
  root: string;
  engine: DuckDbWarehouse;
  kept: string;
  fresh: string;
  /** The source tables, each an ODS view `ods_<name>` over its file. */
  sources: string[];
  layers: (projectId: string) => ModeledLayers;
}

export const odsOf = (p: LayerProjects, projectId: string) => layerDir(p.root, projectId, 'ods');

/** The ODS catalog of `projectId`: a view a source table over its file. */
export function registerOds(p: LayerProjects, projectId: string): Promise<void> {
  return registerViews(
    layerDatabaseFile(p.root, projectId, 'ods'),
    { layers: { ods: p.sources.map((s) => ({ name: `ods_${s}`, source_tables: [s] })) } } as unknown as Prd,
    p.sources.map((s) => ({ table: s, file: odsTableFile(odsOf(p, projectId), s) })),
  );
}

/** Each layer of the kept project refreshed in order, as the refresh workflow does; the scopes by `layer.table`. */
export async function refreshLayers(p: LayerProjects, force?: DayRange): Promise<Record<string, TableScope>> {
  const below: Record<string, TableScope> = {};
  for (const layer of MODELED)
    for (const t of await p.engine.refreshLayer(p.kept, layer, p.layers(p.kept)[layer], below, force))
      below[`${layer}.${t.name}`] = t.scope;
  clearDeltas(p.root, p.kept);
  return below;
}

/** Every modeled table of the kept project against a new build on a copy of its ODS. */
export async function expectEqualToFreshBuild(p: LayerProjects): Promise<void> {
  fs.rmSync(path.join(p.root, p.fresh), { recursive: true, force: true });
  fs.mkdirSync(odsOf(p, p.fresh), { recursive: true });
  for (const s of p.sources)
    fs.copyFileSync(odsTableFile(odsOf(p, p.kept), s), odsTableFile(odsOf(p, p.fresh), s));
  await registerOds(p, p.fresh);
  for (const layer of MODELED) await p.engine.buildLayer(p.fresh, layer, p.layers(p.fresh)[layer]);
  for (const layer of MODELED)
    for (const t of p.layers(p.kept)[layer]) {
      const rows = async (projectId: string) =>
        (await p.engine.query(projectId, `SELECT * FROM "${t.name}" ORDER BY ALL`, 100_000, layer)).rows;
      expect({ table: `${layer}.${t.name}`, rows: await rows(p.kept) }).toEqual({
        table: `${layer}.${t.name}`,
        rows: await rows(p.fresh),
      });
    }
}

/**
 * The fixture's operations for projects `kept` and `fresh` over `sources` and `layers`, on the root
 * and engine `live` gives (read when called: they are set in `beforeAll`).
 */
export function layerProjectsOf(
  kept: string,
  fresh: string,
  sources: string[],
  layers: LayerProjects['layers'],
  live: () => Pick<LayerProjects, 'root' | 'engine'>,
) {
  const get = (): LayerProjects => ({ ...live(), kept, fresh, sources, layers });
  return {
    register: (projectId: string) => registerOds(get(), projectId),
    refreshLayers: (force?: DayRange) => refreshLayers(get(), force),
    expectEqualToFreshBuild: () => expectEqualToFreshBuild(get()),
  };
}

/** The catalogs a project's layers are attached under, and a table spec's shorthand. */
export function layerSpecs(projectId: string) {
  const [ods, dwd, dws] = (['ods', 'dwd', 'dws'] as LayerName[]).map((l) => layerDatabaseName(projectId, l));
  const t = (name: string, select: string, partition_by: string[] = []): LayerTableSpec => ({
    name,
    select,
    partition_by,
  });
  return { ods, dwd, dws, t };
}
