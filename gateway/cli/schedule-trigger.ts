/**
 * Runs a platform Schedule's workflow now, as the Web UI's "Trigger" or `temporal schedule trigger`
 * would (TEMPORAL_ADDRESS, default 127.0.0.1:7233), and with `wait` returns what the run did.
 */
import { ApiError } from './api-client';
import { withTemporal } from './temporal-cli-client';

/** `name` as in platform-schedules.ts (`memory-digest`, `index-lifecycle`, ...). */
export async function triggerSchedule(name: string, wait: boolean): Promise<{ data: unknown; text: string }> {
  // Loaded here, not with the CLI: the schedules module brings the workflows' code.
  const { scheduleId } = await import('../../schedules/platform-schedules');
  return withTemporal(async (client, taskQueue) => {
    const id = scheduleId(name, taskQueue);
    const handle = client.schedule.getHandle(id);
    // The newest run before the trigger: recentActions keeps only the last few, so compare ids, not counts.
    let before: string | undefined;
    try {
      before = (await handle.describe()).info.recentActions.at(-1)?.action.workflow.workflowId;
    } catch {
      throw new ApiError(
        1,
        'not_found',
        `schedule ${id} does not exist: the worker registers it at start (npm start; the index lifecycle's only when OpenSearch is configured)`,
      );
    }
    await handle.trigger();
    let workflowId: string | undefined;
    for (let i = 0; i < 100 && !workflowId; i++) {
      const actions = (await handle.describe()).info.recentActions;
      const newest = actions.at(-1)?.action.workflow.workflowId;
      if (newest && newest !== before) workflowId = newest;
      else await new Promise((r) => setTimeout(r, 100));
    }
    if (!workflowId)
      throw new ApiError(
        1,
        'not_started',
        `schedule ${id} was triggered but no run started (a run still in progress makes the schedule skip it: try again)`,
      );
    if (!wait)
      return {
        data: { schedule_id: id, workflow_id: workflowId },
        text: `triggered ${id}: workflow ${workflowId}`,
      };
    try {
      const result = await client.workflow.getHandle(workflowId).result();
      return {
        data: { schedule_id: id, workflow_id: workflowId, result },
        text: `${id} finished (${workflowId}):\n${JSON.stringify(result, null, 2)}`,
      };
    } catch (err) {
      const cause = (err as { cause?: { message?: string; details?: unknown[] } }).cause;
      throw new ApiError(
        1,
        'failed',
        `${id} failed (${workflowId}): ${cause?.message ?? (err as Error).message}${cause?.details?.length ? `\n${JSON.stringify(cause.details[0], null, 2)}` : ''}`,
      );
    }
  });
}
