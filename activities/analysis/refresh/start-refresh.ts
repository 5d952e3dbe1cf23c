/**
 * The first step of a refresh (docs/refresh.md#the-refresh-workflow): the project must have built
 * its warehouse; the run is recorded as running, and the workflow learns where the files are.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { withRefreshRun } from '../../../shared/refresh-model';
import { dayRangeProblem } from '../../../shared/day-range';
import type { ProjectHost } from '../../fleet/host-activities';
import type { RecordRefreshRequest, RefreshDeps } from './refresh-deps';

/** Where a refresh's steps run: the host holding the files (none: a project of the single queue). */
export interface RefreshTarget {
  host?: ProjectHost;
}

export async function startRefresh(
  { store, host, engine }: RefreshDeps,
  { project_id, run }: RecordRefreshRequest,
): Promise<RefreshTarget> {
  const view = await store.getProject(project_id);
  if (!view) throw ApplicationFailure.nonRetryable(`no project ${project_id}`, 'NoSuchProject');
  if (view.status !== 'completed' || !view.warehouse?.modeling)
    throw ApplicationFailure.nonRetryable(
      `project ${project_id} is ${view.status}: only a project whose warehouse was built can be refreshed`,
      'NotRefreshable',
    );
  const problem = run.range && dayRangeProblem(run.range);
  if (problem) throw ApplicationFailure.nonRetryable(`backfill of ${project_id}: ${problem}`, 'InvalidRange');
  await store.saveRefresh(project_id, (state) => withRefreshRun(state, run));
  const holder = view.warehouse.host;
  if (!holder) return {};
  return {
    host: {
      host_id: holder,
      lost_after_ms: host.lostAfterMs,
      ...(engine.kind === 'athena' ? { stages_anywhere: true } : {}),
    },
  };
}

/**
 * Records the refresh's end (completed or failed) on the project, and says it in the project's
 * events, once: a failed refresh counts towards plat-RefreshStale (docs/monitoring.md#alarms).
 */
export async function finishRefresh(
  { store, onStoredEvents }: RefreshDeps,
  { project_id, run }: RecordRefreshRequest,
): Promise<void> {
  await store.saveRefresh(project_id, (state) => withRefreshRun(state, run));
  const what =
    run.status === 'completed'
      ? `completed: ${run.rows_read ?? 0} rows read, data as of ${run.source_as_of}`
      : `failed: ${run.error ?? 'no reason given'}`;
  const stored = await store.addEvents([
    {
      event_key: `${run.refresh_id}:end`,
      project_id,
      event_type: 'log_entry',
      phase: 'data_ingestion',
      status: run.status === 'completed' ? 'completed' : 'failed',
      message: `refresh ${run.refresh_id} (${run.trigger}) ${what}`,
      timestamp: new Date().toISOString(),
      payload: { refresh_id: run.refresh_id, refresh_status: run.status },
    },
  ]);
  onStoredEvents?.(stored);
}
