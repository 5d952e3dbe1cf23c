/**
 * The projects REST API end to end: real gateway, real worker, dev server, the harness's Sakila.
 */
import { platformDocument } from '../../gateway/api-documents';
import mysql from 'mysql2/promise';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../scripts/lib/tool-paths';
import { metadataDbPath, openMetadataDb } from '../../domain/metadata-store/metadata-db';
import { PHASES } from '../../shared/project-model';
import {
  LEGACY_PHASES_READ,
  insertLegacyProject,
  legacyProjectRecord,
} from '../fixtures/legacy-project-view';
import { signUp } from '../harness/api-caller';
import { harness } from '../harness/harness-state';
import type { TestGateway } from '../harness/platform-gateway';
import { platformStackPerSuite } from '../harness/platform-stack';
import { connectWs } from '../harness/ws-client';

const TASK_QUEUE = 'projects-api-test';

describe('projects API', () => {
  const platform = platformStackPerSuite(TASK_QUEUE, { apiStage: 'prod' });
  const call = platform.call;
  let token: string;
  let otherToken: string;
  /** The project the first test builds, which later ones read. */
  let completedId: string;
  const sakilaUrl = () =>
    `jdbc:mysql://${harness().mariadb.host}:${harness().mariadb.port}/sakila?useSSL=false`;

  beforeAll(async () => {
    token = await signUp(call, 'ana', 'correct horse');
    otherToken = await signUp(call, 'bob', 'battery staple');
  });

  async function create(): Promise<string> {
    const { user, password } = harness().mariadb;
    const res = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: sakilaUrl(), username: user, password, description: 'video rental chain' },
      token,
    );
    expect(res.status).toBe(201);
    return res.body.project_id as string;
  }

  async function until(projectId: string, status: string) {
    for (let i = 0; i < 300; i++) {
      const res = await call('GET', `/v1/projects/${projectId}`, undefined, token);
      if (res.body.status === status) return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`project ${projectId} never became ${status}`);
  }

  it('requires a valid token on every project route', async () => {
    expect((await call('GET', '/v1/projects')).status).toBe(401);
    const bad = await call('GET', '/v1/projects', undefined, 'not-a-jwt');
    expect(bad.status).toBe(401);
    expect((bad.body.error as { code: string }).code).toBe('invalid_token');
    expect((await call('POST', '/auth/login', { username: 'ana', password: 'wrong password' })).status).toBe(
      401,
    );
    const login = await call('POST', '/auth/login', { username: 'ana', password: 'correct horse' });
    expect(login.status).toBe(200);
    // The user's id comes with the token: the subject it signs, which the memory service's user_id is.
    const subject = JSON.parse(
      Buffer.from((login.body.id_token as string).split('.')[1], 'base64url').toString(),
    ) as { sub: string };
    expect(login.body.user_id).toBe(subject.sub);
  });

  it('answers 400 naming the field for malformed input', async () => {
    const res = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: 'mysql://nope', password: 'x', colour: 'blue' },
      token,
    );
    expect(res.status).toBe(400);
    const fields = (res.body.error as { details: { field: string }[] }).details.map((d) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['jdbc_url', 'username', 'colour']));
  });

  it('answers 422 with the driver reason for a wrong password, and creates nothing', async () => {
    const res = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: sakilaUrl(), username: harness().mariadb.user, password: 'wrong' },
      token,
    );
    expect(res.status).toBe(422);
    expect((res.body.error as { message: string }).message).toMatch(/Access denied/);
    const unreachable = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: 'jdbc:mysql://127.0.0.1:1/sakila', username: 'u', password: 'p' },
      token,
    );
    expect(unreachable.status).toBe(422);
    expect((unreachable.body.error as { message: string }).message).toMatch(/ECONNREFUSED/);
    // Reachable, but nothing to analyse: said at once rather than by a failed PRD stage.
    const { host, port, user, password } = harness().mariadb;
    for (const database of ['information_schema', 'mysql_empty_for_plat']) {
      const admin = await mysql.createConnection({ host, port, user, password });
      await admin.query('CREATE DATABASE IF NOT EXISTS mysql_empty_for_plat');
      await admin.end();
      const empty = await call(
        'POST',
        '/v1/projects',
        { jdbc_url: `jdbc:mysql://${host}:${port}/${database}`, username: user, password },
        token,
      );
      expect(empty.status).toBe(422);
      expect(empty.body.error).toMatchObject({
        code: 'source_empty',
        message: expect.stringContaining(`database ${database} has no tables this account can read`),
      });
    }
    expect((await call('GET', '/v1/projects', undefined, token)).body.total).toBe(0);
  });

  it('create → PRD → approve over REST → completed; visible only to its owner', async () => {
    const id = await create();
    expect(id).toMatch(/^proj-\d{8}-[a-f0-9]{8}$/);
    const waiting = await until(id, 'waiting_approval');
    expect((waiting.prd as { industry: { name: string } }).industry.name).toBe('DVD rental / retail');
    expect((await call('GET', `/v1/projects/${id}`, undefined, otherToken)).status).toBe(404);
    expect((await call('POST', `/v1/projects/${id}/hitl/approve`, undefined, otherToken)).status).toBe(404);

    const approved = await call('POST', `/projects/${id}/hitl/approve`, undefined, token);
    expect(approved).toEqual({
      status: 200,
      body: { project_id: id, decision: 'approve', status: 'running' },
    });
    const done = await until(id, 'completed');
    // `phases`: one status string per phase; `phase_details`: when each ran and what it said.
    expect(Object.keys(done.phases as object)).toEqual([...PHASES]);
    const phases = done.phases as Record<string, unknown>;
    const details = done.phase_details as Record<string, Record<string, unknown>>;
    for (const phase of PHASES) {
      expect(phases[phase]).toBe('completed');
      expect(details[phase]).toEqual({
        started_at: expect.any(String),
        ended_at: expect.any(String),
        message: expect.any(String),
      });
      expect(Date.parse(details[phase].ended_at as string)).toBeGreaterThanOrEqual(
        Date.parse(details[phase].started_at as string),
      );
    }
    const again = await call('POST', `/prod/v1/projects/${id}/hitl/approve`, undefined, token);
    expect(again.status).toBe(409);

    // SQL access to the built ODS layer: read-only, confined to the project's files.
    const q = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: 'SELECT COUNT(*) AS n, CAST(SUM(amount) AS VARCHAR) AS total FROM ods_payment' },
      token,
    );
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ rows: [{ n: '16044', total: '67406.56' }], truncated: false });
    expect(q.body.database).toBe(`plat_${id.replace(/-/g, '_')}_ods`);
    const capped = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: 'SELECT * FROM ods_rental', max_rows: 5 },
      token,
    );
    expect(capped.body).toMatchObject({ row_count: 5, truncated: true });
    const write = await call('POST', `/v1/projects/${id}/query`, { sql: 'DELETE FROM ods_payment' }, token);
    expect(write.status).toBe(400);
    const escape = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: "SELECT * FROM read_csv('/etc/passwd')" },
      token,
    );
    expect(escape.status).toBe(400);
    expect((await call('POST', `/v1/projects/${id}/query`, { sql: 'SELECT 1' }, otherToken)).status).toBe(
      404,
    );
    // Every layer is queryable; unqualified names resolve in the layer asked for, others by full name.
    const ads = await call(
      'POST',
      `/v1/projects/${id}/query`,
      {
        sql: `SELECT CAST(SUM(a.total_amount) AS VARCHAR) AS total, (SELECT COUNT(*) FROM plat_${id.replace(/-/g, '_')}_dwd.dwd_rental_detail) AS rentals FROM ads_payment_kpi_daily a`,
        layer: 'ads',
      },
      token,
    );
    expect(ads.body).toMatchObject({ rows: [{ total: '67406.56', rentals: '16044' }] });

    // The stages' reports, each through its own route.
    const scripts = await call('GET', `/v1/projects/${id}/scripts`, undefined, token);
    const dwd = (scripts.body.layers as { layer: string; script: string }[]).find((l) => l.layer === 'dwd')!;
    expect(dwd.script).toContain('CREATE TABLE');
    const quality = await call('GET', `/v1/projects/${id}/quality`, undefined, token);
    expect(quality.body).toMatchObject({ blocking_failed: [], rules_errored: 0 });
    const stale = (quality.body.results as { kind: string; status: string; message: string }[]).find(
      (r) => r.kind === 'freshness',
    )!;
    expect(stale).toMatchObject({ status: 'failed', message: expect.stringMatching(/latest .* days old/) });
    const catalog = await call('GET', `/v1/projects/${id}/catalog`, undefined, token);
    expect(catalog.body.lineage).toEqual(
      expect.arrayContaining([
        { from: 'mysql:sakila.rental', to: `plat_${id.replace(/-/g, '_')}_ods.ods_rental` },
      ]),
    );
    const metrics = await call('GET', `/v1/projects/${id}/metrics`, undefined, token);
    expect((metrics.body.results as { valid: boolean }[]).every((m) => m.valid)).toBe(true);
    const dashboards = await call('GET', `/v1/projects/${id}/dashboards`, undefined, token);
    expect(dashboards.body.url).toBe(
      (await call('GET', `/v1/projects/${id}`, undefined, token)).body.bi_dashboard_url,
    );
    expect((await call('GET', `/v1/projects/${id}/quality`, undefined, otherToken)).status).toBe(404);

    const logs = await call('GET', `/v1/projects/${id}/agent-logs`, undefined, token);
    expect((logs.body.entries as { tool: string }[]).map((e) => e.tool)).toEqual(
      expect.arrayContaining(['list_tables', 'describe_table', 'sample_rows']),
    );
    const list = await call('GET', '/v1/projects?limit=5', undefined, token);
    expect((list.body.projects as { project_id: string }[])[0].project_id).toBe(id);
    expect((await call('GET', '/v1/projects', undefined, otherToken)).body.total).toBe(0);
    // Filtered by status: only the statuses asked for, counted the same way.
    const completed = (await call('GET', '/v1/projects?status=completed,failed', undefined, token)).body;
    const statuses = (completed.projects as { status: string }[]).map((p) => p.status);
    expect(statuses.length).toBe(completed.total);
    expect(statuses.every((s) => s === 'completed' || s === 'failed')).toBe(true);
    expect(statuses.length).toBeGreaterThan(0);
    const running = (await call('GET', '/v1/projects?status=running', undefined, token)).body;
    expect((running.projects as { project_id: string }[]).map((p) => p.project_id)).not.toContain(id);
    expect((await call('GET', '/v1/projects?status=done', undefined, token)).status).toBe(400);
    // Whole numbers in decimal digits: not an empty value, a blank, hex or an exponent.
    for (const query of ['limit=', 'limit=%20', 'limit=0x10', 'offset=1e3', 'limit=5&limit=6', 'offset=-1'])
      expect([query, (await call('GET', `/v1/projects?${query}`, undefined, token)).status]).toEqual([
        query,
        400,
      ]);
    expect((await call('GET', `/v1/projects/${id}/events?since=`, undefined, token)).status).toBe(400);
    const since = await call('GET', `/v1/projects/${id}/events?since=0003`, undefined, token);
    expect((since.body.events as { event_id: number }[])[0].event_id).toBe(4);
    completedId = id;
  });

  /** The project's refreshes once the run `refreshId` has ended (polled for up to a minute). */
  async function refreshesWhenEnded(id: string, refreshId: string): Promise<Record<string, unknown>> {
    let state: Record<string, unknown> = {};
    for (let i = 0; i < 600; i++) {
      state = (await call('GET', `/v1/projects/${id}/refreshes`, undefined, token)).body;
      const last = state.last as { refresh_id?: string; status?: string } | null;
      if (last?.refresh_id === refreshId && last.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return state;
  }

  it('refreshes a completed project for its owner only, and shows how fresh it is', async () => {
    const id = completedId;
    const before = await call('GET', `/v1/projects/${id}/refreshes`, undefined, token);
    expect(before.body).toMatchObject({ project_id: id, last: null, history: [], as_of: expect.any(String) });
    expect((await call('POST', `/v1/projects/${id}/refresh`, undefined, otherToken)).status).toBe(404);
    expect((await call('GET', `/v1/projects/${id}/refreshes`, undefined, otherToken)).status).toBe(404);
    const started = await call('POST', `/v1/projects/${id}/refresh`, undefined, token);
    expect(started).toEqual({
      status: 202,
      body: {
        project_id: id,
        refresh_id: expect.stringMatching(new RegExp(`^${id}-refresh-`)),
        status: 'started',
      },
    });
    const state = await refreshesWhenEnded(id, started.body.refresh_id as string);
    const last = state.last as {
      refresh_id: string;
      tables: { table: string; read: string; rows_after: number }[];
    };
    expect(last).toMatchObject({
      refresh_id: started.body.refresh_id,
      status: 'completed',
      trigger: 'manual',
    });
    // Sakila keeps a stamp on every change: nothing changed, so nothing but the keys is read.
    expect(last.tables.find((t) => t.table === 'rental')).toMatchObject({
      read: 'changes',
      rows_after: 16044,
    });
    expect(state.as_of).toBe((last as unknown as { source_as_of: string }).source_as_of);
    // The numbers are the same as before the refresh.
    const ads = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: 'SELECT CAST(SUM(total_amount) AS VARCHAR) AS total FROM ads_payment_kpi_daily', layer: 'ads' },
      token,
    );
    expect(ads.body).toMatchObject({ rows: [{ total: '67406.56' }] });
  });

  it('backfills a range of days for its owner only, and refuses what is no range of days', async () => {
    const id = completedId;
    const range = { from: '2005-05-24', to: '2005-06-30' };
    expect((await call('POST', `/v1/projects/${id}/backfill`, range, otherToken)).status).toBe(404);
    for (const [body, status] of [
      [{}, 400],
      [{ from: "2005-05-24' OR '1'='1", to: '2005-06-30' }, 400],
      [{ from: '2005-5-24', to: '2005-06-30' }, 400],
      [{ ...range, layer: 'ads' }, 400],
      [{ from: '2005-02-30', to: '2005-03-01' }, 422],
      [{ from: '2005-06-30', to: '2005-05-24' }, 422],
      [{ from: '1990-01-01', to: '2030-01-01' }, 422],
    ] as const)
      expect([body, (await call('POST', `/v1/projects/${id}/backfill`, body, token)).status]).toEqual([
        body,
        status,
      ]);
    const started = await call('POST', `/v1/projects/${id}/backfill`, range, token);
    expect(started).toMatchObject({
      status: 202,
      body: { refresh_id: expect.stringMatching(new RegExp(`^${id}-backfill-`)), status: 'started' },
    });
    const state = await refreshesWhenEnded(id, started.body.refresh_id as string);
    const last = state.last as { tables: { read: string }[] };
    expect(last).toMatchObject({ status: 'completed', trigger: 'backfill', range });
    expect(last.tables.every((t) => t.read === 'whole')).toBe(true);
    const ads = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: 'SELECT CAST(SUM(total_amount) AS VARCHAR) AS total FROM ads_payment_kpi_daily', layer: 'ads' },
      token,
    );
    expect(ads.body).toMatchObject({ rows: [{ total: '67406.56' }] });
  });

  it("reuse_ods: a new project on the same source reuses the caller's completed ODS, not another user's", async () => {
    const { user, password } = harness().mariadb;
    const body = { jdbc_url: sakilaUrl(), username: user, password, description: 'again', reuse_ods: true };
    const mine = await call('POST', '/v1/projects', body, token);
    expect(mine.status).toBe(201);
    const id = mine.body.project_id as string;
    await until(id, 'waiting_approval');
    await call('POST', `/v1/projects/${id}/hitl/approve`, undefined, token);
    const done = await until(id, 'completed');
    const ods = (done.warehouse as { ods: Record<string, unknown> }).ods;
    expect(ods.reused_from).toMatchObject({ project_id: expect.stringMatching(/^proj-/) });
    expect(ods.rows_copied).toBe(47_268);
    const details = done.phase_details as Record<string, { message: string }>;
    expect(details.data_ingestion.message).toContain(
      `reused from ${(ods.reused_from as { project_id: string }).project_id}`,
    );
    // Nothing was read from the source: no per-table copy log.
    const events = await call('GET', `/v1/projects/${id}/events`, undefined, token);
    const copies = (events.body.events as { message: string }[]).filter((e) => /^copied /.test(e.message));
    expect(copies).toEqual([]);
    const q = await call(
      'POST',
      `/v1/projects/${id}/query`,
      { sql: 'SELECT COUNT(*) AS n FROM ods_rental' },
      token,
    );
    expect(q.body.rows).toEqual([{ n: '16044' }]);

    // Another user asking for reuse on the same source gets a fresh copy, and is told why.
    const theirs = await call('POST', '/v1/projects', body, otherToken);
    const theirId = theirs.body.project_id as string;
    for (let i = 0; i < 300; i++) {
      const v = await call('GET', `/v1/projects/${theirId}`, undefined, otherToken);
      if (v.body.status === 'waiting_approval') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await call('POST', `/v1/projects/${theirId}/hitl/approve`, undefined, otherToken);
    let theirView: Record<string, unknown> = {};
    for (let i = 0; i < 300 && theirView.status !== 'completed'; i++) {
      theirView = (await call('GET', `/v1/projects/${theirId}`, undefined, otherToken)).body;
      await new Promise((r) => setTimeout(r, 100));
    }
    const theirOds = (theirView.warehouse as { ods: { reused_from?: unknown; warnings: string[] } }).ods;
    expect(theirOds.reused_from).toBeUndefined();
    expect(theirOds.warnings).toContain(
      'reuse_ods: none of your completed projects reads this source; copied from the source',
    );
  });

  it('modify with an invalid PRD answers 400 and leaves the project waiting; reject terminates it', async () => {
    const id = await create();
    const waiting = await until(id, 'waiting_approval');
    const invalid = { ...(waiting.prd as object), metrics: 'none' };
    const res = await call('POST', `/v1/projects/${id}/hitl/modify`, invalid, token);
    expect(res.status).toBe(400);
    // Checked at the edge against the documented PRD schema, naming the field.
    expect(res.body.error).toMatchObject({
      code: 'validation_failed',
      details: [expect.objectContaining({ field: 'metrics' })],
    });
    expect((await call('GET', `/v1/projects/${id}`, undefined, token)).body.status).toBe('waiting_approval');
    const rejected = await call(
      'POST',
      `/v1/projects/${id}/hitl/reject`,
      { reason: 'not this database' },
      token,
    );
    expect(rejected.body).toEqual({ project_id: id, decision: 'reject', status: 'terminated' });
  });

  it('reads a project stored by an older version (phases as objects) in the new shape', async () => {
    const owner = (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string })
      .sub;
    const legacyId = `proj-20261120-legacy${Date.now().toString(36)}`;
    await insertLegacyProject(
      await openMetadataDb(metadataDbPath(platform.current.dataDir)),
      legacyProjectRecord(legacyId, owner),
    );
    const res = await call('GET', `/v1/projects/${legacyId}`, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ project_id: legacyId, status: 'terminated', ...LEGACY_PHASES_READ });
    const listed = (await call('GET', '/v1/projects?limit=100', undefined, token)).body.projects as {
      project_id: string;
      status: string;
    }[];
    expect(listed.find((p) => p.project_id === legacyId)?.status).toBe('terminated');
    // A report of a stage that never ran names the phase's status, read from the old shape.
    const quality = await call('GET', `/v1/projects/${legacyId}/quality`, undefined, token);
    // 409: the project exists, its report does not (yet): the state of the project, not a missing resource.
    expect(quality.status).toBe(409);
    expect((quality.body.error as { message: string }).message).toContain('data_governance stage is skipped');
  });

  it('approves through `temporal workflow signal` as well', async () => {
    const id = await create();
    await until(id, 'waiting_approval');
    execFileSync(temporalCliPath(), [
      'workflow',
      'signal',
      '--address',
      harness().temporal.address,
      '--workflow-id',
      id,
      '--name',
      'approve',
    ]);
    const done = await until(id, 'completed');
    expect((done.decision as { decision: string }).decision).toBe('approve');
  });

  it('serves its OpenAPI document', async () => {
    const doc = await call('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    // The document the clients' types are generated from (npm run api:types) is the one served.
    expect({ ...doc.body, servers: [] }).toEqual({ ...platformDocument(), servers: [] });
    expect(Object.keys(doc.body.paths as object)).toEqual(
      expect.arrayContaining(['/v1/projects', '/v1/projects/{project_id}/hitl/modify']),
    );
    interface Schema {
      type?: string;
      enum?: string[];
      properties?: Record<string, Schema>;
    }
    const project = (doc.body.components as { schemas: Record<string, Schema> }).schemas.Project;
    const phases = project.properties!.phases;
    expect(Object.keys(phases.properties!)).toEqual([...PHASES]);
    expect(phases.properties!.prd).toMatchObject({
      type: 'string',
      enum: expect.arrayContaining(['running']),
    });
    expect(Object.keys(project.properties!.phase_details.properties!.prd.properties!)).toEqual([
      'started_at',
      'ended_at',
      'message',
    ]);
    // Query integers are integers to the client, with their bounds and defaults.
    const parameters = (
      doc.body.paths as Record<string, { get: { parameters: { name: string; schema: object }[] } }>
    )['/v1/projects'].get.parameters;
    expect(parameters.find((p) => p.name === 'limit')!.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 20,
    });
  });
});

