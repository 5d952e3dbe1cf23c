import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import * as activities from '../../activities/health/ping-activities';
import { longTimerWorkflow } from '../fixtures/long-timer-workflow';
import { timeSkippingEnv } from '../harness/temporal-envs';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('time-skipping test server (harness)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await timeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('completes a timer of days, then runs an activity on the worker', async () => {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: 'time-skipping-test',
      workflowsPath: require.resolve('../fixtures/long-timer-workflow'),
      activities,
    });
    const result = await worker.runUntil(
      env.client.workflow.execute(longTimerWorkflow, {
        taskQueue: 'time-skipping-test',
        workflowId: 'long-timer',
        args: [3],
      }),
    );
    // Three days of workflow time passed: the server skipped them (this test runs in seconds).
    expect(result.endedAt - result.startedAt).toBeGreaterThanOrEqual(3 * DAY_MS);
    expect(result.workerPid).toBe(process.pid);
  });
});
