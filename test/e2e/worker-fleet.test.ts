/**
 * A worker fleet (docs/fleet.md#task-queues): one Temporal server, one shared PostgreSQL, three
 * workers each on its own data directory (three "hosts", one of them serving only some workloads)
 * and two gateways, as real processes. Thirty projects on generated databases run to the end while
 * one host is killed (SIGKILL) in the middle of a copy and another is drained (SIGTERM) and started
 * again. Every project completes with exactly its source's rows, none fails on a missing file, the
 * projects of the killed host move to another host and say so, and every `/query` answers through
 * either gateway, whichever host holds the files.
 */
import mysql, { type RowDataPacket } from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort } from '../../shared/free-port';
import { apiCaller } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import { newTestDataDir } from '../harness/platform-gateway';
import { freshPostgresDatabase } from '../harness/postgres';
import { startProcess, type Proc } from '../harness/processes';

const PROJECTS = 30;
/**
 * The generated sources: `orders` rows of each. The first is copied for seconds (about 4 at the
 * copies' pace, PLAT_INGEST_MAX_ROWS_PER_SECOND below), on any machine, so its host dies mid-copy.
 */
const SOURCES = [100_000, 900, 1_500, 2_400, 3_100, 4_700].map((orders, i) => ({
  db: `fleet_src_${i}`,
  orders,
}));

type Counts = Record<string, number>;

