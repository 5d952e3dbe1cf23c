/**
 * Durability and secrecy with real processes: the worker and the gateway run as their own processes
 * (as `npm start` runs them). Killing the worker while a project waits for approval loses nothing,
 * and the database password appears in no log line, event, record or workflow history. The decision
 * waiting for the restarted worker carries a hostile metric (one that takes its warehouse process past
 * its memory limit): the worker comes up, runs it, and stays up (docs/security.md#warehouse-processes).
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from '../../shared/free-port';
import { apiCaller } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { historyText } from '../harness/history-text';
import { newTestDataDir } from '../harness/platform-gateway';
import { startProcess, type Proc } from '../harness/processes';

describe('worker killed at the approval gate (real processes)', () => {
  const procs: Proc[] = [];
  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
  });

  it('resumes with nothing lost, a hostile metric costing only itself, and never logs the password', async () => {
    const dataDir = newTestDataDir();
    const gatewayPort = await freePort();
    const metricsPort = await freePort();
    const env = {
      TEMPORAL_ADDRESS: harness().temporal.address,
      PLAT_DATA_DIR: dataDir,
      PLAT_TASK_QUEUE: `restart-${Date.now()}`,
      PLAT_GATEWAY_PORT: String(gatewayPort),
      PLAT_WORKER_METRICS_PORT: String(metricsPort),
      PLAT_SELF_SIGNUP: 'true',
      LOG_LEVEL: 'debug',
      PLAT_WAREHOUSE_MEMORY_LIMIT: '256MB',
      PLAT_WAREHOUSE_PROCESS_MEMORY: '768MB',
    };
    const base = `http://127.0.0.1:${gatewayPort}`;
    const gateway = startProcess('gateway/platform/platform-main.ts', env);
    let worker = startProcess('workers/main.ts', env);
    procs.push(gateway, worker);
    // Under a loaded CI machine the two processes can take a while; a dead one fails at once, with its output.
    let gatewayDied = false;
    void gateway.exited.then(() => (gatewayDied = true));
    for (let i = 0; i < 600; i++) {
      if (gatewayDied) throw new Error(`the gateway exited:\n${gateway.output()}`);
      if ((await fetch(`${base}/health?deep=1`).catch(() => undefined))?.ok) break;
      if (i === 599) throw new Error(`the gateway never became healthy:\n${gateway.output().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const api = apiCaller(base);
    const call: (...args: Parameters<typeof api>) => Promise<Record<string, unknown>> = async (...args) =>
      (await api(...args)).body;
    const token = (await call('POST', '/auth/signup', { username: 'frank', password: 'frank-password' }))
      .id_token as string;
    const { port, user, password } = harness().mariadb;
    const created = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: `jdbc:mysql://127.0.0.1:${port}/sakila`, username: user, password },
      token,
    );
    const id = created.project_id as string;
    const until = async (status: string) => {
      for (let i = 0; i < 600; i++) {
        const view = await call('GET', `/v1/projects/${id}`, undefined, token);
        if (view.status === status) return view;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`never ${status}`);
    };
    const waiting = await until('waiting_approval');

    worker.child.kill('SIGKILL');
    await worker.exited;
    // The decision arrives while no worker runs: the server keeps it. Its second metric passes the
    // SQL check (each range within its bound) and multiplies them through lambdas.
    const prd = structuredClone(waiting.prd) as {
      metrics: { name: string; sql: string; ads_table: string }[];
    };
    const bomb = prd.metrics[1];
    bomb.sql = `SELECT stat_date, len(list_transform(range(10000), x -> list_transform(range(10000), y -> range(10000)))) AS value FROM ${bomb.ads_table}`;
    const decided = fetch(`${base}/v1/projects/${id}/hitl/modify`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(prd),
    });
    await new Promise((r) => setTimeout(r, 1000));
    worker = startProcess('workers/main.ts', env);
    procs.push(worker);
    let workerDied = false;
    void worker.exited.then(() => (workerDied = true));
    expect((await decided).status).toBe(200);
    const done = await until('completed');
    expect(done.prd).toEqual(prd);
    expect((done.decision as { decision: string }).decision).toBe('modify');
    // The hostile metric failed alone, in its own process; the worker that ran it is still up.
    const metrics = (done.warehouse as { metrics: { invalid: { name: string; reason: string }[] } }).metrics;
    expect(metrics.invalid).toEqual([
      { name: bomb.name, reason: expect.stringMatching(/^does not run: Out of Memory/) },
    ]);
    expect(workerDied).toBe(false);
    const workerRss = Number(
      /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${worker.child.pid}/status`, 'utf8'))?.[1],
    );
    expect(workerRss).toBeLessThan(768 * 1024);

    // The password: nowhere in logs, records, events, agent logs or the workflow history.
    const connection = await Connection.connect({ address: harness().temporal.address });
    const history = historyText(await new Client({ connection }).workflow.getHandle(id).fetchHistory());
    await connection.close();
    expect(history).toContain('DVD rental / retail');
    const everything = [
      gateway.output(),
      ...procs.filter((p) => p !== gateway).map((p) => p.output()),
      history,
      JSON.stringify(await call('GET', `/v1/projects/${id}`, undefined, token)),
      JSON.stringify(await call('GET', `/v1/projects/${id}/events`, undefined, token)),
      JSON.stringify(await call('GET', `/v1/projects/${id}/agent-logs`, undefined, token)),
    ].join('\n');
    // The logs were really captured: the access log saw the create, the worker said it polls.
    expect(gateway.output()).toMatch(/"method":"POST","path":"\/v1\/projects","status":201/);
    expect(procs.map((p) => p.output()).join('')).toContain('worker polling');
    expect(everything.includes(password)).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, 'secrets')).length).toBeGreaterThan(0);
  }, 300_000);
});
