import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';

const TASK_QUEUE = 'deep-health-test';

describe('gateway deep health check through the dev server', () => {
  let env: TestWorkflowEnvironment;
  let stack: DevServerWithWorker;
  let gateway: TestGateway;
  let base: string;

  beforeAll(async () => {
    stack = await devServerWithPlatformWorker(TASK_QUEUE);
    env = stack.env;
    gateway = await startTestGateway({ client: env.client, taskQueue: TASK_QUEUE });
    base = gateway.base;
  });

  afterAll(async () => {
    await gateway?.stop();
    await stack?.stop();
  });

  it('answers the shallow check without touching Temporal', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'gateway' });
  });

  it('runs a ping workflow through the worker and reports it', async () => {
    const res = await fetch(`${base}/health?deep=1`);
    const body = (await res.json()) as {
      status: string;
      checks: {
        temporal: { status: string };
        worker: { status: string; ping: { worker_pid: number; task_queue: string; workflow_id: string } };
      };
    };
    expect(res.status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.checks.temporal.status).toBe('ok');
    expect(body.checks.worker.ping.worker_pid).toBe(process.pid);
    expect(body.checks.worker.ping.task_queue).toBe(TASK_QUEUE);
    // The workflow really ran on the server: it is in its history as completed.
    const description = await env.client.workflow.getHandle(body.checks.worker.ping.workflow_id).describe();
    expect(description.status.name).toBe('COMPLETED');
  });

  it('serves the status page at /', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/health?deep=1');
  });

  it('answers 503 naming the task queue when no worker polls it', async () => {
    const lonely = await startTestGateway({
      client: env.client,
      taskQueue: 'nobody-polls-this-queue',
      deepHealthTimeoutMs: 1500,
    });
    try {
      const res = await fetch(`${lonely.base}/health?deep=1`);
      const body = (await res.json()) as {
        status: string;
        checks: { temporal: { status: string }; worker: { status: string; error: string } };
      };
      expect(res.status).toBe(503);
      expect(body.status).toBe('unavailable');
      expect(body.checks.temporal.status).toBe('ok');
      expect(body.checks.worker.error).toContain('nobody-polls-this-queue');
    } finally {
      await lonely.stop();
    }
  });
});
