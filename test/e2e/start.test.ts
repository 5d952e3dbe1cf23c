/**
 * `npm start` as a user runs it: the whole platform comes up, answers, survives a restart with its
 * data, and Ctrl-C leaves no process behind.
 */
import { Client, Connection } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '../../shared/free-port';
import { harness } from '../harness/harness-state';
import { launchPlat } from '../harness/launcher';
import { processesMentioning } from '../harness/processes';

async function ports() {
  return {
    PLAT_GATEWAY_PORT: String(await freePort()),
    PLAT_MEMORY_PORT: String(await freePort()),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    PLAT_WORKER_METRICS_PORT: String(await freePort()),
  };
}

async function json(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('npm start (scripts/start.ts)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-start-'));
  });
  afterEach(() => {
    // Whatever happened, leave nothing running.
    for (const p of processesMentioning(dataDir)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Waits until no process mentions the data directory (the reaper ends children of a killed launcher). */
  async function nothingLeft(): Promise<void> {
    let left = processesMentioning(dataDir);
    for (let i = 0; i < 150 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 200));
      left = processesMentioning(dataDir);
    }
    expect(left).toEqual([]);
  }

  // One data directory through three starts (each start of the whole stack costs seconds of CPU):
  // Ctrl-C, then a restart that finds the first run's workflow, a SIGKILL of the launcher, and a
  // start on what the killed run left behind, stopped by SIGTERM.
  it('starts the embedded stack, keeps workflows across restarts, and every way of stopping it ends every child', async () => {
    const env = { ...(await ports()), PLAT_DATA_DIR: dataDir, TEMPORAL_ADDRESS: '' };
    const first = launchPlat(env);
    await first.waitFor(/plat is up/);
    const gateway = `http://127.0.0.1:${env.PLAT_GATEWAY_PORT}`;

    expect(await json(`http://127.0.0.1:${env.PLAT_MEMORY_PORT}/health`)).toMatchObject({
      status: 200,
      body: { status: 'ok', service: 'memory', reembedding: { running: false, pending: 0 } },
    });
    const deep = await json(`${gateway}/health?deep=1`);
    expect(deep).toMatchObject({ status: 200, body: { status: 'ok', service: 'gateway' } });
    // Anonymous callers hear only ok: the workflow this test follows across restarts is its own.
    const workflowId = `start-test-ping-${Date.now()}`;
    const pinged = await Connection.connect({ address: `127.0.0.1:${env.TEMPORAL_DEV_PORT}` });
    try {
      await new Client({ connection: pinged }).workflow.execute('pingWorkflow', {
        taskQueue: 'plat-platform',
        workflowId,
        args: [workflowId],
      });
    } finally {
      await pinged.close();
    }
    const workerMetrics = await fetch(`http://127.0.0.1:${env.PLAT_WORKER_METRICS_PORT}/metrics`);
    expect(await workerMetrics.text()).toContain('plat_project_failures_total');
    const ui = await fetch(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}/`);
    expect(ui.status).toBe(200);
    expect(first.output()).toMatch(new RegExp(`Temporal Web UI\\s+http://127.0.0.1:${env.TEMPORAL_UI_PORT}`));
    expect(processesMentioning(dataDir).length).toBeGreaterThanOrEqual(4);

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);

    // Second start on the same data directory: the workflow of the first run is still there.
    const second = launchPlat(env);
    await second.waitFor(/plat is up/);
    const connection = await Connection.connect({ address: `127.0.0.1:${env.TEMPORAL_DEV_PORT}` });
    try {
      const described = await new Client({ connection }).workflow.getHandle(workflowId).describe();
      expect(described.status.name).toBe('COMPLETED');
    } finally {
      await connection.close();
    }
    expect(processesMentioning(dataDir).length).toBeGreaterThanOrEqual(4);
    second.child.kill('SIGKILL');
    await nothingLeft();

    // Third start, on what the killed run left behind (its database files and locks).
    const third = launchPlat(env);
    await third.waitFor(/plat is up/);
    expect((await json(`${gateway}/health?deep=1`)).status).toBe(200);
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);
  });

  it('uses an existing Temporal cluster when TEMPORAL_ADDRESS is set, and stops when npm is killed (not Ctrl-C)', async () => {
    const env = { ...(await ports()), PLAT_DATA_DIR: dataDir, TEMPORAL_ADDRESS: harness().temporal.address };
    const launch = launchPlat(env, [], true);
    await launch.waitFor(/plat is up/);
    expect(launch.output()).not.toContain('Temporal Web UI');
    expect(launch.output()).toMatch(new RegExp(`Temporal gRPC\\s+${harness().temporal.address}`));
    expect((await json(`http://127.0.0.1:${env.PLAT_GATEWAY_PORT}/health?deep=1`)).status).toBe(200);
    expect(processesMentioning(dataDir).length).toBeGreaterThanOrEqual(3);
    // Under `sh -c`, as npm runs it: killing the shell orphans the launcher, which must stop it all.
    launch.child.kill('SIGKILL');
    await nothingLeft();
  });

  it('refuses a bad setting, naming the variable and the expected form', async () => {
    const launch = launchPlat({ PLAT_DATA_DIR: dataDir, PLAT_GATEWAY_PORT: 'eighty' });
    expect(await launch.exited).toBe(1);
    expect(launch.output()).toContain('PLAT_GATEWAY_PORT="eighty": expected a TCP port, 1-65535');
  });

  it('says which port is taken instead of half-starting', async () => {
    const env = { ...(await ports()), PLAT_DATA_DIR: dataDir, TEMPORAL_ADDRESS: harness().temporal.address };
    env.PLAT_MEMORY_PORT = harness().temporal.address.split(':')[1];
    const launch = launchPlat(env);
    expect(await launch.exited).toBe(1);
    expect(launch.output()).toContain(`port ${env.PLAT_MEMORY_PORT} (PLAT_MEMORY_PORT)`);
    expect(processesMentioning(dataDir)).toEqual([]);
  });

  it('--help lists the options and every setting', async () => {
    const launch = launchPlat({}, ['--help']);
    expect(await launch.exited).toBe(0);
    expect(launch.output()).toContain('--with-opensearch');
    expect(launch.output()).toContain('PLAT_MEMORY_API_KEYS');
  });
});
