/**
 * The copy's plan (docs/fleet.md#ingestion-in-parts): explores the source's columns and keys (saved
 * for the parts and the later stages) and splits the PRD's source tables into parts.
 */
import { exploreSource } from '../../../domain/sources/source-explorer';
import { planOdsParts, type OdsCopyPlan } from '../../../domain/warehouse/ods-copy-plan';
import { estimatedRows } from '../../../domain/warehouse/ods-ingestion';
import { keyRanges } from '../../../domain/warehouse/pk-ranges';
import { connectOrExplain, connectorOf } from '../source-access';
import { DEFAULT_PART_ROWS, type IngestionDeps, type PlanOdsCopyRequest } from './ingestion-deps';

export async function planOdsCopy(
  { secrets, sources, store, partRows }: IngestionDeps,
  req: PlanOdsCopyRequest,
): Promise<OdsCopyPlan> {
  const source = await connectorOf(secrets, req.source, sources);
  const db = await connectOrExplain(source);
  try {
    const explored = await exploreSource(db, source.target.database, { sampleRows: 0, countRows: false });
    const wanted = new Set(req.prd.layers.ods.flatMap((t) => t.source_tables));
    const schema = { ...explored, tables: explored.tables.filter((t) => wanted.has(t.name)) };
    await store.putArtifact(req.project_id, 'source_schema', schema);
    return await planOdsParts(
      schema.tables,
      await estimatedRows(db),
      partRows ?? DEFAULT_PART_ROWS,
      (table, n) => keyRanges(db, table, n),
    );
  } finally {
    await db.end();
  }
}
