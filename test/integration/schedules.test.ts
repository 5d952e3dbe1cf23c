import type { ScheduleOptions } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureSchedule } from '../../schedules/ensure-schedule';
import { platformSchedules, scheduleId } from '../../schedules/platform-schedules';
import { registerSchedules } from '../../schedules/register-schedules';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';

const TASK_QUEUE = 'schedules-test';

function definition(scheduleId: string, hour: number): ScheduleOptions {
  return {
    scheduleId,
    spec: { calendars: [{ hour, minute: 0, comment: 'daily' }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'pingWorkflow',
      taskQueue: TASK_QUEUE,
      args: ['scheduled'],
    },
    policies: { overlap: 'SKIP', catchupWindow: '10 minutes' },
  };
}

describe('schedule registration against the dev server', () => {
  let env: TestWorkflowEnvironment;
  let stack: DevServerWithWorker;
  beforeAll(async () => {
    stack = await devServerWithPlatformWorker(TASK_QUEUE);
    env = stack.env;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('creates once, then leaves an unchanged definition alone', async () => {
    const id = `test-idempotent-${Date.now()}`;
    expect(await ensureSchedule(env.client, definition(id, 1))).toBe('created');
    expect(await ensureSchedule(env.client, definition(id, 1))).toBe('unchanged');
    const described = await env.client.schedule.getHandle(id).describe();
    expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 1, end: 1, step: 1 }] });
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.policies.catchupWindow).toBe(10 * 60 * 1000);
    await env.client.schedule.getHandle(id).delete();
  });

  it('updates a changed definition and keeps an operator pause', async () => {
    const id = `test-update-${Date.now()}`;
    await ensureSchedule(env.client, definition(id, 1));
    const handle = env.client.schedule.getHandle(id);
    await handle.pause('paused by an operator');
    expect(await ensureSchedule(env.client, definition(id, 2))).toBe('updated');
    const described = await handle.describe();
    expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 2, end: 2, step: 1 }] });
    expect(described.state.paused).toBe(true);
    await handle.delete();
  });

  it('a triggered schedule runs its workflow on the worker', async () => {
    const id = `test-trigger-${Date.now()}`;
    await ensureSchedule(env.client, definition(id, 3));
    const handle = env.client.schedule.getHandle(id);
    await handle.trigger();
    let runs: string[] = [];
    for (let i = 0; i < 100 && runs.length === 0; i++) {
      runs = (await handle.describe()).info.recentActions.map((a) => a.action.workflow.workflowId);
      if (runs.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(runs).toHaveLength(1);
    const result = await env.client.workflow.getHandle(runs[0]).result();
    expect(result).toMatchObject({ nonce: 'scheduled', task_queue: TASK_QUEUE });
    await handle.delete();
  });

  it("registers the platform's own schedules once, on the right calendar", async () => {
    const schedules = platformSchedules({ PLAT_TASK_QUEUE: TASK_QUEUE });
    const COST_REPORTER_SCHEDULE_ID = scheduleId('cost-reporter', TASK_QUEUE);
    expect(COST_REPORTER_SCHEDULE_ID).toBe(`plat-cost-reporter-${TASK_QUEUE}`);
    for (const s of schedules)
      await env.client.schedule
        .getHandle(s.scheduleId)
        .delete()
        .catch(() => undefined);
    expect(await registerSchedules(env.client, schedules)).toEqual({
      [COST_REPORTER_SCHEDULE_ID]: 'created',
    });
    expect(await registerSchedules(env.client, schedules)).toEqual({
      [COST_REPORTER_SCHEDULE_ID]: 'unchanged',
    });
    const described = await env.client.schedule.getHandle(COST_REPORTER_SCHEDULE_ID).describe();
    expect(described.spec.intervals?.[0].every).toBe(5 * 60 * 1000);
    expect(described.policies.overlap).toBe('SKIP');
    await env.client.schedule.getHandle(COST_REPORTER_SCHEDULE_ID).trigger();
    let runs: string[] = [];
    for (let i = 0; i < 100 && runs.length === 0; i++) {
      runs = (
        await env.client.schedule.getHandle(COST_REPORTER_SCHEDULE_ID).describe()
      ).info.recentActions.map((a) => a.action.workflow.workflowId);
      if (runs.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(await env.client.workflow.getHandle(runs[0]).result()).toMatchObject({
      projects: expect.any(Number),
    });
    await env.client.schedule.getHandle(COST_REPORTER_SCHEDULE_ID).delete();
  });
});
