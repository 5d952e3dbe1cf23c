/**
 * Data integration in one activity: source tables → Parquet in the project's ODS, resuming after the
 * last finished table; or, with `reuse_ods`, a completed project's ODS of the same source copied
 * over. Every new project copies in parts (reuse-earlier-ods.ts, plan-ods-copy.ts, copy-ods-part.ts,
 * finish-ods.ts); this activity stays registered while recorded histories of projects started
 * before that call it (docs/architecture.md#changing-workflow-code).
 */
import { activityInfo, cancellationSignal } from '@temporalio/activity';
import { exploreSource } from '../../../domain/sources/source-explorer';
import {
  ingestOds as copyTables,
  readSourceSchema,
  type OdsIngestionResult,
} from '../../../domain/warehouse/ods-ingestion';
import { reuseOds } from '../../../domain/warehouse/ods-reuse';
import { snapshotVerdict, snapshotWarning } from '../../../domain/warehouse/ods-snapshot-verdict';
import type { OdsSummary } from '../../../shared/project-model';
import { tableCopiedEvent } from '../ods-progress';
import { connectOrExplain, connectorOf } from '../source-access';
import { withTableProgress } from './table-progress';
import type { IngestionDeps, IngestOdsRequest } from './ingestion-deps';
import { reusedSummary } from './reuse-earlier-ods';
import { odsSummary, refuseMismatchedCounts } from './ods-summary';

export async function ingestOds(deps: IngestionDeps, req: IngestOdsRequest): Promise<OdsSummary> {
  const { store, warehouseRoot, engine } = deps;
  const notes: string[] = [];
  const from = req.reuse_ods?.from;
  if (from) {
    const reuse = await reuseOds({
      warehouseRoot,
      fromProjectId: from,
      projectId: req.project_id,
      prd: req.prd,
    });
    if ('reused' in reuse) return reusedSummary(store, engine, warehouseRoot, { ...req, from }, reuse);
    notes.push(`reuse_ods: ${reuse.unusable}; copied from the source instead`);
  } else if (req.reuse_ods?.requested) {
    notes.push('reuse_ods: none of your completed projects reads this source; copied from the source');
  }
  const result = await copySource(deps, req);
  refuseMismatchedCounts(result.tables);
  // The later stages read the schema from the metadata store, on whichever host they run.
  await store.putArtifact(req.project_id, 'source_schema', readSourceSchema(warehouseRoot, req.project_id));
  // Where the later stages run elsewhere (Athena), the ODS goes there too.
  await engine?.publishOds(req.project_id, req.prd);
  const snapshot = snapshotVerdict(result.tables);
  const consistency = snapshotWarning(snapshot);
  return odsSummary(
    req.project_id,
    result,
    [...notes, ...result.warnings, ...(consistency ? [consistency] : [])],
    { snapshot, parts: 1 },
  );
}

/**
 * Copies the source's tables into the project's ODS in one consistent snapshot, resuming from the
 * heartbeat; the schema as copied is kept for the later stages.
 */
async function copySource(
  { secrets, sources, store, warehouseRoot, maxRowsPerSecond }: IngestionDeps,
  req: IngestOdsRequest,
): Promise<OdsIngestionResult> {
  const source = await connectorOf(secrets, req.source, sources);
  const db = await connectOrExplain(source);
  const attempt = activityInfo().attempt;
  return withTableProgress(
    store,
    async ({ checkpoint, tableDone }) => {
      // Columns and keys only: the copy counts rows itself, inside its consistent snapshot.
      const snapshot = await exploreSource(db, source.target.database, { sampleRows: 0, countRows: false });
      return copyTables({
        projectId: req.project_id,
        warehouseRoot,
        source,
        snapshot,
        prd: req.prd,
        done: checkpoint,
        maxRowsPerSecond,
        // A draining worker cancels the copy after its grace time: the finished tables are in the
        // heartbeat, and the retry (on this host, once it is back) copies only the others.
        signal: cancellationSignal(),
        onTable: (copied, done) =>
          tableDone(done, () =>
            tableCopiedEvent(
              req.project_id,
              `a${attempt}:${copied.table}`,
              `copied ${copied.table}: ${copied.ods_rows} rows (${done.length}/${snapshot.tables.length} tables)`,
              copied,
              { tables_done: done.length },
            ),
          ),
      });
    },
    () => db.end(),
  );
}
