/**
 * Data integration without reading the source (the create request's `reuse_ods`): a completed
 * project's ODS of the same source, on this host, copied into the new project's. When it cannot be
 * reused, the answer says why and the workflow copies the source in parts.
 */
import { readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { reuseOds } from '../../../domain/warehouse/ods-reuse';
import type { OdsSummary } from '../../../shared/project-model';
import type { IngestionDeps, ReuseEarlierOdsRequest } from './ingestion-deps';
import { odsSummary, refuseMismatchedCounts } from './ods-summary';

export async function reuseEarlierOds(
  { store, warehouseRoot, engine }: IngestionDeps,
  req: ReuseEarlierOdsRequest,
): Promise<{ reused: OdsSummary } | { unusable: string }> {
  const reuse = await reuseOds({
    warehouseRoot,
    fromProjectId: req.from,
    projectId: req.project_id,
    prd: req.prd,
  });
  if (!('reused' in reuse)) return { unusable: reuse.unusable };
  return { reused: await reusedSummary(store, engine, warehouseRoot, req, reuse) };
}

/** Checks the reused tables, stores their schema for the later stages and publishes them where those run. */
export async function reusedSummary(
  store: IngestionDeps['store'],
  engine: IngestionDeps['engine'],
  warehouseRoot: string,
  req: ReuseEarlierOdsRequest,
  reuse: Extract<Awaited<ReturnType<typeof reuseOds>>, { reused: unknown }>,
): Promise<OdsSummary> {
  const result = reuse.reused;
  refuseMismatchedCounts(result.tables);
  // The later stages read the schema from the metadata store, on whichever host they run.
  await store.putArtifact(req.project_id, 'source_schema', readSourceSchema(warehouseRoot, req.project_id));
  // Where the later stages run elsewhere (Athena), the ODS goes there too.
  await engine?.publishOds(req.project_id, req.prd);
  return odsSummary(req.project_id, result, result.warnings, {
    reused_from: { project_id: req.from, copied_at: reuse.copied_at },
  });
}
