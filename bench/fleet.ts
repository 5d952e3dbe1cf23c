/**
 * `npm run bench:fleet`: the same batch of analysis projects run by one worker process, then by
 * three, on this machine, with the same slots per worker (docs/fleet.md#task-queues). The PRD agent
 * is Claude through the real SDK, answered by a local fake of the Messages API after a fixed latency,
 * so the work waits on the model as it does in production. Prints projects per minute for each, the
 * ratio (target: three workers >= 2.5x one), and the P95 schedule-to-start latency per workload queue
 * read from the projects' histories (exact; the SDK's own histogram has buckets 10 s and 100 s apart).
 *
 * BENCH_PROJECTS (default 12), BENCH_MODEL_LATENCY_MS (default 4000), BENCH_SLOTS (default
 * agents=1,host=2). The three workers share one data directory: one host, as compose replicas are.
 */
import { Client, Connection } from '@temporalio/client';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mysql from 'mysql2/promise';
import { buildOfflinePrd } from '../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../domain/sources/source-explorer';
import { freePort } from '../shared/free-port';
import { startPrivateMariaDb, type MariaDbInstance } from '../scripts/lib/mariadb-instance';
import { startTemporalDevServer } from '../scripts/lib/temporal-dev-server';
import { repoRoot } from '../shared/paths';
import type { AnalysisProjectInput } from '../shared/project-model';
import { startMessagesFake } from '../test/fakes/anthropic-messages-fake';
import { analysisProject } from '../workflows/analysis/analysis-project';
import { approveSignal, statusQuery } from '../workflows/analysis/analysis-project-messages';
import { dataDirDeps } from '../workers/platform-activities';
import { machineLine, percentile, ratio, table } from './lib/bench-stats';

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 12);
const LATENCY_MS = Number(process.env.BENCH_MODEL_LATENCY_MS ?? 4000);
const SLOTS = process.env.BENCH_SLOTS ?? 'agents=1,host=2';
const TARGET = 2.5;
const DB = 'bench_fleet_shop';

interface Round {
  workers: number;
  seconds: number;
  perMinute: number;
  /** Schedule-to-start waits (ms) per workload queue, from the projects' histories. */
  waits: Record<string, number[]>;
}

async function createSource(db: MariaDbInstance): Promise<void> {
  await db.sql(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB};`);
  await db.sql(
    `CREATE TABLE customers (customer_id INT NOT NULL PRIMARY KEY, name VARCHAR(60) NOT NULL,
      region VARCHAR(20) NOT NULL, joined_on DATE NOT NULL);
    CREATE TABLE orders (order_id BIGINT NOT NULL PRIMARY KEY, customer_id INT NOT NULL,
      amount DECIMAL(12,2) NOT NULL, ordered_at DATETIME NOT NULL,
      FOREIGN KEY (customer_id) REFERENCES customers (customer_id));
    INSERT INTO customers SELECT seq, CONCAT('customer ', seq), ELT(1 + seq % 3, 'north', 'south', 'east'),
      DATE('2023-01-01') + INTERVAL seq % 700 DAY FROM seq_1_to_500;
    INSERT INTO orders SELECT seq, 1 + seq % 500, 1 + (seq * 37 % 9000) / 100,
      TIMESTAMP('2024-01-01') + INTERVAL (seq * 53) % 31536000 SECOND FROM seq_1_to_5000;`,
    DB,
  );
}

/** The answer the fake model gives: a valid PRD of the source, labelled as Claude's. */
async function modelPrd(db: MariaDbInstance): Promise<string> {
  const conn = await mysql.createConnection({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password,
    database: DB,
  });
  try {
    const prd = buildOfflinePrd(await exploreSource(conn, DB), 'an online shop');
    return JSON.stringify({ ...prd, analyst: { kind: 'claude', model: 'bench-fake' } });
  } finally {
    await conn.end();
  }
}

function startWorker(env: NodeJS.ProcessEnv, log: string): Promise<{ child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'workers/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  const out = fs.createWriteStream(log);
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (d) => {
      seen += String(d);
      if (seen.includes('worker polling')) resolve({ child });
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling; see ${log}`)));
  });
}

/** The workload a queue of `base` serves (docs/fleet.md#task-queues). */
function workloadOf(queue: string, base: string): string {
  if (queue === base) return 'workflows';
  if (queue.startsWith(`${base}-host-`)) return 'host';
  return queue.slice(base.length + 1);
}

/** Milliseconds of a history event's time. */
const eventMs = (t?: { seconds?: unknown; nanos?: number | null } | null) =>
  t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : NaN;

/**
 * How long each task waited on its queue before a worker took it (schedule-to-start), by workload
 * queue, read exactly from the projects' histories: activity tasks and workflow tasks.
 */
async function historyWaits(client: Client, ids: string[], base: string): Promise<Record<string, number[]>> {
  const waits: Record<string, number[]> = {};
  for (const id of ids) {
    const scheduled = new Map<string, { queue: string; at: number }>();
    for (const e of (await client.workflow.getHandle(id).fetchHistory()).events ?? []) {
      const activity = e.activityTaskScheduledEventAttributes;
      const workflowTask = e.workflowTaskScheduledEventAttributes;
      if (activity || workflowTask) {
        const queue = (activity ?? workflowTask)!.taskQueue?.name ?? base;
        // Workflow tasks of a cached workflow go to the worker's sticky queue: the workflows workload.
        scheduled.set(String(e.eventId), {
          queue: activity ? workloadOf(queue, base) : 'workflows',
          at: eventMs(e.eventTime),
        });
        continue;
      }
      const started = e.activityTaskStartedEventAttributes ?? e.workflowTaskStartedEventAttributes;
      const from = started && scheduled.get(String(started.scheduledEventId));
      if (from) (waits[from.queue] ??= []).push(eventMs(e.eventTime) - from.at);
    }
  }
  return waits;
}

