/**
 * projectRefresh with the real activities on the time-skipping server: a project built on a small
 * source of the harness's MariaDB, the source changed (amounts updated, rows deleted, new rows and
 * late ones dated months back), the project refreshed, and every table of its ADS compared with a
 * new project built on the changed source under the same PRD: equal, to the cent.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowFailedError } from '@temporalio/client';
import type { ActivityDeps } from '../../workers/platform-activities';
import type { Prd } from '../../shared/prd-schema';
import type { ProjectView } from '../../shared/project-model';
import { analysisProject } from '../../workflows/analysis/analysis-project';
import { decideUpdate, statusQuery } from '../../workflows/analysis/analysis-project-messages';
import { projectRefresh } from '../../workflows/analysis/project-refresh';
import { harness } from '../harness/harness-state';
import { testActivityDeps, timeSkippingEnv } from '../harness/temporal-envs';
import { testBundleCacheDir } from '../harness/workflow-bundle';
import { createPlatformWorker, type PlatformWorker } from '../../workers/platform-worker';
import { connectMariaDb } from '../integration/warehouse/ods-fixtures';

const TASK_QUEUE = 'project-refresh-test';
const DB = 'refresh_flow';

async function onSource(sql: string, create = false): Promise<void> {
  const db = await connectMariaDb({ multipleStatements: true, ...(create ? {} : { database: DB }) });
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}

/** A shop: customers, products, orders stamped on change, and their lines counted by key. */
const SOURCE = `DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB};
  CREATE TABLE customers (customer_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, city VARCHAR(30) NOT NULL);
  CREATE TABLE products (product_id INT PRIMARY KEY, title VARCHAR(40) NOT NULL, category VARCHAR(20) NOT NULL);
  CREATE TABLE orders (
    order_id INT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, product_id INT NOT NULL,
    quantity INT NOT NULL, amount DECIMAL(10,2) NOT NULL, order_date DATETIME NOT NULL,
    updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    FOREIGN KEY (customer_id) REFERENCES customers (customer_id),
    FOREIGN KEY (product_id) REFERENCES products (product_id));
  INSERT INTO customers SELECT seq, CONCAT('customer ', seq), ELT(1 + seq % 4, 'Lyon', 'Porto', 'Graz', 'Turku') FROM seq_1_to_60;
  INSERT INTO products SELECT seq, CONCAT('product ', seq), ELT(1 + seq % 3, 'tools', 'books', 'games') FROM seq_1_to_25;
  INSERT INTO orders (customer_id, product_id, quantity, amount, order_date, updated_at)
    SELECT 1 + seq % 60, 1 + seq % 25, 1 + seq % 5, 5 + (seq * 37 % 4000) / 100,
           TIMESTAMP('2025-01-01') + INTERVAL (seq * 7) HOUR, TIMESTAMP('2025-08-01') + INTERVAL seq HOUR
      FROM seq_1_to_4000;
  ANALYZE TABLE customers, products, orders;`;

/** Inserts, updates of amounts, deletes, and late rows dated months before the newest. */
const CHANGES = `
  UPDATE orders SET amount = amount + 10.01 WHERE order_id % 40 = 0;
  DELETE FROM orders WHERE order_id % 333 = 5;
  INSERT INTO orders (customer_id, product_id, quantity, amount, order_date)
    SELECT 1 + seq % 60, 1 + seq % 25, 2, 19.99, TIMESTAMP('2025-02-01') + INTERVAL seq DAY FROM seq_1_to_30;
  INSERT INTO orders (customer_id, product_id, quantity, amount, order_date)
    SELECT 1 + seq % 60, 1 + seq % 25, 1, 7.5, TIMESTAMP('2026-01-01') + INTERVAL seq HOUR FROM seq_1_to_20;
  UPDATE customers SET city = 'Graz' WHERE customer_id = 7;`;

