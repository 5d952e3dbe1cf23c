/** Create-or-update registration of a Temporal Schedule, so every start-up may call it safely. */
import { createHash } from 'node:crypto';
import { ScheduleAlreadyRunning, type Client, type ScheduleOptions } from '@temporalio/client';

export type EnsureResult = 'created' | 'updated' | 'unchanged';

/** Memo key on the scheduled workflow action that records which definition was registered. */
export const DEFINITION_HASH_MEMO = 'plat_schedule_definition';

/**
 * Makes the schedule `opts.scheduleId` match `opts`: creates it when missing; when the registered
 * definition differs, updates its spec, action and policies. An operator's pause is kept, and an
 * unchanged definition is not written again.
 */
export async function ensureSchedule(client: Client, opts: ScheduleOptions): Promise<EnsureResult> {
  const hash = definitionHash(opts);
  const action = { ...opts.action, memo: { ...opts.action.memo, [DEFINITION_HASH_MEMO]: hash } };
  try {
    await client.schedule.create({ ...opts, action });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  const handle = client.schedule.getHandle(opts.scheduleId);
  const current = await handle.describe();
  if (current.action.type === 'startWorkflow' && current.action.memo?.[DEFINITION_HASH_MEMO] === hash) {
    return 'unchanged';
  }
  await handle.update((previous) => ({
    ...previous,
    spec: opts.spec,
    action,
    policies: { ...previous.policies, ...opts.policies },
  }));
  return 'updated';
}

function definitionHash(opts: ScheduleOptions): string {
  const { scheduleId, spec, action, policies } = opts;
  const workflowType =
    typeof action.workflowType === 'string' ? action.workflowType : action.workflowType.name;
  const stable = JSON.stringify({ scheduleId, spec, action: { ...action, workflowType }, policies });
  return createHash('sha256').update(stable).digest('hex').slice(0, 16);
}
