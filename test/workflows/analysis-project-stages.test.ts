/**
 * analysisProject's sequence of stages with stand-in activities, beside the end-to-end tests that
 * run the real ones (analysis-project.test.ts): what the workflow itself decides — the order of
 * stages, what each records on the view, retries of a transient failure, how a failure or a model
 * cost shows — without a database or a warehouse. The PRD is the real offline analyst's, of a
 * two-table schema.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { PHASES, type AnalysisProjectInput, type PhaseName } from '../../shared/project-model';
import { timeSkippingEnv } from '../harness/temporal-envs';
import { HOST, runStandInProject, SNAPSHOT, standIns } from '../harness/stand-in-project';
import { Worker } from '@temporalio/worker';
import { activityInfo } from '@temporalio/activity';
import { hostQueue } from '../../shared/task-queues';
import type { ProjectHost } from '../../activities/fleet/host-activities';
import { stageAttempts } from '../../gateway/projects/stage-attempts';
import type { CopyOdsPartRequest, FinishOdsRequest } from '../../activities/analysis/ods-part-activities';
import type { OdsPartCopy } from '../../domain/warehouse/ods-assembly';

const TASK_QUEUE = 'analysis-project-stages-test';

describe('analysisProject stages (stand-in activities, time skipping)', () => {
  let env: TestWorkflowEnvironment;
  const prd = buildOfflinePrd(SNAPSHOT, 'online shop orders');

  beforeAll(async () => {
    env = await timeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  /** Runs one project to its end on a worker with `activities`, approving when asked. */
  const runProject = (activities: object, hosts = [HOST], given: Partial<AnalysisProjectInput> = {}) =>
    runStandInProject(env, TASK_QUEUE, activities, { hosts, given });

  it('runs the stages in order, records each result on the view, and adds every model cost', async () => {
    const { activities, ran, saved } = standIns(prd);
    const { view } = await runProject(activities);
    expect(ran).toEqual([
      'generatePrd',
      'planOdsCopy',
      'copyOdsPart',
      'copyOdsPart',
      'finishOds',
      'buildWarehouseModel',
      'governWarehouse',
      'validateMetricSql',
      'buildDashboards',
      'profileData',
      'generatePipeline',
    ]);
    expect(view!.status).toBe('completed');
    expect(view!.bi_dashboard_url).toBe('http://x/ui/dash');
    expect(Object.keys(view!.warehouse!).sort()).toEqual(
      ['governance', 'host', 'metrics', 'modeling', 'ods', 'pipeline', 'profile', 'visualization'].sort(),
    );
    expect(view!.cost.project_total.total_tokens).toBe(3000);
    expect(view!.message).toBe(
      'warehouse built: 8 rows in ODS, 2 valid metrics, dashboard at http://x/ui/dash',
    );
    // Each stage's summary is saved together with its result.
    const completedModeling = saved.find((s) => s.view.phases.data_modeling === 'completed')!;
    expect(completedModeling.view.warehouse?.modeling).toBeDefined();
    expect(completedModeling.view.phase_details.data_modeling.message).toBe('plat_x_dwd: 0 tables');
    const events = saved.flatMap((s) => s.events);
    expect(events.filter((e) => e.event_type === 'cost_update')).toHaveLength(2);
    expect(events.map((e) => e.event_key)).toEqual([...new Set(events.map((e) => e.event_key))]);
    expect(events.at(-1)).toMatchObject({ event_type: 'project_completed', status: 'completed' });
  });

  it('retries a transient stage failure and carries on', async () => {
    let attempts = 0;
    const { activities, ran } = standIns(prd);
    const flaky = {
      profileData: async () => {
        ran.push('profileData');
        if (++attempts < 3) throw new Error('warehouse busy');
        return { overall_score: 70, insights: 1 };
      },
    };
    const { id, view } = await runProject({ ...activities, ...flaky });
    expect(attempts).toBe(3);
    // The monitor reads the retries from the workflow's history. (The time-skipping server keeps no
    // failure on a retried attempt's start; the dev server does: test/e2e/ingest-worker-kill.test.ts.)
    const { stages } = await stageAttempts(env.client, id);
    expect([...new Set(stages.map((s) => s.phase))]).toEqual(PHASES);
    expect(stages.find((s) => s.phase === 'analytics_advisor')).toMatchObject({
      activity: 'profileData',
      attempts: 3,
      failures: 2,
      state: 'completed',
    });
    expect(stages.find((s) => s.phase === 'data_modeling')).toMatchObject({ attempts: 1, failures: 0 });
    expect(view!.status).toBe('completed');
    expect(view!.phase_details.analytics_advisor.message).toBe(
      'data profile scored 70/100 with 1 key insights',
    );
  });

  it('copies in parts side by side: a failed part is retried on its own, the merge gets every part', async () => {
    const attempts: Record<string, number> = {};
    let finished: FinishOdsRequest | undefined;
    const { activities, saved } = standIns(prd, {
      planOdsCopy: async () => ({
        parts: [
          {
            id: 'p1',
            kind: 'range',
            table: 'orders',
            range: '`order_id` < 100',
            index: 0,
            of: 2,
            estimated_rows: 90,
          },
          {
            id: 'p2',
            kind: 'range',
            table: 'orders',
            range: '`order_id` >= 100',
            index: 1,
            of: 2,
            estimated_rows: 90,
          },
          { id: 'p3', kind: 'tables', tables: ['customers'], estimated_rows: 20 },
        ],
        estimated_rows: 200,
        part_rows: 100,
      }),
      copyOdsPart: async (req: CopyOdsPartRequest): Promise<OdsPartCopy> => {
        attempts[req.part.id] = (attempts[req.part.id] ?? 0) + 1;
        if (req.part.id === 'p2' && attempts.p2 === 1) throw new Error('source connection reset');
        const table = req.part.kind === 'range' ? req.part.table : req.part.tables[0];
        return {
          part: req.part,
          tables: [{ table, source_rows: 10, ods_rows: 10, file: `/x/${req.part.id}.parquet`, warnings: [] }],
        };
      },
      finishOds: async (req: FinishOdsRequest) => {
        finished = req;
        return {
          database: 'plat_x_ods',
          database_file: '/x/ods.duckdb',
          tables: [],
          rows_copied: 30,
          warnings: [],
          parts: req.copies.length,
        };
      },
    });
    const { id, view } = await runProject(activities);
    expect(view!.status).toBe('completed');
    expect(attempts).toEqual({ p1: 1, p2: 2, p3: 1 });
    expect(finished!.copies.map((c) => c.part.id)).toEqual(['p1', 'p2', 'p3']);
    expect(view!.phase_details.data_ingestion.message).toBe('0 tables, 30 rows into plat_x_ods in 3 parts');
    const said = saved.flatMap((s) => s.events).find((e) => e.payload?.parts === 3);
    expect(said?.message).toBe('copying about 200 rows in 3 parts of about 100 rows, side by side');
    const copies = (await stageAttempts(env.client, id)).stages.filter((s) => s.activity === 'copyOdsPart');
    expect(copies.map((c) => [c.attempts, c.state])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [1, 'completed'],
    ]);
  });

  it('reuses an earlier ODS in an activity of its own, and copies in parts when it cannot, saying why', async () => {
    const reused = {
      database: 'plat_x_ods',
      database_file: '/x/ods.duckdb',
      tables: [{ table: 'orders', source_rows: 5, ods_rows: 5 }],
      rows_copied: 5,
      warnings: [],
      reused_from: { project_id: 'proj-20261101-earlier', copied_at: '2026-11-01T00:00:00.000Z' },
    };
    const reuse = { reuse_ods: true, reuse_ods_from: 'proj-20261101-earlier' };
    const usable = standIns(prd, { reuseEarlierOds: async () => ({ reused }) });
    const first = await runProject(usable.activities, [HOST], reuse);
    expect(first.view!.status).toBe('completed');
    expect(first.view!.warehouse!.ods).toEqual(reused);
    expect(usable.ran).not.toContain('planOdsCopy');

    let notes: string[] = [];
    const unusable = standIns(prd, {
      reuseEarlierOds: async () => ({ unusable: 'the ODS of proj-20261101-earlier lacks orders' }),
      finishOds: async (req: FinishOdsRequest) => {
        notes = req.notes;
        return { ...reused, reused_from: undefined, warnings: req.notes, parts: req.copies.length };
      },
    });
    const second = await runProject(unusable.activities, [HOST], reuse);
    expect(second.view!.status).toBe('completed');
    expect(unusable.ran).toEqual(expect.arrayContaining(['planOdsCopy', 'copyOdsPart']));
    expect(notes).toEqual([
      'reuse_ods: the ODS of proj-20261101-earlier lacks orders; copied from the source instead',
    ]);
  });

  it('with Athena copies on the claimed host, then runs the later stages on the shared warehouse queue', async () => {
    const queueOf: Record<string, string> = {};
    const { activities } = standIns(prd);
    const tracked = Object.fromEntries(
      ['copyOdsPart', 'finishOds', 'buildWarehouseModel', 'profileData', 'generatePipeline'].map((name) => {
        const real = (activities as Record<string, (...a: never[]) => Promise<unknown>>)[name];
        return [
          name,
          async (...args: never[]) => {
            queueOf[name] = activityInfo().taskQueue;
            return real(...args);
          },
        ];
      }),
    );
    const { view } = await runProject({
      ...activities,
      ...tracked,
      claimProjectHost: async (): Promise<ProjectHost> => ({
        host_id: HOST,
        lost_after_ms: 60_000,
        stages_anywhere: true,
      }),
    });
    expect(view!.status).toBe('completed');
    expect(queueOf).toEqual({
      copyOdsPart: hostQueue(TASK_QUEUE, HOST),
      finishOds: hostQueue(TASK_QUEUE, HOST),
      buildWarehouseModel: `${TASK_QUEUE}-warehouse`,
      profileData: `${TASK_QUEUE}-warehouse`,
      generatePipeline: `${TASK_QUEUE}-warehouse`,
    });
  });

  it('fails the project at the stage that failed for good, skipping the ones after it', async () => {
    const { activities, ran } = standIns(prd, {
      validateMetricSql: async () => {
        throw ApplicationFailure.nonRetryable('the ADS layer has no tables', 'NoAds');
      },
    });
    const { id, view, error } = await runProject(activities);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(ran).not.toContain('buildDashboards');
    expect((await stageAttempts(env.client, id)).stages.at(-1)).toEqual({
      phase: 'query_building',
      activity: 'validateMetricSql',
      attempts: 1,
      failures: 1,
      state: 'failed',
      last_failure: 'the ADS layer has no tables',
    });
    expect(view!.status).toBe('failed');
    expect(view!.error).toEqual({ phase: 'query_building', message: 'the ADS layer has no tables' });
    const after: PhaseName[] = ['visualization', 'analytics_advisor', 'production_pipeline'];
    for (const phase of PHASES)
      expect(view!.phases[phase]).toBe(
        phase === 'query_building' ? 'failed' : after.includes(phase) ? 'skipped' : 'completed',
      );
    expect(view!.message).toBe('query_building failed: the ADS layer has no tables');
  });

  it('stops at governance when a blocking rule fails, keeping the report on the view', async () => {
    const { activities, ran } = standIns(prd, {
      governWarehouse: async () => ({
        rules_total: 2,
        rules_passed: 1,
        rules_failed: 1,
        rules_errored: 0,
        blocking_failed: ['orders.order_id is unique'],
        catalog_tables: 6,
      }),
    });
    const { view } = await runProject(activities);
    expect(ran).not.toContain('validateMetricSql');
    expect(view!.status).toBe('failed');
    expect(view!.warehouse?.governance?.blocking_failed).toEqual(['orders.order_id is unique']);
    expect(view!.error?.message).toBe('blocking quality rules failed: orders.order_id is unique');
  });

  it('starts over on another host when its host is lost, saying so, and completes there', async () => {
    const claims: string[] = [];
    const { activities, ran, saved } = standIns(prd, {
      // The first claim names a host no worker serves any more; the second one a live host.
      claimProjectHost: async (): Promise<ProjectHost> => {
        claims.push(claims.length === 0 ? 'host-gone' : HOST);
        // (The test server does not skip time while a task waits on a queue: this wait is real.)
        return { host_id: claims.at(-1)!, lost_after_ms: 3_000 };
      },
      hostAlive: async () => false,
    });
    const { view } = await runProject(activities, [HOST]);
    expect(claims).toEqual(['host-gone', HOST]);
    expect(view!.status).toBe('completed');
    expect(view!.warehouse?.host).toBe(HOST);
    expect(ran.filter((r) => r === 'finishOds')).toHaveLength(1);
    const events = saved.flatMap((s) => s.events);
    const lost = events.find((e) => e.payload?.host_lost === 'host-gone');
    expect(lost?.message).toBe(
      'host host-gone stopped answering for 3 s: its copy of the data is lost with it; copying the source again on another host',
    );
    // The project showed the move while it waited for the new host's copy.
    const moving = saved.find((s) => s.events.includes(lost!))!.view;
    expect(moving.phases.data_ingestion).toBe('pending');
    expect(moving.phase_details.data_ingestion.message).toBe(lost!.message);
  });

  it('keeps waiting for a host that is alive but busy', async () => {
    let hostWorker: Worker | undefined;
    let hostRunning: Promise<void> | undefined;
    let asked = 0;
    const { activities, ran } = standIns(prd, {
      claimProjectHost: async (): Promise<ProjectHost> => ({ host_id: 'host-busy', lost_after_ms: 2_000 }),
      // Alive: its worker just has not taken the task yet (it starts polling now).
      hostAlive: async () => {
        asked++;
        if (!hostWorker) {
          hostWorker = await Worker.create({
            connection: env.nativeConnection,
            taskQueue: hostQueue(TASK_QUEUE, 'host-busy'),
            activities,
          });
          hostRunning = hostWorker.run();
        }
        return true;
      },
    });
    try {
      const { view } = await runProject(activities, []);
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(view!.status).toBe('completed');
      expect(view!.warehouse?.host).toBe('host-busy');
      expect(ran.filter((r) => r === 'finishOds')).toHaveLength(1);
    } finally {
      hostWorker?.shutdown();
      await hostRunning;
    }
  });
});