describe('projectRefresh (real activities, time skipping)', () => {
  let env: TestWorkflowEnvironment;
  let worker: PlatformWorker;
  let running: Promise<void>;
  let deps: ActivityDeps;
  let seq = 0;

  beforeAll(async () => {
    await onSource(SOURCE, true);
    env = await timeSkippingEnv();
    deps = await testActivityDeps();
    worker = await createPlatformWorker({
      connection: env.nativeConnection,
      namespace: 'default',
      taskQueue: TASK_QUEUE,
      deps,
      bundleCacheDir: testBundleCacheDir(),
    });
    running = worker.run();
  }, 120_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  /** A project on the source, built; under `prd` when given, else as the analyst proposes. */
  async function buildProject(prd?: Prd): Promise<ProjectView> {
    const projectId = `proj-20261201-r${++seq}${Date.now().toString(36)}`;
    const passwordRef = await deps.secrets.put(
      `projects/${projectId}/db-password`,
      harness().mariadb.password,
    );
    const { host, port, user } = harness().mariadb;
    const handle = await env.client.workflow.start(analysisProject, {
      taskQueue: TASK_QUEUE,
      workflowId: projectId,
      args: [
        {
          project_id: projectId,
          owner_id: 'user-1',
          created_at: new Date().toISOString(),
          description: 'an online shop',
          reuse_ods: false,
          source: {
            jdbc_url: `jdbc:mysql://${host}:${port}/${DB}`,
            username: user,
            password_ref: passwordRef,
          },
        },
      ],
    });
    for (let i = 0; (await handle.query(statusQuery)).status !== 'waiting_approval'; i++) {
      if (i > 600) throw new Error('the PRD never came');
      await new Promise((r) => setTimeout(r, 100));
    }
    await handle.executeUpdate(decideUpdate, {
      args: [prd ? { decision: 'modify', prd } : { decision: 'approve' }],
    });
    const view = await handle.result();
    expect(view.status).toBe('completed');
    return view;
  }

  const refresh = (projectId: string) =>
    env.client.workflow.execute(projectRefresh, {
      taskQueue: TASK_QUEUE,
      workflowId: `${projectId}-refresh-${++seq}`,
      args: [{ project_id: projectId, trigger: 'manual' }],
    });

  /** Every row of every ADS table, in one order. */
  async function adsRows(view: ProjectView) {
    const out: Record<string, unknown[]> = {};
    for (const table of view.prd!.layers.ads) {
      const { rows } = await deps.engine.query(
        view.project_id,
        `SELECT * FROM "${table.name}" ORDER BY ALL`,
        100_000,
        'ads',
      );
      out[table.name] = rows;
    }
    return out;
  }

  it('after the source changes, a refresh reads only the changes and its ADS equals a new build', async () => {
    const project = await buildProject();
    expect(project.prd!.refresh.find((r) => r.table === 'orders')).toMatchObject({
      detect: 'updated_at',
      column: 'updated_at',
    });
    const before = await adsRows(project);
    await onSource(CHANGES);

    const run = await refresh(project.project_id);
    expect(run).toMatchObject({ status: 'completed', trigger: 'manual' });
    const orders = run.tables!.find((t) => t.table === 'orders')!;
    // 100 updated, 50 new; the 12 deleted found by counting keys per bucket.
    expect(orders).toMatchObject({ read: 'changes', rows_deleted: 12, rows_after: 4000 - 12 + 50 });
    expect(orders.rows_read).toBe(100 + 50);
    expect(run.tables!.find((t) => t.table === 'customers')).toMatchObject({ read: 'whole' });
    // Each modeled table's share recomputed is recorded: some only by day, none left out.
    expect(Object.keys(run.recomputed!).sort()).toEqual(Object.keys(run.rebuilt!).sort());
    expect(Object.values(run.recomputed!).some((s) => s.kind === 'days' && s.days > 0)).toBe(true);

    const rebuilt = await buildProject(project.prd);
    const after = await adsRows(project);
    expect(after).toEqual(await adsRows(rebuilt));
    expect(after).not.toEqual(before);

    // The run is on the project: its source time is what the warehouse shows.
    const stored = await deps.store.getProject(project.project_id);
    expect(stored!.refresh).toMatchObject({
      as_of: run.source_as_of,
      last: { refresh_id: run.refresh_id, status: 'completed' },
      history: [],
    });
  }, 240_000);

  it('a backfill reads every table again: a correction the source did not stamp is found, the days recomputed', async () => {
    const project = await buildProject();
    // Amounts corrected in place, the stamp kept: no refresh by stamp can see it.
    await onSource(
      'UPDATE orders SET amount = amount + 3.33, updated_at = updated_at WHERE order_id % 50 = 1;',
    );
    const rebuilt = await buildProject(project.prd);
    const refreshed = await refresh(project.project_id);
    // Read by stamp (the look-back re-reads the newest rows only), so the correction is missed.
    expect(refreshed.tables!.find((t) => t.table === 'orders')).toMatchObject({ read: 'changes' });
    expect(await adsRows(project)).not.toEqual(await adsRows(rebuilt));

    const run = await env.client.workflow.execute(projectRefresh, {
      taskQueue: TASK_QUEUE,
      workflowId: `${project.project_id}-backfill-${++seq}`,
      args: [
        {
          project_id: project.project_id,
          trigger: 'backfill',
          range: { from: '2025-01-01', to: '2025-12-31' },
        },
      ],
    });
    expect(run).toMatchObject({
      status: 'completed',
      trigger: 'backfill',
      range: { from: '2025-01-01', to: '2025-12-31' },
    });
    expect(run.tables!.every((t) => t.read === 'whole')).toBe(true);
    expect(await adsRows(project)).toEqual(await adsRows(rebuilt));
  }, 240_000);

  it('refuses a backfill of no calendar days, before touching anything', async () => {
    const failed = await env.client.workflow
      .execute(projectRefresh, {
        taskQueue: TASK_QUEUE,
        workflowId: `proj-20261201-nosuch-backfill-${++seq}`,
        args: [
          {
            project_id: 'proj-20261201-nosuch',
            trigger: 'backfill',
            range: { from: '2025-02-30', to: '2025-03-01' },
          },
        ],
      })
      .catch((err: unknown) => err);
    expect((failed as WorkflowFailedError).cause?.message).toMatch(/no project|not a calendar day/);
  });

  it('refuses a project that does not exist or has no warehouse, with the reason', async () => {
    const failed = await refresh('proj-20261201-nosuch').catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    expect((failed as WorkflowFailedError).cause?.message).toBe(
      'refresh of proj-20261201-nosuch refused: no project proj-20261201-nosuch',
    );
  });
});
