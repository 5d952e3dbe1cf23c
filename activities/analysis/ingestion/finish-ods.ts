/**
 * The copy's last step (docs/fleet.md#ingestion-in-parts): merges the parts into the ODS, checks
 * every table's counts, and says how consistent the copy is.
 */
import { assembleOds } from '../../../domain/warehouse/ods-assembly';
import { countedSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { snapshotVerdict, snapshotWarning } from '../../../domain/warehouse/ods-snapshot-verdict';
import type { OdsSummary } from '../../../shared/project-model';
import type { FinishOdsRequest, IngestionDeps } from './ingestion-deps';
import { odsSummary, refuseMismatchedCounts, storedSourceSchema } from './ods-summary';

export async function finishOds(
  { store, warehouseRoot, engine }: IngestionDeps,
  req: FinishOdsRequest,
): Promise<OdsSummary> {
  const schema = await storedSourceSchema(store, req.project_id);
  const result = await assembleOds({
    warehouseRoot,
    projectId: req.project_id,
    prd: req.prd,
    schema,
    copies: req.copies,
  });
  refuseMismatchedCounts(result.tables);
  await store.putArtifact(req.project_id, 'source_schema', countedSourceSchema(schema, result.tables));
  await engine?.publishOds(req.project_id, req.prd);
  const snapshot = snapshotVerdict(req.copies.flatMap((c) => c.tables));
  const consistency = snapshotWarning(snapshot);
  return odsSummary(
    req.project_id,
    result,
    [...req.notes, ...result.warnings, ...(consistency ? [consistency] : [])],
    {
      snapshot,
      parts: req.copies.length,
    },
  );
}
