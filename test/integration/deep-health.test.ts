/**
 * GET /health through a real gateway, dev server and worker: the shallow check, the deep one (a ping
 * workflow run by a worker) with its details for operators only, and one check shared by every
 * anonymous caller (docs/security.md#health).
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { apiCaller } from '../harness/api-caller';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';

const TASK_QUEUE = 'deep-health-test';

describe('gateway deep health check through the dev server', () => {
  let env: TestWorkflowEnvironment;
  let stack: DevServerWithWorker;
  let gateway: TestGateway;
  let base: string;
  let operator: string;
  let tenant: string;
  const call = apiCaller(() => base);
  const deep = (token?: string, at = base) =>
    fetch(`${at}/health?deep=1`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    stack = await devServerWithPlatformWorker(TASK_QUEUE);
    env = stack.env;
    gateway = await startTestGateway({ client: env.client, taskQueue: TASK_QUEUE });
    base = gateway.base;
    // The first account is the operator.
    operator = (await call('POST', '/auth/signup', { username: 'olga', password: 'olga password' })).body
      .id_token as string;
    tenant = (await call('POST', '/auth/signup', { username: 'tom', password: 'tom password' })).body
      .id_token as string;
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

  it('runs a ping workflow through the worker and reports it to an operator', async () => {
    const res = await deep(operator);
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

  it('tells anyone else only whether it answers, from one check they share', async () => {
    const pings = async () => {
      let n = 0;
      // This gateway's pings only: the dev server may be shared with other suites.
      for await (const w of env.client.workflow.list({
        query: `WorkflowType = 'pingWorkflow' AND TaskQueue = '${TASK_QUEUE}'`,
      }))
        if (w) n++;
      return n;
    };
    const answers = await Promise.all([deep(), deep(), deep(tenant), deep('not-a-token')]);
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', service: 'gateway' });
    }
    // Visibility lags a little: wait until the count settles, then ask again.
    let before = await pings();
    for (let i = 0; i < 50 && before !== (await pings()); i++) before = await pings();
    await new Promise((r) => setTimeout(r, 1000));
    const settled = await pings();
    expect((await deep()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    // A passing check is answered again for a while: no new workflow for the anonymous call.
    expect(await pings()).toBe(settled);
    // Four callers at once started at most one ping beside the operator's.
    expect(settled).toBeLessThanOrEqual(2);
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
      expect(await (await deep(undefined, lonely.base)).json()).toEqual({
        status: 'unavailable',
        service: 'gateway',
      });
      // Its own first account is its operator (a gateway of its own, with keys of its own).
      const own = (
        await apiCaller(() => lonely.base)('POST', '/auth/signup', {
          username: 'lia',
          password: 'lia password',
        })
      ).body.id_token as string;
      const res = await deep(own, lonely.base);
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
