/**
 * Attempts and failures of a project's stages, read from its workflow: the history's activity events
 * (a retried activity records its final attempt number and the failure before it) and the pending
 * activities of a running workflow (the attempt in progress and the last failure). Retries leave no
 * project event, so the monitor page reads them here (docs/web-ui.md#monitor).
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';
import { PHASES, PHASE_OF_ACTIVITY } from '../../shared/project-model';

export const stageAttemptsSchema = z.object({
  project_id: z.string(),
  /** False when the workflow's history is gone (past the namespace's retention). */
  history_available: z.boolean(),
  stages: z.array(
    z.object({
      phase: z.enum(PHASES),
      activity: z.string(),
      /** Attempts started so far (1 when it ran once). */
      attempts: z.number().int(),
      /** Failed attempts: retried ones and a final failure. */
      failures: z.number().int(),
      state: z.enum(['running', 'retrying', 'completed', 'failed', 'timed_out', 'cancelled']),
      last_failure: z.string().nullable(),
    }),
  ),
});
export type StageAttempts = z.infer<typeof stageAttemptsSchema>;
type Stage = StageAttempts['stages'][number];

const failureText = (f?: { message?: string | null; cause?: { message?: string | null } | null } | null) =>
  f ? [f.message, f.cause?.message].filter(Boolean).join(': ') || 'failed' : null;

/** The stages of the workflow `projectId` so far, in the order they ran. */
export async function stageAttempts(client: Client, projectId: string): Promise<StageAttempts> {
  const handle = client.workflow.getHandle(projectId);
  let history;
  try {
    history = await handle.fetchHistory();
  } catch {
    return { project_id: projectId, history_available: false, stages: [] };
  }
  const { stages, byActivityId } = stagesOfHistory(history.events ?? []);
  // A running activity's attempts are not in the history until it ends: the pending list has them.
  if (stages.some((s) => s.state === 'running')) await addPendingAttempts(handle, byActivityId);
  return { project_id: projectId, history_available: true, stages };
}

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** The stages a workflow's history shows, and each by its activity id. */
function stagesOfHistory(events: HistoryEvent[]): { stages: Stage[]; byActivityId: Map<string, Stage> } {
  const byScheduled = new Map<string, Stage>();
  const byActivityId = new Map<string, Stage>();
  const stages: Stage[] = [];
  for (const e of events) {
    const id = String(e.eventId);
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const phase = PHASE_OF_ACTIVITY[scheduled.activityType?.name ?? ''];
      if (!phase) continue;
      const stage: Stage = {
        phase,
        activity: scheduled.activityType!.name!,
        attempts: 0,
        failures: 0,
        state: 'running',
        last_failure: null,
      };
      byScheduled.set(id, stage);
      if (scheduled.activityId) byActivityId.set(scheduled.activityId, stage);
      stages.push(stage);
      continue;
    }
    const started = e.activityTaskStartedEventAttributes;
    const stage = (ref?: unknown) => byScheduled.get(String(ref));
    if (started) {
      const s = stage(started.scheduledEventId);
      if (s) {
        s.attempts = started.attempt ?? 1;
        s.failures = s.attempts - 1;
        s.last_failure = failureText(started.lastFailure) ?? s.last_failure;
      }
      continue;
    }
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed) {
      const s = stage(completed.scheduledEventId);
      if (s) s.state = 'completed';
      continue;
    }
    const failed = e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
    if (failed) {
      const s = stage(failed.scheduledEventId);
      if (s) {
        s.state = e.activityTaskFailedEventAttributes ? 'failed' : 'timed_out';
        s.failures = s.attempts;
        s.last_failure = failureText(failed.failure);
      }
      continue;
    }
    const cancelled = e.activityTaskCanceledEventAttributes;
    if (cancelled) {
      const s = stage(cancelled.scheduledEventId);
      if (s) s.state = 'cancelled';
    }
  }
  return { stages, byActivityId };
}

/** The attempt in progress and the last failure of each running stage, from the pending activities. */
async function addPendingAttempts(handle: WorkflowHandle, byActivityId: Map<string, Stage>): Promise<void> {
  try {
    const { raw } = await handle.describe();
    for (const p of raw.pendingActivities ?? []) {
      // By activity id: the parts of a copy are several open activities of one type.
      const s = byActivityId.get(p.activityId ?? '');
      if (!s || s.state !== 'running') continue;
      s.attempts = p.attempt ?? 1;
      s.failures = s.attempts - 1;
      s.last_failure = failureText(p.lastFailure);
      if (s.failures > 0) s.state = 'retrying';
    }
  } catch {
    // The workflow ended between the two reads: the history above is the answer.
  }
}
