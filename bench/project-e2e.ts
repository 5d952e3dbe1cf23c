/**
 * `npm run bench:project`: an analysis project on Sakila with the offline analysts, from approval to
 * `completed`, through a real Temporal dev server and worker (target: under 30 s on this machine).
 * Baseline in the same run: the same stage activities called one after another without Temporal
 * (MockActivityEnvironment), so the ratio shows what orchestration and progress recording cost.
 *
 * BENCH_RUNS=3 by default. Servers are private and stopped at the end; MariaDB's data is kept under
 * .data/bench/ so later runs skip loading Sakila.
 */
import { DATASETS_DIR } from '../test/fixtures/datasets-dir';
import { MockActivityEnvironment, TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createActivities, dataDirDeps } from '../workers/platform-activities';
import { freePort } from '../shared/free-port';
import { loadSakila, startPrivateMariaDb } from '../scripts/lib/mariadb-instance';
import { startTemporalDevServer } from '../scripts/lib/temporal-dev-server';
import { repoRoot } from '../shared/paths';
import { PHASES, type AnalysisProjectInput } from '../shared/project-model';
import { normalizeProjectView } from '../shared/project-view-compat';
import { analysisProject } from '../workflows/analysis/analysis-project';
import { approveSignal, statusQuery } from '../workflows/analysis/analysis-project-messages';
import { createPlatformWorker } from '../workers/platform-worker';
import { addKeywordSearchAttributes } from '../workers/search-attribute-registration';
import { runBench } from './lib/bench-stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_SECONDS = 30;
const TASK_QUEUE = 'bench-project';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const secs = (ms: number) => (ms / 1000).toFixed(2);

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-project-'));
  const benchDir = path.join(repoRoot, '.data', 'bench');
  fs.mkdirSync(benchDir, { recursive: true });
  console.log('starting Temporal dev server and MariaDB with Sakila…');
  const [temporal, mariadb] = await Promise.all([
    freePort().then((port) => startTemporalDevServer({ port, logFile: path.join(scratch, 'temporal.log') })),
    freePort().then((port) =>
      startPrivateMariaDb({
        dataDir: path.join(benchDir, 'mariadb-project'),
        port,
        logFile: path.join(scratch, 'mariadb.log'),
      }),
    ),
  ]);
  try {
    await loadSakila(mariadb, path.join(DATASETS_DIR, 'sakila'));
    const env = await TestWorkflowEnvironment.createFromExistingServer({ address: temporal.address });
    await addKeywordSearchAttributes(env.connection, 'default');
    const deps = await dataDirDeps(path.join(scratch, 'data'));
    const worker = await createPlatformWorker({
      connection: env.nativeConnection,
      namespace: 'default',
      taskQueue: TASK_QUEUE,
      deps,
    });
    const input = async (id: string): Promise<AnalysisProjectInput> => ({
      project_id: id,
      owner_id: 'bench',
      created_at: new Date().toISOString(),
      description: '',
      reuse_ods: false,
      source: {
        jdbc_url: `jdbc:mysql://${mariadb.host}:${mariadb.port}/sakila`,
        username: mariadb.user,
        password_ref: await deps.secrets.put(`projects/${id}/db-password`, mariadb.password),
      },
    });

    const e2e: number[] = [];
    const phaseTimes: Record<string, number[]> = {};
    await worker.runUntil(async () => {
      for (let run = 1; run <= RUNS; run++) {
        const id = `proj-20261122-bench${run}${Date.now().toString(36)}`;
        const handle = await env.client.workflow.start(analysisProject, {
          taskQueue: TASK_QUEUE,
          workflowId: id,
          args: [await input(id)],
        });
        while ((await handle.query(statusQuery)).status !== 'waiting_approval')
          await new Promise((r) => setTimeout(r, 50));
        const started = Date.now();
        await handle.signal(approveSignal);
        const view = normalizeProjectView(await handle.result());
        const ms = Date.now() - started;
        if (view.status !== 'completed') throw new Error(`run ${run} ended ${view.status}: ${view.message}`);
        e2e.push(ms);
        for (const p of PHASES.slice(1)) {
          const s = view.phase_details[p];
          if (s.started_at && s.ended_at)
            (phaseTimes[p] ??= []).push(Date.parse(s.ended_at) - Date.parse(s.started_at));
        }
        console.log(`run ${run}: approval → completed in ${secs(ms)} s`);
      }
    });

    // Baseline: the same activities back to back, no workflow, no progress recording.
    const activities = createActivities(deps);
    const mock = new MockActivityEnvironment();
    const direct: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const id = `proj-20261122-direct${run}${Date.now().toString(36)}`;
      const req = await input(id);
      const { prd } = (await mock.run(activities.generatePrd, {
        project_id: id,
        description: '',
        source: req.source,
      })) as Awaited<ReturnType<typeof activities.generatePrd>>;
      const stageReq = { project_id: id, prd };
      const started = Date.now();
      await mock.run(activities.ingestOds, { project_id: id, source: req.source, prd });
      await mock.run(activities.buildWarehouseModel, stageReq);
      await mock.run(activities.governWarehouse, stageReq);
      await mock.run(activities.validateMetricSql, stageReq);
      await mock.run(activities.buildDashboards, stageReq);
      await mock.run(activities.profileData, stageReq);
      await mock.run(activities.generatePipeline, stageReq);
      direct.push(Date.now() - started);
      console.log(
        `baseline run ${run}: the stage activities alone took ${secs(direct[direct.length - 1])} s`,
      );
    }

    console.log('\nphase (median of runs)        seconds');
    for (const [p, times] of Object.entries(phaseTimes))
      console.log(`  ${p.padEnd(28)} ${secs(median(times))}`);
    const e2eMedian = median(e2e);
    const directMedian = median(direct);
    console.log(
      `\napproval → completed (median of ${RUNS}): ${secs(e2eMedian)} s   target < ${TARGET_SECONDS} s: ${e2eMedian < TARGET_SECONDS * 1000 ? 'met' : 'NOT met'}`,
    );
    console.log(`baseline, activities without Temporal:   ${secs(directMedian)} s`);
    console.log(
      `ratio plat / baseline: ${(e2eMedian / directMedian).toFixed(2)}x   ratio to target: ${(e2eMedian / (TARGET_SECONDS * 1000)).toFixed(2)}`,
    );
    await env.teardown();
  } finally {
    await Promise.all([temporal.service.stop(), mariadb.service.stop()]);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

runBench(main);
