/**
 * projectRefresh: brings a completed project's warehouse up to date with its source
 * (docs/refresh.md#the-refresh-workflow). The source's changes are merged into the ODS on the host
 * holding the files, then the layers above are rebuilt from the stored scripts; the run, with what it
 * did to each table, is recorded on the project as it starts and as it ends.
 */
import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { RefreshActivities } from '../../activities/analysis/refresh-activities';
import { rebuildOutcome, type RefreshRun, type RefreshTrigger } from '../../shared/refresh-model';
import type { DayRange } from '../../shared/day-range';
import { onHost, type ProjectHost } from './project-host';
import { workloadActivities } from '../fleet/workload-activities';

/** What starts a refresh: the project, whether a person or its schedule asked, and a backfill's days. */
export interface ProjectRefreshInput {
  project_id: string;
  trigger: RefreshTrigger;
  /** A backfill (docs/refresh.md#backfill): every table read whole, these days recomputed. */
  range?: DayRange;
}

const bookkeeping = proxyActivities<Pick<RefreshActivities, 'startRefresh' | 'finishRefresh'>>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
});

/** Reading the source may take long on a big change; a worker that dies is noticed by the heartbeat. */
const READ_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '5 seconds', maximumInterval: '2 minutes' },
};
const REBUILD_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds' },
};

type FileSteps = Pick<RefreshActivities, 'refreshProjectOds' | 'rebuildProjectWarehouse'>;

/** Where the steps that touch files run: the host holding them, or (Athena) the rebuild anywhere. */
function fileSteps(host: ProjectHost | undefined): { read: FileSteps; rebuild: FileSteps } {
  if (!host)
    return {
      read: proxyActivities<FileSteps>(READ_OPTIONS),
      rebuild: proxyActivities<FileSteps>(REBUILD_OPTIONS),
    };
  return {
    read: onHost<FileSteps>(host, READ_OPTIONS),
    rebuild: host.stages_anywhere
      ? workloadActivities<FileSteps>('warehouse', REBUILD_OPTIONS)
      : onHost<FileSteps>(host, REBUILD_OPTIONS),
  };
}

export async function projectRefresh(input: ProjectRefreshInput): Promise<RefreshRun> {
  const request = {
    project_id: input.project_id,
    refresh_id: workflowInfo().workflowId,
    ...(input.range ? { range: input.range } : {}),
  };
  let run: RefreshRun = {
    refresh_id: request.refresh_id,
    trigger: input.trigger,
    ...(input.range ? { range: input.range } : {}),
    status: 'running',
    started_at: new Date().toISOString(),
  };
  const { host } = await bookkeeping.startRefresh({ project_id: input.project_id, run }).catch((err) => {
    // Nothing to record it on (no such project) or nothing to refresh: said as the workflow's failure.
    throw ApplicationFailure.nonRetryable(
      `refresh of ${input.project_id} refused: ${reason(err)}`,
      'RefreshRefused',
    );
  });
  const steps = fileSteps(host);
  try {
    const ods = await steps.read.refreshProjectOds(request);
    run = { ...run, source_as_of: ods.source_as_of, rows_read: ods.rows_read, tables: ods.tables };
    const { rows, scopes } = rebuildOutcome(await steps.rebuild.rebuildProjectWarehouse(request));
    run = {
      ...run,
      status: 'completed',
      rebuilt: rows,
      ...(Object.keys(scopes).length ? { recomputed: scopes } : {}),
      ended_at: new Date().toISOString(),
    };
    await bookkeeping.finishRefresh({ project_id: input.project_id, run });
    return run;
  } catch (err) {
    const message = isCancellation(err) ? 'cancelled' : reason(err);
    run = { ...run, status: 'failed', error: message, ended_at: new Date().toISOString() };
    await CancellationScope.nonCancellable(() =>
      bookkeeping.finishRefresh({ project_id: input.project_id, run }),
    );
    if (isCancellation(err)) throw err;
    throw ApplicationFailure.nonRetryable(
      `refresh of ${input.project_id} failed: ${message}`,
      'RefreshFailed',
    );
  }
}

/** What went wrong, in the words of the activity that failed rather than its wrapper's. */
function reason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? err.cause.message : err.message;
}