async function round(
  workers: number,
  ctx: { temporal: string; db: MariaDbInstance; fakeUrl: string; scratch: string },
): Promise<Round> {
  const dataDir = path.join(ctx.scratch, `data-${workers}`);
  const queue = `bench-fleet-${workers}-${Date.now().toString(36)}`;
  const env = {
    TEMPORAL_ADDRESS: ctx.temporal,
    PLAT_DATA_DIR: dataDir,
    PLAT_TASK_QUEUE: queue,
    PLAT_WORKER_SLOTS: SLOTS,
    ANTHROPIC_API_KEY: 'bench-fake-key',
    ANTHROPIC_BASE_URL: ctx.fakeUrl,
    // info: the bench waits for each worker's 'worker polling' line.
    LOG_LEVEL: 'info',
  };
  const deps = await dataDirDeps(dataDir);
  const procs = [];
  for (let i = 0; i < workers; i++)
    procs.push(
      await startWorker(
        { ...env, PLAT_WORKER_METRICS_PORT: String(await freePort()) },
        path.join(ctx.scratch, `worker-${workers}-${i}.log`),
      ),
    );
  const connection = await Connection.connect({ address: ctx.temporal });
  const client = new Client({ connection });
  try {
    const started = Date.now();
    const ids = Array.from(
      { length: PROJECTS },
      (_, n) => `proj-20261125-fleet${workers}x${n}${Date.now().toString(36)}`,
    );
    const runs = ids.map(async (id) => {
      const input: AnalysisProjectInput = {
        project_id: id,
        owner_id: 'bench',
        created_at: new Date().toISOString(),
        description: 'an online shop',
        reuse_ods: false,
        source: {
          jdbc_url: `jdbc:mysql://${ctx.db.host}:${ctx.db.port}/${DB}`,
          username: ctx.db.user,
          password_ref: await deps.secrets.put(`projects/${id}/db-password`, ctx.db.password),
        },
      };
      const handle = await client.workflow.start(analysisProject, {
        taskQueue: queue,
        workflowId: id,
        args: [input],
      });
      while ((await handle.query(statusQuery)).status !== 'waiting_approval')
        await new Promise((r) => setTimeout(r, 100));
      await handle.signal(approveSignal);
      const view = await handle.result();
      if (view.status !== 'completed') throw new Error(`${id} ended ${view.status}: ${view.message}`);
    });
    await Promise.all(runs);
    const seconds = (Date.now() - started) / 1000;
    return {
      workers,
      seconds,
      perMinute: (PROJECTS * 60) / seconds,
      waits: await historyWaits(client, ids, queue),
    };
  } finally {
    await connection.close();
    for (const p of procs) p.child.kill('SIGTERM');
    await Promise.all(
      procs.map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)))),
    );
  }
}

async function main(): Promise<void> {
  console.log(machineLine());
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-fleet-'));
  const started = await Promise.allSettled([
    freePort().then((port) => startTemporalDevServer({ port, logFile: path.join(scratch, 'temporal.log') })),
    freePort().then((port) =>
      startPrivateMariaDb({
        dataDir: path.join(repoRoot, '.data', 'bench', 'mariadb-fleet'),
        port,
        logFile: path.join(scratch, 'mariadb.log'),
      }),
    ),
  ]);
  const [temporal, db] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined)) as [
    Awaited<ReturnType<typeof startTemporalDevServer>> | undefined,
    MariaDbInstance | undefined,
  ];
  if (!temporal || !db) {
    // One started, the other did not: stop the one that did rather than leave it running.
    await temporal?.service.stop();
    await db?.service.stop();
    throw started.find((s) => s.status === 'rejected')!.reason;
  }
  try {
    await createSource(db);
    const prd = await modelPrd(db);
    const fake = await startMessagesFake(
      [
        () => ({
          stop_reason: 'end_turn',
          usage: { input_tokens: 4000, output_tokens: 2500 },
          content: [{ type: 'text', text: prd }],
        }),
      ],
      { latencyMs: LATENCY_MS, cycle: true },
    );
    try {
      const ctx = { temporal: temporal.address, db, fakeUrl: fake.baseURL, scratch };
      console.log(
        `${PROJECTS} projects per round; model answers after ${LATENCY_MS} ms; slots per worker ${SLOTS}\n`,
      );
      const one = await round(1, ctx);
      const three = await round(3, ctx);
      const queues = [...new Set([...Object.keys(one.waits), ...Object.keys(three.waits)])].sort();
      console.log(
        table(
          ['workers', 'seconds', 'projects/min', ...queues.map((q) => `p95 wait ${q}`)],
          [one, three].map((r) => [
            String(r.workers),
            r.seconds.toFixed(1),
            r.perMinute.toFixed(1),
            ...queues.map((q) => (r.waits[q] ? `${(percentile(r.waits[q], 95) / 1000).toFixed(2)} s` : '-')),
          ]),
        ),
      );
      const speedup = three.perMinute / one.perMinute;
      console.log(
        `\nthree workers / one: ${ratio(three.perMinute, one.perMinute)}   target >= ${TARGET}x: ${speedup >= TARGET ? 'met' : 'NOT met'}`,
      );
      console.log(`model calls answered: ${fake.requests.length}`);
    } finally {
      await fake.close();
    }
  } finally {
    await temporal.service.stop();
    await db.service.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