describe('project events over WebSocket', () => {
  const platform = platformStackPerSuite(`${TASK_QUEUE}-ws`);
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    gateway = platform.current.gateway;
    const res = await fetch(`${gateway.base}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'carla', password: 'wss-password' }),
    });
    token = ((await res.json()) as { id_token: string }).id_token;
  });

  const connect = (tokenValue: string) => connectWs(gateway.base, tokenValue);

  it('refuses a bad token with 401 before the upgrade', async () => {
    const { opened } = connect('forged.token.value');
    await expect(opened).rejects.toThrow(/Unexpected server response: 401/);
  });

  it('pushes hitl_required live, and replays missed events with since', async () => {
    const { user, password } = harness().mariadb;
    const created = await fetch(`${gateway.base}/v1/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jdbc_url: `jdbc:mysql://127.0.0.1:${harness().mariadb.port}/sakila`,
        username: user,
        password,
      }),
    });
    const { project_id } = (await created.json()) as { project_id: string };
    const live = connect(token);
    await live.opened;
    live.ws.send(JSON.stringify({ action: 'subscribe', project_id }));
    const hitl = await live.waitFor((m) => m.event_type === 'hitl_required', 120_000);
    expect(hitl).toMatchObject({ project_id, phase: 'prd', status: 'waiting_approval' });
    for (const m of live.messages.filter((x) => x.type === 'event')) {
      expect(m).toEqual(
        expect.objectContaining({
          event_id: expect.any(Number),
          event_type: expect.any(String),
          phase: expect.any(String),
          status: expect.any(String),
          message: expect.any(String),
          timestamp: expect.any(String),
        }),
      );
    }
    const phaseChanged = live.messages.find((m) => m.event_type === 'phase_changed');
    expect(phaseChanged?.started_at).toEqual(expect.any(String));
    expect(phaseChanged?.phase_status).toBe('running');
    live.ws.close();

    // A client that reconnects with since = the last id it saw gets only what came after.
    const approve = await fetch(`${gateway.base}/v1/projects/${project_id}/hitl/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(approve.status).toBe(200);
    const again = connect(token);
    await again.opened;
    again.ws.send(JSON.stringify({ action: 'subscribe', project_id, since: hitl.event_id }));
    // The whole build runs meanwhile: minutes on a loaded 2-core machine.
    const completed = await again.waitFor((m) => m.event_type === 'project_completed', 240_000);
    expect(completed.status).toBe('completed');
    const replayed = again.messages.filter((m) => m.type === 'event');
    // A phase that finished says when it started and when it ended.
    const finished = replayed.find((m) => m.event_type === 'phase_changed' && m.phase_status === 'completed');
    expect(finished).toMatchObject({ started_at: expect.any(String), ended_at: expect.any(String) });
    expect(replayed.every((m) => (m.event_id as number) > (hitl.event_id as number))).toBe(true);
    again.ws.close();
  });

  it("does not stream another user's project", async () => {
    const other = await fetch(`${gateway.base}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'dave', password: 'dave-password' }),
    });
    const otherToken = ((await other.json()) as { id_token: string }).id_token;
    const list = await fetch(`${gateway.base}/v1/projects`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const projectId = ((await list.json()) as { projects: { project_id: string }[] }).projects[0].project_id;
    const spy = connect(otherToken);
    await spy.opened;
    spy.ws.send(JSON.stringify({ action: 'subscribe', project_id: projectId }));
    expect(await spy.waitFor((m) => m.type === 'error')).toMatchObject({
      message: `no project ${projectId}`,
    });
    expect(spy.messages.some((m) => m.type === 'event')).toBe(false);
    spy.ws.close();
  });
});
