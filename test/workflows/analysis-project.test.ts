/**
 * analysisProject on the time-skipping server with the real activities: the PRD stage against the
 * harness's Sakila, the approval gate and the failure paths.
 */
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ActivityDeps } from '../../workers/platform-activities';
import { PHASES, type ProjectView } from '../../shared/project-model';
import type { QualityReport } from '../../domain/governance/quality-checks';
import {
  decideUpdate,
  approveSignal,
  rejectSignal,
  statusQuery,
} from '../../workflows/analysis/analysis-project-messages';
import { analysisProject } from '../../workflows/analysis/analysis-project';
import { costReporterWorkflow } from '../../workflows/cost/cost-reporter';
import { harness } from '../harness/harness-state';
import { historyText } from '../harness/history-text';
import { recordHistory } from '../harness/recorded-histories';
import { testActivityDeps, timeSkippingEnv } from '../harness/temporal-envs';
import { testBundleCacheDir } from '../harness/workflow-bundle';
import { createPlatformWorker, type PlatformWorker } from '../../workers/platform-worker';
import { createWorkerMetrics } from '../../workers/worker-metrics';

const TASK_QUEUE = 'analysis-project-test';
const PASSWORD_MARKER = harness().mariadb.password;

describe('analysisProject workflow (time skipping)', () => {
  let env: TestWorkflowEnvironment;
  let worker: PlatformWorker;
  let running: Promise<void>;
  let deps: ActivityDeps;
  let seq = 0;
  const metrics = createWorkerMetrics();
  const counter = async (name: string) => (await metrics.registry.getSingleMetric(name)!.get()).values;

  beforeAll(async () => {
    env = await timeSkippingEnv();
    deps = { ...(await testActivityDeps()), onStoredEvents: metrics.observe, gauges: metrics };
    worker = await createPlatformWorker({
      connection: env.nativeConnection,
      namespace: 'default',
      taskQueue: TASK_QUEUE,
      deps,
      bundleCacheDir: testBundleCacheDir(),
    });
    running = worker.run();
  });
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  async function start(password = harness().mariadb.password) {
    const projectId = `proj-20261122-t${++seq}${Date.now().toString(36)}`;
    const passwordRef = await deps.secrets.put(`projects/${projectId}/db-password`, password);
    const { host, port, user } = harness().mariadb;
    const handle = await env.client.workflow.start(analysisProject, {
      taskQueue: TASK_QUEUE,
      workflowId: projectId,
      args: [
        {
          project_id: projectId,
          owner_id: 'user-1',
          created_at: new Date().toISOString(),
          description: 'a chain of video rental stores',
          reuse_ods: false,
          source: {
            jdbc_url: `jdbc:mysql://${host}:${port}/sakila`,
            username: user,
            password_ref: passwordRef,
          },
        },
      ],
    });
    return { projectId, handle };
  }

  async function untilWaiting(handle: Awaited<ReturnType<typeof start>>['handle']): Promise<ProjectView> {
    for (let i = 0; i < 300; i++) {
      const view = await handle.query(statusQuery);
      if (view.status === 'waiting_approval' || view.status === 'failed') return view;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('project never reached waiting_approval');
  }

  it('writes the PRD, waits for approval, then builds the warehouse, its reports and dashboards', async () => {
    const { projectId, handle } = await start();
    const waiting = await untilWaiting(handle);
    expect(waiting.status).toBe('waiting_approval');
    expect(waiting.phases.prd).toBe('waiting_approval');
    expect(waiting.phase_details.prd).toEqual({ started_at: expect.any(String) });
    expect(waiting.phases.data_ingestion).toBe('pending');
    expect(waiting.phase_details.data_ingestion).toEqual({});
    expect(waiting.prd?.industry.name).toBe('DVD rental / retail');
    expect(waiting.cost.by_agent).toEqual([
      expect.objectContaining({ agent_name: 'product_manager', phase: 'prd', call_count: 0 }),
    ]);

    // Waiting is durable: days pass, nothing happens until a person decides.
    await env.sleep('3 days');
    expect((await handle.query(statusQuery)).status).toBe('waiting_approval');
    await recordHistory('analysis-project-waiting-approval', handle);

    await handle.signal(approveSignal);
    const done = await handle.result();
    await recordHistory('analysis-project-completed', handle);
    expect(done.status).toBe('completed');
    expect(done.phases.prd).toBe('completed');
    // Data integration ran for real: every table reconciled.
    expect(done.phases.data_ingestion).toBe('completed');
    expect(done.warehouse?.ods?.tables).toHaveLength(16);
    expect(done.warehouse!.ods!.tables.every((t) => t.source_rows === t.ods_rows)).toBe(true);
    expect(done.warehouse!.ods!.rows_copied).toBe(47_268);
    // `phases` holds status strings only; when each phase ran is in `phase_details`.
    for (const phase of PHASES) {
      expect(done.phases[phase]).toBe('completed');
      const { started_at, ended_at, message } = done.phase_details[phase];
      expect(Date.parse(ended_at!)).toBeGreaterThanOrEqual(Date.parse(started_at!));
      expect(message).toEqual(expect.any(String));
    }
    expect(done.phase_details.prd.message).toBe('PRD approved');
    expect(done.warehouse!.profile!.overall_score).toBeGreaterThan(50);
    expect(done.warehouse!.pipeline!.files).toEqual(
      expect.arrayContaining(['workflow.ts', 'sql/model/ads.sql']),
    );
    expect(done.warehouse!.modeling!.layers.map((l) => l.layer)).toEqual(['dwd', 'dws', 'ads']);
    const ads = done.warehouse!.modeling!.layers[2].tables.find((t) => t.name === 'ads_rental_kpi_daily')!;
    expect(ads.partition_by).toEqual(['stat_date']);
    expect(ads.row_count).toBeGreaterThan(30);
    // Sakila's keys hold; its data ends in 2006, so the freshness warnings fail, and say so.
    const planned = Object.values(done.prd!.layers).reduce((n, tables) => n + tables.length, 0);
    expect(done.warehouse!.governance).toMatchObject({ blocking_failed: [], catalog_tables: planned });
    expect(done.warehouse!.governance!.rules_failed).toBeGreaterThan(0);
    expect(done.warehouse!.metrics!.invalid).toEqual([]);
    expect(done.bi_dashboard_url).toBe(`http://localhost:8080/ui/projects/${projectId}/dashboard`);
    expect(await deps.store.getArtifact(projectId, 'model_scripts')).toBeDefined();

    const stored = (await deps.store.getProject(projectId))!;
    expect(stored.status).toBe('completed');
    const types = (await deps.store.eventsSince(projectId, 0)).map((e) => e.event_type);
    expect(types).toEqual(
      expect.arrayContaining([
        'phase_changed',
        'log_entry',
        'cost_update',
        'hitl_required',
        'project_completed',
      ]),
    );
    expect(types.indexOf('hitl_required')).toBeLessThan(types.indexOf('project_completed'));
    const logs = await deps.store.agentLogs(projectId);
    expect(logs.find((l) => l.tool === 'count_rows' && l.params.table === 'rental')?.summary).toBe(
      '16044 rows',
    );
  });

  it('refuses an invalid edit without leaving the gate, then rejects as terminated', async () => {
    const { projectId, handle } = await start();
    const waiting = await untilWaiting(handle);
    const broken = { ...waiting.prd, layers: { ...waiting.prd!.layers, ads: [] }, extra_field: 1 };
    const failure = await handle
      .executeUpdate(decideUpdate, { args: [{ decision: 'modify', prd: broken }] })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(failure.cause).toMatchObject({ type: 'InvalidPrd' });
    expect((await handle.query(statusQuery)).status).toBe('waiting_approval');

    const rejected = await handle.executeUpdate(decideUpdate, {
      args: [{ decision: 'reject', reason: 'wrong database' }],
    });
    expect(rejected).toEqual({ project_id: projectId, decision: 'reject', status: 'terminated' });
    const final = await handle.result();
    await recordHistory('analysis-project-rejected', handle);
    expect(final.status).toBe('terminated');
    expect(final.message).toBe('PRD rejected: wrong database');
    expect(final.phases.prd).toBe('completed');
    expect(final.phase_details.prd).toMatchObject({
      started_at: expect.any(String),
      ended_at: expect.any(String),
    });
    for (const phase of PHASES.slice(1)) {
      expect(final.phases[phase]).toBe('skipped');
      expect(final.phase_details[phase]).toEqual({ message: 'PRD rejected' });
    }
    // Deciding again: nothing is pending any more.
    await expect(handle.signal(rejectSignal, {})).rejects.toThrow();
  });

  it('applies a valid edit and approves it', async () => {
    const { handle } = await start();
    const waiting = await untilWaiting(handle);
    const edited = { ...waiting.prd!, title: 'Store performance, edited by a person' };
    const result = await handle.executeUpdate(decideUpdate, { args: [{ decision: 'modify', prd: edited }] });
    expect(result.decision).toBe('modify');
    const final = await handle.result();
    expect(final.prd?.title).toBe('Store performance, edited by a person');
    expect(final.phases.prd).toBe('completed');
    expect(final.phase_details.prd.message).toBe('PRD edited and approved');
  });

  it('fails the project when the source refuses the credentials, and says why', async () => {
    const { projectId, handle } = await start('not-the-password');
    const error = await handle.result().catch((e) => e);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const view = (await deps.store.getProject(projectId))!;
    expect(view.status).toBe('failed');
    expect(view.phases.prd).toBe('failed');
    expect(view.phase_details.prd).toEqual({ started_at: expect.any(String), ended_at: expect.any(String) });
    expect(view.phases.data_ingestion).toBe('skipped');
    expect(view.phase_details.data_ingestion).toEqual({ message: 'prd failed' });
    expect(view.error?.message).toMatch(/Access denied/);
    expect((await deps.store.eventsSince(projectId, 0)).map((e) => e.event_type)).toContain('project_failed');
    // Counted once in the project-failure metric.
    expect((await counter('plat_project_failures_total'))[0].value).toBe(1);
  });

  it('ends as cancelled when cancelled at the gate', async () => {
    const { projectId, handle } = await start();
    await untilWaiting(handle);
    await handle.cancel();
    await expect(handle.result()).rejects.toThrow();
    const view = (await deps.store.getProject(projectId))!;
    expect(view.status).toBe('cancelled');
    // The phase that was waiting ended when the project was cancelled.
    expect(view.phases.prd).toBe('skipped');
    expect(view.phase_details.prd).toEqual({
      started_at: expect.any(String),
      ended_at: expect.any(String),
      message: 'cancelled',
    });
  });

  it('stops at data governance when a blocking quality rule fails, with the rule and its violations', async () => {
    const { projectId, handle } = await start();
    const waiting = await untilWaiting(handle);
    const strict = structuredClone(waiting.prd!);
    strict.quality_rules.push({
      name: 'payments are at most 5.00',
      layer: 'ods',
      table: 'ods_payment',
      column: 'amount',
      kind: 'range',
      params: { max: 5 },
      severity: 'blocking',
    });
    await handle.executeUpdate(decideUpdate, { args: [{ decision: 'modify', prd: strict }] });
    expect(await handle.result().catch((e) => e)).toBeInstanceOf(WorkflowFailedError);
    const view = (await deps.store.getProject(projectId))!;
    expect(view).toMatchObject({ status: 'failed', error: { phase: 'data_governance' } });
    expect(view.error!.message).toContain('payments are at most 5.00');
    expect(view.phases.data_governance).toBe('failed');
    expect(view.phase_details.data_governance.ended_at).toEqual(expect.any(String));
    expect(view.phases.query_building).toBe('skipped');
    const report = (await deps.store.getArtifact<QualityReport>(projectId, 'quality_report'))!;
    const rule = report.results.find((r) => r.name === 'payments are at most 5.00')!;
    expect(rule.status).toBe('failed');
    expect(rule.violations).toBeGreaterThan(1000);
    expect(rule.samples).toHaveLength(5);
    expect(Number(rule.samples[0].amount)).toBeGreaterThan(5);
  });

  it('keeps the database password out of workflow history, events and the project record', async () => {
    const { projectId, handle } = await start();
    await untilWaiting(handle);
    await handle.signal(approveSignal);
    await handle.result();
    const history = historyText(await handle.fetchHistory());
    // The decoding works (the reference and the PRD are readable), and the password is not there.
    expect(history).toContain(`local:projects/${projectId}/db-password`);
    expect(history).toContain('DVD rental / retail');
    expect(history.includes(PASSWORD_MARKER)).toBe(false);
    expect(JSON.stringify(await deps.store.eventsSince(projectId, 0))).not.toContain(PASSWORD_MARKER);
    expect(JSON.stringify(await deps.store.getProject(projectId))).not.toContain(PASSWORD_MARKER);
    expect(JSON.stringify(await deps.store.agentLogs(projectId))).not.toContain(PASSWORD_MARKER);
  });

  it("the cost reporter publishes recent projects' costs as per-project metrics", async () => {
    const { projectId, handle } = await start();
    await untilWaiting(handle);
    const report = await env.client.workflow.execute(costReporterWorkflow, {
      taskQueue: TASK_QUEUE,
      workflowId: `cost-${projectId}`,
      args: [60 * 24 * 365 * 100],
    });
    await recordHistory('cost-reporter', env.client.workflow.getHandle(`cost-${projectId}`));
    expect(report.projects).toBeGreaterThanOrEqual(1);
    const calls = await counter('plat_costs_model_calls');
    // The offline analyst made no model calls: its project is reported, with zero calls.
    expect(calls.find((v) => v.labels.project_id === projectId)?.value).toBe(0);
    await handle.cancel();
  });
});
