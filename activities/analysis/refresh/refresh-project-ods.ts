/**
 * A refresh's read of the source (docs/refresh.md#what-a-refresh-reads), on the host holding the
 * project's files: each table's changes merged into its ODS file, one log entry per table, and with
 * Athena the refreshed ODS published again.
 */
import { ApplicationFailure, activityInfo, cancellationSignal } from '@temporalio/activity';
import { readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { refreshOds } from '../../../domain/warehouse/refresh/ods-refresh';
import type { ProjectEvent } from '../../../shared/project-model';
import type { TableRefreshSummary } from '../../../shared/refresh-model';
import { sourcePasswordName } from '../../../shared/mysql-source';
import { connectOrExplain, connectorOf, misbehavingSourceFailsForGood } from '../source-access';
import type { RefreshDeps, RefreshRequest } from './refresh-deps';

export interface OdsRefreshSummary {
  /** When the source's snapshot was opened. */
  source_as_of: string;
  rows_read: number;
  tables: TableRefreshSummary[];
}

export async function refreshProjectOds(deps: RefreshDeps, req: RefreshRequest): Promise<OdsRefreshSummary> {
  const { store, secrets, sources, warehouseRoot, engine } = deps;
  const view = await store.getProject(req.project_id);
  if (!view?.prd)
    throw ApplicationFailure.nonRetryable(`project ${req.project_id} has no PRD`, 'NotRefreshable');
  const source = await connectorOf(
    secrets,
    { ...view.source, password_ref: await passwordRef(deps, req.project_id) },
    sources,
  );
  await (await connectOrExplain(source)).end();
  const source_as_of = new Date().toISOString();
  let result;
  try {
    result = await refreshOds({
      warehouseRoot,
      projectId: req.project_id,
      source,
      prd: view.prd,
      signal: cancellationSignal(),
      maxRowsPerSecond: deps.maxRowsPerSecond,
      workName: req.refresh_id,
      // Only an engine that rebuilds by day reads the changed rows (docs/refresh.md#only-affected-days).
      keepDeltas: Boolean(engine.refreshLayer),
      readWhole: Boolean(req.range),
    });
  } catch (err) {
    throw reshapedSourceFailsForGood(misbehavingSourceFailsForGood(err));
  }
  await store.putArtifact(req.project_id, 'source_schema', readSourceSchema(warehouseRoot, req.project_id));
  await engine.publishOds(req.project_id, view.prd);
  const tables = result.tables.map(({ warnings: _w, ...t }) => t);
  await store.addEvents(tables.map((t) => tableEvent(req, t)));
  return { source_as_of, rows_read: result.rows_read, tables };
}

/** MySQL's answers for a table or column that is no longer there: no retry brings it back. */
const SHAPE_ERRORS = new Set(['ER_NO_SUCH_TABLE', 'ER_BAD_FIELD_ERROR']);

/** `err`, or for a source whose tables or columns changed since the build, a failure not retried. */
function reshapedSourceFailsForGood(err: unknown): unknown {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !SHAPE_ERRORS.has(code)) return err;
  return ApplicationFailure.nonRetryable(
    `the source changed shape since the project was built (${(err as Error).message}): create a new project to read its new shape`,
    'SourceReshaped',
  );
}

/**
 * The reference of the project's source password. Retention deletes it a while after a project ends
 * unless the project refreshes (docs/refresh.md#the-source-password).
 */
async function passwordRef({ secrets }: RefreshDeps, projectId: string): Promise<string> {
  const name = sourcePasswordName(projectId);
  const stored = (await secrets.list()).find((p) => p.name === name);
  if (!stored)
    throw ApplicationFailure.nonRetryable(
      `the source password of ${projectId} is no longer stored (retention removes it once the project has been idle for its period): create the project again to refresh it`,
      'SourcePasswordGone',
    );
  return stored.ref;
}

function tableEvent(req: RefreshRequest, t: TableRefreshSummary): ProjectEvent {
  const what =
    t.read === 'whole'
      ? `read whole (${t.detail}): ${t.rows_after} rows`
      : `${t.rows_read} rows read, ${t.detail}: ${t.rows_before} → ${t.rows_after} rows${t.rows_deleted ? `, ${t.rows_deleted} deleted in the source` : ''}`;
  return {
    event_key: `${req.refresh_id}:a${activityInfo().attempt}:ods:${t.table}`,
    project_id: req.project_id,
    event_type: 'log_entry',
    phase: 'data_ingestion',
    status: 'running',
    message: `refresh: ${t.table} ${what}`,
    timestamp: new Date().toISOString(),
    payload: { refresh_id: req.refresh_id, ...t },
  };
}
