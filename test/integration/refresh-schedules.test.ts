/**
 * Refresh schedules through the real gateway, worker and dev server (the time-skipping test server
 * has no Schedules): a project built on a small source of the harness's MariaDB gets a schedule; bad
 * timings are refused naming the field; the Temporal Schedule skips overlaps and starts
 * `projectRefresh`; a triggered start refreshes the project; pause, resume and delete are the
 * owner's or an operator's, and another tenant's project does not exist for a tenant.
 */
import { signUp } from '../harness/api-caller';
import { runPlat } from '../harness/plat-cli';
import { harness } from '../harness/harness-state';
import { platformStackPerSuite } from '../harness/platform-stack';
import { connectMariaDb, createStoreSales } from './warehouse/ods-fixtures';

const TASK_QUEUE = 'refresh-schedules-test';
const DB = 'refresh_schedules';

describe('refresh schedules', () => {
  const platform = platformStackPerSuite(TASK_QUEUE);
  const call = platform.call;
  let operator: string;
  let owner: string;
  let other: string;
  let id: string;
  const schedule = () => `/v1/projects/${id}/refresh-schedule`;
  /** `plat projects schedule ID …` as the owner. */
  const plat = (...args: string[]) =>
    runPlat(['projects', 'schedule', id, ...args], {
      ...process.env,
      PLAT_URL: platform.current.gateway.base,
      PLAT_TOKEN: owner,
    });

  beforeAll(async () => {
    await createStoreSales(DB);
    // The first account is the operator.
    operator = await signUp(call, 'olga', 'operator secret');
    owner = await signUp(call, 'cleo', 'owner secret');
    other = await signUp(call, 'dan', 'other secret');
    const { host, port, user, password } = harness().mariadb;
    const created = await call(
      'POST',
      '/v1/projects',
      {
        jdbc_url: `jdbc:mysql://${host}:${port}/${DB}`,
        username: user,
        password,
        description: 'store sales',
      },
      owner,
    );
    id = created.body.project_id as string;
    for (let i = 0; ; i++) {
      const view = (await call('GET', `/v1/projects/${id}`, undefined, owner)).body;
      if (view.status === 'waiting_approval') break;
      if (i > 600) throw new Error(`project ${id} never reached its PRD`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // A schedule needs a built warehouse.
    expect((await call('PUT', schedule(), { every: '1d' }, owner)).status).toBe(409);
    await call('POST', `/v1/projects/${id}/hitl/approve`, undefined, owner);
    for (
      let i = 0;
      (await call('GET', `/v1/projects/${id}`, undefined, owner)).body.status !== 'completed';
      i++
    ) {
      if (i > 1200) throw new Error(`project ${id} never completed`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 240_000);

  it.each([
    [{}, '(body)', /give every .* or cron/],
    [{ every: '1d', cron: '0 6 * * *' }, '(body)', /give every .* or cron/],
    [{ every: '2m' }, 'every', /at least 5m apart/],
    [{ every: 'daily' }, 'every', /at least 5m apart/],
    [{ every: '1d', timezone: 'Europe/Oslo' }, 'timezone', /unknown field/],
    [{ cron: '*/5 * * * *' }, 'cron', /the minute one number: at most hourly/],
    [{ cron: '0 6 * *' }, 'cron', /five fields/],
    [{ cron: '0 6 * * *; rm -rf /' }, 'cron', /five fields/],
    [{ cron: '0 6 * * *', timezone: 'Mars/Olympus' }, '(body)', /an optional IANA timezone/],
    [{ cron: '0 6 * * *', timezone: '../../etc/passwd' }, '(body)', /an optional IANA timezone/],
  ])('refuses %j as the document says, naming the field and the rule', async (body, field, rule) => {
    const res = await call('PUT', schedule(), body, owner);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ details: [{ field, message: expect.stringMatching(rule) }] });
  });

  it('refuses a cron of the right shape that the scheduler cannot read, naming the field', async () => {
    const res = await call('PUT', schedule(), { cron: '0 25 * * *' }, owner);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: 'invalid_schedule',
      details: [{ field: 'cron', message: 'Hour is not in range [0-23]' }],
    });
    // Nothing was scheduled.
    expect(await call('GET', schedule(), undefined, owner)).toEqual({
      status: 200,
      body: { project_id: id, schedule: null },
    });
    // Nothing to pause: the project is there, the schedule is not.
    const pause = await call('POST', `${schedule()}/pause`, undefined, owner);
    expect(pause).toMatchObject({ status: 409, body: { error: { code: 'no_schedule' } } });
  });

  it('sets a calendar in a time zone: the next starts are at 06:00 there, and overlaps are skipped', async () => {
    expect(
      (await call('PUT', schedule(), { cron: '0 6 * * *', timezone: 'Europe/Oslo' }, other)).status,
    ).toBe(404);
    const set = await call('PUT', schedule(), { cron: '0 6 * * *', timezone: 'Europe/Oslo' }, owner);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      project_id: id,
      schedule_id: `refresh-${id}`,
      cron: '0 6 * * *',
      timezone: 'Europe/Oslo',
      paused: false,
      recent_runs: [],
    });
    const next = set.body.next_runs as string[];
    expect(next).toHaveLength(5);
    const osloHour = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Oslo',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(new Set(next.map((t) => osloHour.format(new Date(t))))).toEqual(new Set(['06:00']));
    const described = await platform.current.stack.env.client.schedule.getHandle(`refresh-${id}`).describe();
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'projectRefresh',
      args: [{ project_id: id, trigger: 'schedule' }],
    });
    // The project record keeps a copy for the pages and retention.
    const view = (await call('GET', `/v1/projects/${id}`, undefined, owner)).body;
    expect(view.refresh).toMatchObject({ schedule: { cron: '0 6 * * *', paused: false } });
  });

  it('a start of the schedule refreshes the project, recorded as scheduled', async () => {
    await platform.current.stack.env.client.schedule.getHandle(`refresh-${id}`).trigger();
    let last: Record<string, unknown> | null = null;
    for (let i = 0; i < 600; i++) {
      last = (await call('GET', `/v1/projects/${id}/refreshes`, undefined, owner)).body.last as Record<
        string,
        unknown
      > | null;
      if (last && last.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(last).toMatchObject({
      status: 'completed',
      trigger: 'schedule',
      refresh_id: expect.stringMatching(new RegExp(`^${id}-refresh-`)),
    });
    const got = await call('GET', schedule(), undefined, owner);
    expect(got.body).toMatchObject({
      schedule: { recent_runs: [{ refresh_id: last!.refresh_id, scheduled_at: expect.any(String) }] },
    });
  });

  it('pauses and resumes for the owner or an operator; a new timing keeps the pause', async () => {
    expect((await call('POST', `${schedule()}/pause`, undefined, other)).status).toBe(404);
    expect((await call('GET', schedule(), undefined, other)).status).toBe(404);
    const paused = await call('POST', `${schedule()}/pause`, undefined, operator);
    expect(paused).toMatchObject({ status: 200, body: { paused: true } });
    const handle = platform.current.stack.env.client.schedule.getHandle(`refresh-${id}`);
    expect((await handle.describe()).state).toMatchObject({ paused: true, note: 'paused by olga' });
    const retimed = await call('PUT', schedule(), { every: '6h' }, owner);
    expect(retimed.body).toMatchObject({ every: '6h', paused: true });
    expect(retimed.body.cron).toBeUndefined();
    expect((await handle.describe()).spec.intervals?.[0].every).toBe(6 * 3600 * 1000);
    const resumed = await call('POST', `${schedule()}/resume`, undefined, owner);
    expect(resumed).toMatchObject({ status: 200, body: { paused: false } });
  });

  it('a refresh that fails marks the scheduled project stale: in the list, the events and /metrics', async () => {
    const gateway = platform.current.gateway.base;
    const staleGauge = async () =>
      /^plat_refresh_stale_projects\{[^}]*\} (\d+)$/m.exec(
        await (await fetch(`${gateway}/metrics`)).text(),
      )?.[1];
    expect(await staleGauge()).toBe('0');
    const db = await connectMariaDb({ database: DB });
    await db.query('RENAME TABLE sales TO sales_gone');
    try {
      const started = await call('POST', `/v1/projects/${id}/refresh`, undefined, owner);
      expect(started.status).toBe(202);
      let last: Record<string, unknown> | null = null;
      for (let i = 0; i < 600; i++) {
        last = (await call('GET', `/v1/projects/${id}/refreshes`, undefined, owner)).body.last as Record<
          string,
          unknown
        > | null;
        if (last?.refresh_id === started.body.refresh_id && last?.status !== 'running') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // Not retried: a missing table does not come back by itself.
      expect(last).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/^the source changed shape since the project was built \(.*sales/),
      });
    } finally {
      await db.query('RENAME TABLE sales_gone TO sales');
      await db.end();
    }
    const listed = (await call('GET', '/v1/projects', undefined, owner)).body.projects as {
      project_id: string;
      freshness: { stale: boolean; why?: string };
    }[];
    expect(listed.find((p) => p.project_id === id)!.freshness).toMatchObject({
      stale: true,
      why: expect.stringMatching(/^the last refresh failed: the source changed shape/),
    });
    expect(await staleGauge()).toBe('1');
    // The CLI's list says so too, with the reason.
    const cliList = await runPlat(['projects', 'list'], {
      ...process.env,
      PLAT_URL: platform.current.gateway.base,
      PLAT_TOKEN: owner,
    });
    expect(cliList.stdout).toMatch(/DATA_AS_OF/);
    expect(cliList.stdout).toMatch(
      new RegExp(`${id}.* STALE \\(the last refresh failed: the source changed shape`),
    );
    const events = (await call('GET', `/v1/projects/${id}/events`, undefined, owner)).body.events as {
      status: string;
      message: string;
    }[];
    expect(events.at(-1)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^refresh \S+ \(manual\) failed: /),
    });
    // The next refresh succeeds: fresh again.
    await call('POST', `/v1/projects/${id}/refresh`, undefined, owner);
    for (let i = 0; i < 600 && (await staleGauge()) !== '0'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await staleGauge()).toBe('0');
  });

  it('is set, shown, paused and deleted with `plat projects schedule` too', async () => {
    const set = await plat('--cron', '30 7 * * 1-5', '--timezone', 'America/Sao_Paulo');
    expect(set).toMatchObject({ status: 0 });
    expect(set.stdout).toContain(
      `${id}: refresh cron '30 7 * * 1-5' (America/Sao_Paulo) (Temporal schedule refresh-${id})`,
    );
    // The next starts on the zone's wall clock (São Paulo is UTC-3 all year), the instant beside.
    expect(set.stdout).toMatch(/\nnext: \d{4}-\d\d-\d\d 07:30 America\/Sao_Paulo \(10:30Z\), /);
    expect((await plat('--pause')).stdout).toContain(', paused');
    const refused = await plat('--every', '1m');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('at least 5m apart');
    expect(JSON.parse((await plat('--json')).stdout)).toMatchObject({
      project_id: id,
      schedule: { cron: '30 7 * * 1-5', paused: true },
    });
    expect((await plat('--resume')).stdout).not.toContain('paused');
  });

  it('deletes the schedule: Temporal has it no more, the refreshes so far stay', async () => {
    expect((await call('DELETE', schedule(), undefined, other)).status).toBe(404);
    expect(await call('DELETE', schedule(), undefined, owner)).toEqual({
      status: 200,
      body: { project_id: id, deleted: true },
    });
    expect((await call('GET', schedule(), undefined, owner)).body).toEqual({
      project_id: id,
      schedule: null,
    });
    // Deleting twice is no error: there was nothing left to delete.
    expect(await call('DELETE', schedule(), undefined, owner)).toEqual({
      status: 200,
      body: { project_id: id, deleted: false },
    });
    expect((await plat('--delete')).stdout).toContain(`${id}: had no refresh schedule`);
    expect((await plat()).stdout).toContain(`${id}: no refresh schedule (refreshed only when asked)`);
    await expect(
      platform.current.stack.env.client.schedule.getHandle(`refresh-${id}`).describe(),
    ).rejects.toThrow(/not found/i);
    const refreshes = (await call('GET', `/v1/projects/${id}/refreshes`, undefined, owner)).body;
    const runs = [refreshes.last, ...(refreshes.history as unknown[])] as {
      trigger: string;
      status: string;
    }[];
    expect(runs.map((r) => `${r.trigger} ${r.status}`)).toEqual([
      'manual completed',
      'manual failed',
      'schedule completed',
    ]);
  });
});
