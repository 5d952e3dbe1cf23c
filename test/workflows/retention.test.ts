/**
 * The retention pass on the time-skipping server with the real activity: a data directory written
 * "today" is run through at +0, +15, +31 and +91 days. Nothing younger than its period is touched;
 * each kind goes once its period is over; a dry run lists and removes nothing; what has no
 * retention period (events, modeled layers, other services' logs, the ODS's source schema) stays.
 */
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRetentionActivities } from '../../activities/retention/retention-activities';
import { metadataDbPath, openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { ProjectStore } from '../../domain/metadata-store/project-store';
import type { RetentionReport } from '../../domain/retention/retention-report';
import { layerDir } from '../../domain/warehouse/warehouse-layout';
import { retentionWorkflow } from '../../workflows/retention/retention';
import { WorkerHostRegistry } from '../../domain/fleet/worker-host-registry';
import { Worker } from '@temporalio/worker';
import { hostQueue } from '../../shared/task-queues';
import { newTestDataDir } from '../harness/platform-gateway';
import { timeSkippingEnv } from '../harness/temporal-envs';
import { workersOnEveryQueue, type QueueWorkers } from '../harness/queue-workers';

const TASK_QUEUE = 'retention-test';
const PROJECT = 'proj-20261124-retain01';

describe('retention pass (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  let worker: QueueWorkers;
  let running: Promise<void>;
  let dataDir: string;
  let store: ProjectStore;
  let registry: WorkerHostRegistry;
  let seq = 0;

  const logDir = () => path.join(dataDir, 'logs');
  const warehouseRoot = () => path.join(dataDir, 'warehouse');
  const ods = () => layerDir(warehouseRoot(), PROJECT, 'ods');
  const exists = (...parts: string[]) => fs.existsSync(path.join(...parts));
  const agentLogCount = async () => {
    const metadata = await openMetadataDb(metadataDbPath(dataDir));
    const { n } = await metadata.db
      .selectFrom('agent_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return n;
  };

  beforeAll(async () => {
    env = await timeSkippingEnv();
    dataDir = newTestDataDir();
    const db = await openMetadataDb(metadataDbPath(dataDir));
    store = new ProjectStore(db);
    registry = new WorkerHostRegistry(db);
    worker = await workersOnEveryQueue(
      env,
      TASK_QUEUE,
      createRetentionActivities({
        retention: { logDir: logDir(), warehouseRoot: warehouseRoot(), db },
        host: { id: 'host-a', registry },
      }),
    );
    running = worker.run();

    // Everything written now, by the test server's clock (the workflow's).
    const now = new Date(await env.currentTimeMs());
    const today = now.toISOString().slice(0, 10);
    fs.mkdirSync(logDir(), { recursive: true });
    for (const name of [
      `worker-${today}.log`,
      `gateway-${today}.log`,
      `memory-${today}.log`,
      'temporal.log',
    ]) {
      fs.writeFileSync(
        path.join(logDir(), name),
        `{"timestamp":"${now.toISOString()}","message":"a line"}\n`,
      );
    }
    await store.addAgentLogs(
      [1, 2, 3].map((i) => ({
        log_key: `${PROJECT}:prd:a1:t${i}`,
        project_id: PROJECT,
        agent: 'product_manager',
        phase: 'prd',
        tool: 'list_tables',
        params: { database: 'shop' },
        summary: `${i} tables`,
        duration_ms: 3,
        timestamp: now.toISOString(),
      })),
    );
    await store.addEvents([
      {
        event_key: `${PROJECT}:created`,
        project_id: PROJECT,
        event_type: 'phase_changed',
        phase: 'prd',
        status: 'running',
        message: 'created',
        timestamp: now.toISOString(),
        payload: {},
      },
    ]);
    fs.mkdirSync(ods(), { recursive: true });
    fs.writeFileSync(path.join(ods(), 'orders.parquet'), Buffer.alloc(4096, 1));
    fs.writeFileSync(
      path.join(ods(), `plat_${PROJECT.replace(/-/g, '_')}_ods.duckdb`),
      Buffer.alloc(2048, 2),
    );
    fs.writeFileSync(path.join(ods(), 'source-schema.json'), '{"tables":[]}');
    const dwd = layerDir(warehouseRoot(), PROJECT, 'dwd');
    fs.mkdirSync(dwd, { recursive: true });
    fs.writeFileSync(path.join(dwd, 'dwd_orders.parquet'), Buffer.alloc(1024, 3));
    // The files' own times are the test server's "now" too.
    for (const dir of [ods(), dwd]) {
      for (const f of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, f), now, now);
    }
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  // A plain client: env.client would unlock time skipping while it waits, and the server would jump
  // ahead on its own; here only env.sleep moves the clock.
  const pass = (dryRun: boolean): Promise<RetentionReport> =>
    new Client({ connection: env.connection }).workflow.execute(retentionWorkflow, {
      taskQueue: TASK_QUEUE,
      workflowId: `retention-${++seq}`,
      args: [{ dry_run: dryRun }],
    });
  const kinds = (r: RetentionReport) => r.items.map((i) => i.kind).sort();

  it('touches nothing younger than its period, and each kind once its period is over', async () => {
    // Day 0: everything is fresh.
    expect((await pass(false)).items).toEqual([]);
    expect(await agentLogCount()).toBe(3);

    // Day 15: the 14-day logs are over. A dry run lists them and keeps them.
    await env.sleep('15 days');
    const dry = await pass(true);
    expect(dry.dry_run).toBe(true);
    expect(kinds(dry)).toEqual(['access_logs', 'access_logs', 'function_logs']);
    expect(dry.totals.function_logs).toEqual({ items: 1, bytes: expect.any(Number) });
    expect(fs.readdirSync(logDir()).sort()).toHaveLength(4);
    const day15 = await pass(false);
    expect(kinds(day15)).toEqual(['access_logs', 'access_logs', 'function_logs']);
    expect(fs.readdirSync(logDir())).toEqual(['temporal.log']);
    expect(await agentLogCount()).toBe(3);
    expect(exists(ods(), 'orders.parquet')).toBe(true);

    // Day 31: the agent logs' 30 days are over.
    await env.sleep('16 days');
    const day31 = await pass(false);
    expect(day31.items).toEqual([
      expect.objectContaining({ kind: 'agent_logs', detail: '3 agent-log entries', age_days: 31 }),
    ]);
    expect(await agentLogCount()).toBe(0);
    expect(exists(ods(), 'orders.parquet')).toBe(true);

    // Day 89: the ODS is kept to the end of its 90 days.
    await env.sleep('58 days');
    expect((await pass(false)).items).toEqual([]);

    // Day 91: the ODS's data goes; its source schema, the modeled layers and the events stay.
    await env.sleep('2 days');
    const day91 = await pass(false);
    expect(day91.items).toEqual([
      expect.objectContaining({ kind: 'ods_objects', target: ods(), bytes: 4096 + 2048, age_days: 91 }),
    ]);
    expect(fs.readdirSync(ods())).toEqual(['source-schema.json']);
    expect(exists(layerDir(warehouseRoot(), PROJECT, 'dwd'), 'dwd_orders.parquet')).toBe(true);
    expect(await store.eventsSince(PROJECT, 0)).toHaveLength(1);
    expect(fs.readdirSync(logDir())).toEqual(['temporal.log']);
    expect((await pass(false)).items).toEqual([]);
  });

  it("clears every live host's own files through its host queue", async () => {
    // A second host: its own data directory with an ODS past its 90 days, its worker on its host queue.
    const other = newTestDataDir();
    const otherOds = layerDir(path.join(other, 'warehouse'), 'proj-20261125-elsewhere', 'ods');
    fs.mkdirSync(otherOds, { recursive: true });
    fs.writeFileSync(path.join(otherOds, 'orders.parquet'), Buffer.alloc(1000, 1));
    const old = new Date((await env.currentTimeMs()) - 95 * 86_400_000);
    fs.utimesSync(path.join(otherOds, 'orders.parquet'), old, old);
    const db = await openMetadataDb(metadataDbPath(other));
    const hostB = await Worker.create({
      connection: env.nativeConnection,
      taskQueue: hostQueue(TASK_QUEUE, 'host-b'),
      activities: createRetentionActivities({
        retention: { logDir: path.join(other, 'logs'), warehouseRoot: path.join(other, 'warehouse'), db },
        host: { id: 'host-b', registry },
      }),
    });
    await registry.beat('host-b', ['ingestion', 'warehouse'], new Date().toISOString());
    const report = await hostB.runUntil(pass(false));
    expect(report.hosts).toEqual([
      { host_id: 'host-a', state: 'done', items: 0 },
      { host_id: 'host-b', state: 'done', items: 1 },
    ]);
    expect(report.items).toEqual([
      expect.objectContaining({ kind: 'ods_objects', target: otherOds, host: 'host-b', bytes: 1000 }),
    ]);
    expect(report.totals.ods_objects).toEqual({ items: 1, bytes: 1000 });
    expect(fs.existsSync(path.join(otherOds, 'orders.parquet'))).toBe(false);
  });
});
