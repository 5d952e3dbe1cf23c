/**
 * A hostile tenant, through the public API of a running stack (real gateway, worker, dev server,
 * the harness's Sakila): PRD edits that try to read or write host files are refused naming the
 * field, and `/query` reaches nothing outside the caller's own project (docs/security.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dataDirDeps } from '../../workers/platform-activities';
import { loadConfig } from '../../shared/config';
import { apiCaller } from '../harness/api-caller';
import { childrenOf, isAlive } from '../harness/process-lookup';
import { harness } from '../harness/harness-state';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';

const TASK_QUEUE = 'security-prd-query';
const LOW_WAREHOUSE_MEMORY = { PLAT_WAREHOUSE_MEMORY_LIMIT: '256MB', PLAT_WAREHOUSE_PROCESS_MEMORY: '768MB' };

interface Field {
  name: string;
  type: string;
  source: string;
}
interface Prd {
  layers: Record<'ods' | 'dwd' | 'dws' | 'ads', { name: string; fields: Field[] }[]>;
}

describe('a hostile tenant: PRD fields and queries', () => {
  let stack: DevServerWithWorker;
  let gateway: TestGateway;
  let dataDir: string;
  let token: string;
  let otherToken: string;
  let projectId: string;
  let otherProjectId: string;
  /** The gateway's ID-token signing key: what an attacker wants most. */
  let keyFile: string;
  let secretText: string;
  const call = apiCaller(() => gateway.base);
  /**
   * Warehouse children of this jest process that an earlier test file left (a jest worker runs many
   * files): not this file's gateway's or worker's, and possibly busy with that file's work.
   */
  let earlierFilesChildren = new Set<number>();

  beforeAll(async () => {
    earlierFilesChildren = new Set(childrenOf(process.pid, 'warehouse-child-main'));
    dataDir = newTestDataDir();
    // The worker's (and the gateway's) warehouse children are limited low enough for a bomb to
    // reach the limit quickly.
    stack = await devServerWithPlatformWorker(
      TASK_QUEUE,
      await dataDirDeps(dataDir, { warehouse: loadConfig(LOW_WAREHOUSE_MEMORY) }),
    );
    gateway = await startTestGateway({
      client: stack.env.client,
      taskQueue: TASK_QUEUE,
      dataDir,
      env: LOW_WAREHOUSE_MEMORY,
    });
    token = (await call('POST', '/auth/signup', { username: 'mallory', password: 'correct horse' })).body
      .id_token as string;
    otherToken = (await call('POST', '/auth/signup', { username: 'victim', password: 'battery staple' })).body
      .id_token as string;
    keyFile = path.join(dataDir, 'keys', 'id-token-es256.jwk.json');
    secretText = (JSON.parse(fs.readFileSync(keyFile, 'utf8')) as { d: string }).d;
    projectId = await create(token);
    otherProjectId = await create(otherToken);
  });
  afterAll(async () => {
    await gateway?.stop();
    await stack?.stop();
  });

  async function create(as: string): Promise<string> {
    const { host, port, user, password } = harness().mariadb;
    const res = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: `jdbc:mysql://${host}:${port}/sakila`, username: user, password },
      as,
    );
    expect(res.status).toBe(201);
    return res.body.project_id as string;
  }

  async function until(id: string, as: string, status: string) {
    for (let i = 0; i < 600; i++) {
      const res = await call('GET', `/v1/projects/${id}`, undefined, as);
      if (res.body.status === status) return res.body;
      if (['failed', 'terminated', 'cancelled'].includes(res.body.status as string))
        throw new Error(`project ${id} ended ${String(res.body.status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`project ${id} never became ${status}`);
  }

  /** The PRD with one DWD field changed. */
  const edited = (prd: Prd, change: Partial<Field>): Prd => {
    const copy = structuredClone(prd);
    Object.assign(copy.layers.dwd[0].fields[0], change);
    return copy;
  };

  it('refuses PRD edits that smuggle SQL into a type or a source, naming the field, and runs none of it', async () => {
    const prd = (await until(projectId, token, 'waiting_approval')).prd as Prd;
    const written = path.join(dataDir, 'pwned.csv');
    const attempts: Partial<Field>[] = [
      { source: `(SELECT content FROM read_text('${keyFile}'))` },
      { source: `read_text('${keyFile}')` },
      { source: "current_setting('temp_directory')" },
      { source: `rental.rental_date) AS x, (SELECT content FROM read_text('${keyFile}')) --` },
      { type: `INTEGER); COPY (SELECT 1) TO '${written}'; SELECT CAST(1 AS INTEGER` },
      { type: `VARCHAR) AS x FROM read_text('${keyFile}') --` },
      { source: `1; COPY (SELECT 1) TO '${written}'` },
      // A value built past its bound, in a field.
      { source: "lpad('x', 1000000000, 'y')" },
      { source: "lpad('x', rental.rental_id, 'y')" },
    ];
    for (const change of attempts) {
      const res = await call('POST', `/v1/projects/${projectId}/hitl/modify`, edited(prd, change), token);
      expect(res.status).toBe(422);
      const part = 'type' in change ? 'type' : 'source';
      expect(res.body.error).toMatchObject({
        code: 'invalid_prd',
        details: expect.arrayContaining([
          expect.objectContaining({ field: `layers.dwd.0.fields.0.${part}` }),
        ]),
      });
      expect(JSON.stringify(res.body)).not.toContain(secretText);
    }
    expect(fs.existsSync(written)).toBe(false);
    // Metric SQL is data too: one that would reach logging (and once aborted the worker running
    // it) or build gigabytes is refused at modify, naming the metric.
    const metrics = (prd as unknown as { metrics: { name: string; sql: string }[] }).metrics;
    for (const sql of [
      "SELECT * FROM enable_logging(level='trace', storage='file', storage_path='/nonexistent/x')",
      'SELECT 1 AS stat_date, len(range(20000000)) AS value',
      "SELECT stat_date, len(repeat('x', 1000000000)) AS value FROM ads_payment_kpi_daily",
      "SELECT current_setting('allowed_directories') AS value",
    ]) {
      const bad = structuredClone(prd) as unknown as { metrics: { sql: string }[] };
      bad.metrics[1].sql = sql;
      const res = await call('POST', `/v1/projects/${projectId}/hitl/modify`, bad, token);
      expect({ sql, status: res.status }).toEqual({ sql, status: 422 });
      expect(res.body.error).toMatchObject({
        code: 'invalid_prd',
        details: [
          expect.objectContaining({
            field: 'metrics.1.sql',
            message: expect.stringContaining(metrics[1].name),
          }),
        ],
      });
    }
    expect((await call('GET', `/v1/projects/${projectId}`, undefined, token)).body.status).toBe(
      'waiting_approval',
    );
  });

  it('builds an ordinary edit, and its queries reach only the project’s own files', async () => {
    const prd = (await until(projectId, token, 'waiting_approval')).prd as Prd;
    const approved = await call('POST', `/v1/projects/${projectId}/hitl/modify`, prd, token);
    expect(approved.status).toBe(200);
    await until(projectId, token, 'completed');
    // The other tenant's metric passes the check (each range within its bound) and multiplies them
    // through lambdas: its child meets its memory limit, the metric fails alone, the worker goes on.
    const rss = process.memoryUsage().rss;
    const otherPrd = (await until(otherProjectId, otherToken, 'waiting_approval')).prd as unknown as {
      metrics: { name: string; sql: string; ads_table: string }[];
    };
    const bomb = otherPrd.metrics[1];
    bomb.sql = `SELECT stat_date, len(list_transform(range(10000), x -> list_transform(range(10000), y -> range(10000)))) AS value FROM ${bomb.ads_table}`;
    const modified = await call('POST', `/v1/projects/${otherProjectId}/hitl/modify`, otherPrd, otherToken);
    expect(modified.status).toBe(200);
    const done = (await until(otherProjectId, otherToken, 'completed')) as {
      warehouse: { metrics: { invalid: { name: string; reason: string }[]; valid: string[] } };
    };
    expect(done.warehouse.metrics.invalid).toEqual([
      { name: bomb.name, reason: expect.stringMatching(/^does not run: Out of Memory/) },
    ]);
    expect(done.warehouse.metrics.valid.length).toBeGreaterThan(0);
    expect(process.memoryUsage().rss - rss).toBeLessThan(300 * 1024 ** 2);

    const query = (sql: string, as = token, id = projectId) =>
      call('POST', `/v1/projects/${id}/query`, { sql, layer: 'ods' }, as);
    const otherOds = path.join(dataDir, 'warehouse', otherProjectId, 'ods');
    const otherParquet = fs
      .readdirSync(otherOds, { recursive: true })
      .map(String)
      .find((f) => f.endsWith('.parquet'))!;
    const ownDir = path.join(dataDir, 'warehouse', projectId);
    const reads = [
      `SELECT content FROM read_text('${keyFile}')`,
      `SELECT * FROM read_text('${ownDir}/../../keys/id-token-es256.jwk.json')`,
      `SELECT * FROM read_parquet('${path.join(otherOds, otherParquet)}')`,
      `SELECT * FROM glob('${dataDir}/**')`,
      `SELECT * FROM glob('${path.join(dataDir, 'warehouse', '.spill')}/*')`,
      "SELECT * FROM read_csv('/etc/passwd')",
      `ATTACH '${path.join(otherOds, '..', 'x.duckdb')}' AS x`,
      `COPY (SELECT 1) TO '${path.join(dataDir, 'pwned.csv')}'`,
      'SET enable_external_access = true',
      "SELECT * FROM duckdb_settings() WHERE name = 'x'; SELECT 1",
    ];
    for (const sql of reads) {
      const res = await query(sql);
      expect({ sql, status: res.status }).toEqual({ sql, status: 400 });
      expect(JSON.stringify(res.body)).not.toContain(secretText);
    }
    // Its own data answers; the other tenant's project is not there at all.
    expect((await query('SELECT COUNT(*) AS n FROM ods_payment')).body).toMatchObject({
      rows: [{ n: '16044' }],
    });
    expect((await query('SELECT 1', token, otherProjectId)).status).toBe(404);
    // An answer weighs at most 1.5 MB of rows, however many the caller asked for.
    const heavy = await call(
      'POST',
      `/v1/projects/${projectId}/query`,
      { sql: "SELECT repeat('x', 10000) AS s FROM range(1000)", max_rows: 1000 },
      token,
    );
    expect(heavy.status).toBe(200);
    expect(heavy.body).toMatchObject({ truncated: true });
    expect(heavy.body.row_count).toBeLessThan(151);
    expect(JSON.stringify(heavy.body).length).toBeLessThan(1_600_000);
    // The session's settings can be neither read nor changed from a query, and no call builds a
    // value of gigabytes (docs/security.md#tenant-sql).
    expect((await query("SELECT current_setting('memory_limit') AS m")).status).toBe(200);
    for (const sql of [
      "SELECT current_setting('allowed_directories') AS m",
      "SELECT * FROM enable_logging(level='trace', storage='file', storage_path='/nonexistent/x')",
      'SELECT len(range(20000000)) AS n',
      'SELECT len(range(2 * 10000 * 1000)) AS n',
      "SELECT len(repeat('x', 1000000000)) AS n",
      "SELECT len(lpad('x', 1000000000, 'y')) AS n",
      "SELECT len(printf('%0999999999d', 1)) AS n",
      "SELECT * FROM query('SELECT 1')",
    ]) {
      const res = await query(sql);
      expect({ sql, status: res.status, code: (res.body.error as { code?: string })?.code }).toEqual({
        sql,
        status: 400,
        code: 'not_allowed',
      });
    }
    expect(fs.existsSync(path.join(dataDir, 'pwned.csv'))).toBe(false);
  });

  it('caps a user’s heavy queries (429 past the cap, 408 at the timeout) while sign-ins keep answering', async () => {
    const finished: string[] = [];
    const heavy = () =>
      call(
        'POST',
        `/v1/projects/${projectId}/query`,
        // Rows generated within their bound, crossed: only time, which the timeout ends.
        { sql: 'SELECT COUNT(*) AS n FROM range(10000000) a, range(10000000) b', timeout_ms: 5_000 },
        token,
      ).then((res) => {
        finished.push(`query ${res.status}`);
        return res.status;
      });
    const queries = [heavy(), heavy(), heavy()];
    // The third of the user's queries is refused at once; the login runs beside the other two.
    const login = call('POST', '/auth/login', { username: 'victim', password: 'battery staple' }).then(
      (res) => {
        finished.push(`login ${res.status}`);
        return res.status;
      },
    );
    expect(await login).toBe(200);
    expect((await Promise.all(queries)).sort()).toEqual([408, 408, 429]);
    expect(finished.indexOf('login 200')).toBeLessThan(finished.indexOf('query 408'));
  });

  it('runs queries in child processes: a memory bomb, an abort and a runaway cost that query alone', async () => {
    const query = (sql: string, timeout_ms = 20_000) =>
      call('POST', `/v1/projects/${projectId}/query`, { sql, layer: 'ods', timeout_ms }, token);
    const warehouseChildren = () =>
      childrenOf(process.pid, 'warehouse-child-main').filter((pid) => !earlierFilesChildren.has(pid));
    expect((await query('SELECT COUNT(*) AS n FROM ods_payment')).status).toBe(200);
    const rssBefore = process.memoryUsage().rss;

    // Each value within its bound, 800 MB together: the child's memory limit ends it, not the host's.
    // The longest deadline a caller may ask: under a full run's load (and a profiler), reaching the
    // limit once took the child past 20 s and the query answered 408 instead.
    const bomb = await query('SELECT len(list_transform(range(10000), x -> range(10000))) AS n', 60_000);
    expect(bomb.status).toBe(400);
    expect(bomb.body.error).toMatchObject({
      code: 'query_failed',
      message: expect.stringMatching(/memory/i),
    });
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 ** 2);

    // A child that aborts (as DuckDB did on a throwing close) fails the query it ran, nothing more.
    const running = query('SELECT COUNT(*) AS n FROM range(10000000) a, range(10000000) b');
    let victims: number[] = [];
    for (let i = 0; i < 200 && victims.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      // The leased child is the one busy on the CPU; kill them all: the query must fail alone.
      victims = warehouseChildren();
    }
    expect(victims.length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    for (const pid of victims) process.kill(pid, 'SIGABRT');
    const aborted = await running;
    expect(aborted.status).toBe(400);
    expect(aborted.body.error).toMatchObject({
      code: 'query_failed',
      message: expect.stringContaining('aborted'),
    });

    // A query past its timeout is stopped, and the child that ran it is not reused: it is killed.
    // Which child ran it is not told outside the pool, and on a loaded machine the CPU each burns
    // does not tell it apart from one starting (both may burn a third of a second in a second). But
    // nothing else ends a child here (no other work runs, none is near its lease limit): one of those
    // alive while the query ran must be gone after its 408.
    for (let i = 0; i < 200 && victims.some(isAlive); i++) await new Promise((r) => setTimeout(r, 50));
    expect(victims.filter(isAlive)).toEqual([]);
    const duringQuery = new Set(warehouseChildren());
    let answered = false;
    const late = query('SELECT COUNT(*) AS n FROM range(10000000) a, range(10000000) b', 2_000).finally(
      () => (answered = true),
    );
    while (!answered) {
      for (const pid of warehouseChildren()) duringQuery.add(pid);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await late).status).toBe(408);
    const gone = () => [...duringQuery].filter((pid) => !isAlive(pid));
    for (let i = 0; i < 100 && gone().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect({ gone: gone().length > 0, duringQuery: [...duringQuery] }).toEqual({
      gone: true,
      duringQuery: [...duringQuery],
    });

    // The same gateway and worker (this process) answer the next query.
    expect((await query('SELECT COUNT(*) AS n FROM ods_payment')).body).toMatchObject({
      rows: [{ n: '16044' }],
    });
  });
});