async function createSource(db: string, orders: number): Promise<Counts> {
  const { host, port, user, password } = harness().mariadb;
  const conn = await mysql.createConnection({ host, port, user, password, multipleStatements: true });
  try {
    const customers = 50 + (orders % 700);
    await conn.query(`DROP DATABASE IF EXISTS ${db}; CREATE DATABASE ${db}; USE ${db}`);
    await conn.query(`CREATE TABLE customers (customer_id INT NOT NULL PRIMARY KEY, name VARCHAR(60) NOT NULL,
      region VARCHAR(20) NOT NULL, joined_on DATE NOT NULL)`);
    await conn.query(`CREATE TABLE orders (order_id BIGINT NOT NULL PRIMARY KEY, customer_id INT NOT NULL,
      amount DECIMAL(12,2) NOT NULL, status ENUM('new','paid','shipped') NOT NULL, ordered_at DATETIME NOT NULL,
      FOREIGN KEY (customer_id) REFERENCES customers (customer_id))`);
    await conn.query(`INSERT INTO customers SELECT seq, CONCAT('customer ', seq), ELT(1 + seq % 3, 'north', 'south', 'east'),
      DATE('2023-01-01') + INTERVAL seq % 700 DAY FROM seq_1_to_${customers}`);
    for (let from = 1; from <= orders; from += 200_000) {
      await conn.query(`INSERT INTO orders SELECT seq, 1 + seq % ${customers}, 1 + (seq * 37 % 9000) / 100,
        ELT(1 + seq % 3, 'new', 'paid', 'shipped'), TIMESTAMP('2024-01-01') + INTERVAL (seq * 53) % 31536000 SECOND
        FROM seq_${from}_to_${Math.min(orders, from + 199_999)}`);
    }
    const counts: Counts = {};
    for (const t of ['customers', 'orders']) {
      const [rows] = await conn.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${t}`);
      counts[t] = Number(rows[0].n);
    }
    return counts;
  } finally {
    await conn.end();
  }
}

describe('a fleet of three workers and two gateways (real processes)', () => {
  const procs: Proc[] = [];
  afterAll(() => {
    for (const p of procs) p.child.kill('SIGKILL');
  });

  it('completes thirty projects while one host is killed and another drained', async () => {
    const counts = await Promise.all(SOURCES.map((s) => createSource(s.db, s.orders)));
    const shared = {
      TEMPORAL_ADDRESS: harness().temporal.address,
      PLAT_METADATA_URL: await freshPostgresDatabase('worker-fleet'),
      PLAT_SECRET_KEY: randomBytes(32).toString('base64'),
      PLAT_TASK_QUEUE: `fleet-${Date.now()}`,
      PLAT_SELF_SIGNUP: 'true',
      // Quick verdicts for a test: a host unseen for 10 s is lost; a drain waits 2 s.
      PLAT_HOST_LOST_AFTER_SECONDS: '10',
      PLAT_WORKER_SHUTDOWN_GRACE_SECONDS: '2',
      // The small sources take a fraction of a second at this pace, the big one about 4 s.
      PLAT_INGEST_MAX_ROWS_PER_SECOND: '25000',
      // One user creates thirty projects within a minute, on both gateways: the fleet-wide limit
      // (20 by default, counted across gateways) is not what this test is about.
      PLAT_PROJECT_CREATES_PER_MINUTE: '60',
    };
    const hostDirs = [newTestDataDir(), newTestDataDir(), newTestDataDir()];
    const startWorker = async (i: number, queues?: string) => {
      const env = {
        ...shared,
        PLAT_DATA_DIR: hostDirs[i],
        PLAT_WORKER_METRICS_PORT: String(await freePort()),
      };
      const proc = startProcess('workers/main.ts', {
        ...env,
        ...(queues ? { PLAT_WORKER_QUEUES: queues } : {}),
      });
      procs.push(proc);
      return Object.assign(proc, { metricsUrl: `http://127.0.0.1:${env.PLAT_WORKER_METRICS_PORT}/metrics` });
    };
    const hostIdOf = async (i: number) => {
      const file = path.join(hostDirs[i], 'host-id');
      for (let t = 0; t < 600 && !fs.existsSync(file); t++) await new Promise((r) => setTimeout(r, 100));
      return fs.readFileSync(file, 'utf8').trim();
    };
    const startGateway = async (dataDir: string) => {
      const port = await freePort();
      procs.push(
        startProcess('gateway/platform/platform-main.ts', {
          ...shared,
          PLAT_DATA_DIR: dataDir,
          PLAT_GATEWAY_PORT: String(port),
        }),
      );
      const base = `http://127.0.0.1:${port}`;
      for (let t = 0; t < 900; t++) {
        if ((await fetch(`${base}/health?deep=1`).catch(() => undefined))?.ok) return base;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`gateway on ${dataDir} never became healthy`);
    };
    const output = () => procs.map((p) => p.output().slice(-4000)).join('\n---\n');
    /** A process's exit, or an error with every process's output after `seconds`. */
    const exitWithin = <T>(exited: Promise<T>, seconds: number, what: string): Promise<T> =>
      Promise.race([
        exited,
        new Promise<never>((_, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`${what} did not exit within ${seconds} s:\n${output()}`)),
            seconds * 1000,
          );
          void exited.finally(() => clearTimeout(timer));
        }),
      ]);

    // Host 3 alone first, so that the first (big) project is certainly copied there.
    const w3 = await startWorker(2);
    const [gatewayA, gatewayB] = [await startGateway(hostDirs[0]), await startGateway(newTestDataDir())];
    const [onA, onB] = [apiCaller(gatewayA), apiCaller(gatewayB)];
    const token = (await onA('POST', '/auth/signup', { username: 'fleet', password: 'fleet-password-1' }))
      .body.id_token as string;
    const { port, user, password } = harness().mariadb;
    const ids: string[] = [];
    const sourceOf = new Map<string, number>();
    const create = async (n: number) => {
      const s = n % SOURCES.length;
      const res = await (n % 2 ? onB : onA)(
        'POST',
        '/v1/projects',
        { jdbc_url: `jdbc:mysql://127.0.0.1:${port}/${SOURCES[s].db}`, username: user, password },
        token,
      );
      expect(res.status).toBe(201);
      ids.push(res.body.project_id as string);
      sourceOf.set(res.body.project_id as string, s);
    };
    const view = async (id: string) =>
      (await onA('GET', `/v1/projects/${id}`, undefined, token)).body as Record<string, unknown> & {
        warehouse?: { host?: string };
      };
    // One list call per poll rather than a call per project: thirty projects polled four times a
    // second made the gateway, PostgreSQL and this process spend tens of seconds of CPU on answering.
    const statuses = async (status?: string) => {
      const query = status ? `?status=${status}&limit=100` : '?limit=100';
      const { projects } = (await onA('GET', `/v1/projects${query}`, undefined, token)).body as {
        projects: { project_id: string; status: string }[];
      };
      return new Map(projects.map((p) => [p.project_id, p.status]));
    };
    const approved = new Set<string>();
    const approveWaiting = async () => {
      for (const id of (await statuses('waiting_approval')).keys()) {
        if (approved.has(id)) continue;
        expect((await onB('POST', `/v1/projects/${id}/hitl/approve`, undefined, token)).status).toBe(200);
        approved.add(id);
      }
    };
    const until = async <T>(what: string, probe: () => Promise<T | undefined>, seconds = 300): Promise<T> => {
      for (let t = 0; t < seconds * 4; t++) {
        await approveWaiting();
        const found = await probe();
        if (found !== undefined) return found;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`never ${what}:\n${output()}`);
    };

    await create(0);
    const host3 = await hostIdOf(2);
    await until('the big copy under way on host 3', async () => {
      const v = await view(ids[0]);
      const w = v.warehouse as { host?: string } | undefined;
      return w?.host === host3 && (v.phases as Record<string, string>).data_ingestion === 'running'
        ? true
        : undefined;
    });

    // Hosts 1 (every workload) and 2 (no agents, no operations) join; host 3 dies mid-copy.
    const w1 = await startWorker(0);
    const w2 = await startWorker(1, 'workflows,ingestion,warehouse');
    w3.child.kill('SIGKILL');
    await exitWithin(w3.exited, 30, 'host 3 after SIGKILL');
    for (let n = 1; n < PROJECTS; n++) await create(n);
    const [host1, host2] = [await hostIdOf(0), await hostIdOf(1)];

    // Host 2 is drained while it holds projects, and started again (a deploy).
    await until('a project on host 2', async () => {
      for (const id of ids) if ((await view(id)).warehouse?.host === host2) return true;
      return undefined;
    });
    w2.child.kill('SIGTERM');
    // Its grace time is 2 s: a drain that never ends fails here with the processes' output, not at
    // jest's timeout without it.
    expect(await exitWithin(w2.exited, 120, 'host 2 after its drain (SIGTERM)')).toBe(0);
    await startWorker(1, 'workflows,ingestion,warehouse');

    const finished = await until(
      'every project finished',
      async () => {
        const now = await statuses();
        if (!ids.every((id) => ['completed', 'failed', 'cancelled'].includes(now.get(id) ?? '')))
          return undefined;
        return Promise.all(ids.map(view));
      },
      600,
    );
    const failed = finished.filter((v) => v.status !== 'completed');
    expect(failed.map((v) => [v.project_id, v.status, (v.error as { message?: string })?.message])).toEqual(
      [],
    );

    // Exact rows everywhere; the killed host's project moved, saying so.
    const hosts = finished.map((v) => (v.warehouse as { host: string }).host);
    // (Host 2 held projects before its drain; if its restart outlasted the loss timeout, a busy
    // machine's case, they moved to host 1, which is as correct.)
    expect(hosts.filter((h) => h !== host1 && h !== host2)).toEqual([]);
    for (const v of finished) {
      const expected = counts[sourceOf.get(v.project_id as string)!];
      const ods = (
        v.warehouse as { ods: { tables: { table: string; source_rows: number; ods_rows: number }[] } }
      ).ods;
      expect([
        v.project_id,
        Object.fromEntries(ods.tables.map((t) => [t.table, [t.source_rows, t.ods_rows]])),
      ]).toEqual([
        v.project_id,
        { customers: [expected.customers, expected.customers], orders: [expected.orders, expected.orders] },
      ]);
    }
    const events = (await onA('GET', `/v1/projects/${ids[0]}/events`, undefined, token)).body.events as {
      message: string;
      payload?: { host_lost?: string };
    }[];
    expect(events.find((e) => e.payload?.host_lost === host3)?.message).toMatch(
      /copying the source again on another host$/,
    );
    // No stage of any project ever failed on a missing file.
    for (const id of ids) {
      const { stages } = (await onB('GET', `/v1/projects/${id}/stages`, undefined, token)).body as {
        stages: { last_failure?: string }[];
      };
      for (const s of stages) expect(s.last_failure ?? '').not.toMatch(/ENOENT|no such file|does not exist/i);
    }

    // Every /query answers through either gateway: gateway A shares host 1's directory, B no host's.
    for (const id of ids) {
      const expected = counts[sourceOf.get(id)!].orders;
      for (const call of [onA, onB]) {
        const res = await call(
          'POST',
          `/v1/projects/${id}/query`,
          { sql: 'SELECT COUNT(*) AS n FROM ods_orders' },
          token,
        );
        expect([id, res.status, Number((res.body.rows as { n: unknown }[])?.[0]?.n)]).toEqual([
          id,
          200,
          expected,
        ]);
      }
    }

    // Each worker's /metrics carries the SDK's own metrics beside plat's: waits per task queue.
    const metrics = await (await fetch(w1.metricsUrl)).text();
    expect(metrics).toContain('plat_projects_finished_total');
    expect(metrics).toMatch(
      new RegExp(
        `temporal_activity_schedule_to_start_latency_bucket\\{[^}]*task_queue="${shared.PLAT_TASK_QUEUE}-host-${host1}"`,
      ),
    );
  }, 900_000);
});
