/// <reference lib="dom" />
/**
 * The project pages in Debian's Chromium against the real stack (gateway, worker, dev server, the test
 * MariaDB's Sakila): sign up, create a project, watch it, decide on its PRD (approve, modify with an
 * invalid then a valid PRD, reject, a decision someone else took), and a WebSocket cut mid-run.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { harness } from '../harness/harness-state';
import { loadZooDatabase } from '../harness/zoo';
import { startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { platformStackPerSuite } from '../harness/platform-stack';
import { harnessProjectRequest } from '../harness/sakila';
import {
  horizontalOverflow,
  launchChromium,
  newPage,
  pasteText,
  screenshots,
  seriousA11yViolations,
  signIn,
  waitInPage,
} from '../harness/ui-session';

const TASK_QUEUE = 'project-pages-ui-test';
/** Signs up through the pages in the first test. */
const NEWCOMER = { username: 'pat', password: 'projects-in-a-browser' };
/** Signed up through the API, for the other tests. */
const USER = { username: 'ana', password: 'decisions-in-a-browser' };

describe('project pages', () => {
  let gateway: TestGateway;
  let browser: Browser;
  let token: string;
  // Declared first so the browser closes while the gateway it talks to is still up.
  afterAll(async () => {
    await browser?.close();
  });
  const platform = platformStackPerSuite(TASK_QUEUE);
  const call = platform.call;

  /** A project created through the API, waiting for its PRD decision. */
  async function waitingProject(description: string): Promise<string> {
    const created = await call('POST', '/v1/projects', { ...harnessProjectRequest(), description }, token);
    expect(created.status).toBe(201);
    const id = created.body.project_id as string;
    await until(id, (s) => s === 'waiting_approval');
    return id;
  }

  async function until(id: string, done: (status: string) => boolean): Promise<Record<string, unknown>> {
    for (let i = 0; i < 900; i++) {
      const view = await call('GET', `/v1/projects/${id}`, undefined, token);
      if (done(view.body.status as string)) return view.body;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`project ${id} did not get there`);
  }

  /** The event ids the page's work log shows, in order. */
  const logIds = (page: Page) =>
    page.$$eval('#log li', (els) => els.map((e) => Number((e as HTMLElement).dataset.eventId)));

  beforeAll(async () => {
    gateway = platform.current.gateway;
    browser = await launchChromium();
    token = (await call('POST', '/auth/signup', USER)).body.id_token as string;
  });
  // Each test's pages go with it, rather than keeping their renderer and live socket to the end.
  afterEach(async () => {
    await Promise.all(browser.contexts().map((c) => c.close()));
  });

  it('takes a new user from sign-up through a whole project to its results', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(`${gateway.base}/`);
    // Signed out, the list sends you to sign-in; sign-up is offered because it is enabled here.
    await page.waitForURL(/\/ui\/signin\?/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.click('#switch');
    await page.fill('input[name=username]', NEWCOMER.username);
    await page.fill('input[name=password]', NEWCOMER.password);
    await Promise.all([page.waitForURL(`${gateway.base}/`), page.click('#submit')]);
    const own = (await page.evaluate(() => localStorage.getItem('plat_token'))) as string;
    await page.waitForSelector('#list-status:has-text("No projects yet")');

    // A source that cannot be reached: the 422 reason inline, and the password gone from the page.
    await page.click('#new-project');
    const { host, user, password } = harness().mariadb;
    await page.fill('input[name=jdbc_url]', `jdbc:mysql://${host}:1/sakila`);
    await page.fill('input[name=username]', user);
    await page.fill('input[name=password]', password);
    await page.click('#create-submit');
    await page.waitForSelector('#create-error:not([hidden])');
    expect(await page.textContent('#create-error')).toMatch(/could not be used/);
    expect(await page.inputValue('input[name=password]')).toBe('');
    await screenshots(page, 'project-list-create-error');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.fill('input[name=jdbc_url]', harnessProjectRequest().jdbc_url);
    await page.fill('input[name=password]', password);
    await page.fill('textarea[name=description]', 'DVD rental stores');
    await Promise.all([page.waitForURL(/\/ui\/projects\/proj-/), page.click('#create-submit')]);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[3]);
    expect(await page.evaluate(() => document.body.innerHTML.includes('plat-dev'))).toBe(false);

    // The decision opens when the PRD is ready, with the PRD rendered beside it.
    await page.waitForSelector('#decision:not([hidden])', { timeout: 120_000 });
    expect(await page.getAttribute('#phases li[data-phase=prd]', 'data-status')).toBe('waiting_approval');
    expect(await page.textContent('#prd-industry')).toMatch(/rental/i);
    expect(await page.$$eval('#prd details[data-table^="ads."]', (els) => els.length)).toBeGreaterThan(0);
    // How a refresh would find each table's changes: Sakila keeps last_update current on all but film_text.
    expect(
      await page.$$eval('#prd-refresh tbody tr', (rows) =>
        rows.map((r) => `${(r as HTMLElement).dataset.table} ${(r as HTMLElement).dataset.detect}`),
      ),
    ).toEqual(expect.arrayContaining(['rental updated_at', 'film_text full']));
    await screenshots(page, 'project-waiting-approval');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.click('#approve');
    await page.waitForSelector('#headline .badge.s-completed', { timeout: 300_000 });
    await page.waitForSelector('#results-link');
    const statuses = await page.$$eval('#phases li', (els) => els.map((e) => e.getAttribute('data-status')));
    expect(statuses.every((s) => s === 'completed')).toBe(true);
    // Every phase ran, so every timer shows a fixed time.
    expect(
      await page.$$eval('#phases .timer', (els) => els.every((e) => /^\d+:\d\d$/.test(e.textContent!))),
    ).toBe(true);
    const { events } = (await call('GET', `/v1/projects/${id}/events?since=0`, undefined, own)).body as {
      events: { event_id: number }[];
    };
    await waitInPage(page, (n) => document.querySelectorAll('#log li').length >= n, events.length);
    expect(await logIds(page)).toEqual(events.map((e) => e.event_id));
    await screenshots(page, 'project-completed');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // Freshness: never refreshed; refreshed on request, table by table; then on a schedule, paused, stopped.
    await page.waitForSelector('#refresh-as-of');
    expect(await page.textContent('#refresh-as-of')).toContain('never refreshed');
    await page.click('#refresh-now');
    await page.waitForSelector('#refresh-tables tr[data-table=rental][data-read=changes]', {
      timeout: 120_000,
    });
    expect(await page.textContent('#refresh-as-of')).toMatch(/last refresh\s*completed/);
    // A backfill of a week: every table read whole, the week said on the panel.
    await page.fill('#backfill-form [name=from]', '2005-05-24');
    await page.fill('#backfill-form [name=to]', '2005-05-31');
    await page.click('#backfill-form button[type=submit]');
    await page.waitForSelector('#refresh-tables tr[data-table=rental][data-read=whole]', {
      timeout: 120_000,
    });
    expect(await page.textContent('#refresh-as-of')).toMatch(
      /last refresh\s*completed.*\(backfill of 2005-05-24 to 2005-05-31\)/,
    );
    // The week's eight days computed again in the tables rebuilt by day.
    expect(await page.textContent('#refresh-rebuilt tr[data-kind=days]')).toMatch(/8 days of \w+/);
    await page.fill('#schedule-form [name=every]', '1m');
    await page.click('#schedule-form button[type=submit]');
    await page.waitForSelector('#refresh-error:not([hidden])');
    expect(await page.textContent('#refresh-error')).toContain('at least 5m apart');
    await page.fill('#schedule-form [name=every]', '6h');
    await page.click('#schedule-form button[type=submit]');
    await page.waitForSelector('#refresh-schedule[data-paused=false]');
    expect(await page.textContent('#refresh-schedule')).toContain('Refreshes every 6h');
    await screenshots(page, 'project-freshness');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.click('#schedule-pause');
    await page.waitForSelector('#refresh-schedule[data-paused=true]');
    await page.click('#schedule-delete');
    await page.waitForSelector('#refresh-schedule:not([data-paused])');

    // Monitor: every node of the agent DAG completed, timers stopped, the workflow one click away.
    await page.click('nav.tabs >> text=Monitor');
    await page.waitForSelector('#stages tbody tr');
    await waitInPage(
      page,
      () => document.querySelectorAll('#dag g.node[data-status=completed]').length === 8,
    );
    const workflowLink = (await page.getAttribute('#temporal-link', 'href'))!;
    expect(workflowLink).toBe(`${harness().temporal.uiUrl}/namespaces/default/workflows/${id}`);
    expect((await fetch(workflowLink)).status).toBe(200);
    const attempts = await page.$$eval('#stages td.attempts', (els) => els.map((e) => e.textContent));
    expect(attempts).toEqual(Array(8).fill('1'));
    await screenshots(page, 'project-monitor');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // Cost: by agent and phase with model and price tier, and the price table.
    await page.click('nav.tabs >> text=Cost');
    await page.waitForSelector('#by-agent tbody tr[data-agent=product_manager]');
    expect(await page.textContent('#by-agent tr[data-agent=product_manager]')).toMatch(/offline/);
    expect(
      await page.$$eval('#prices tbody tr', (els) => els.map((e) => e.getAttribute('data-tier'))),
    ).toEqual(['large', 'medium', 'small']);
    expect(await page.isVisible('#analyst-note')).toBe(true);
    await screenshots(page, 'project-cost');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Result: reports, quality, catalog with relations at confidence >= 0.5, scripts, pipeline download.
    await page.click('nav.tabs >> text=Result');
    await page.waitForSelector('#quality-summary');
    await page.waitForSelector('#pipeline-files li');
    expect(await page.getAttribute('#dashboard-link', 'href')).toBe(`/ui/projects/${id}/dashboard`);
    expect(await page.textContent('#quality-summary')).toMatch(/\d+ of \d+ rules passed/);
    const confidences = await page.$$eval('#relations tr.relation td:nth-child(3)', (els) =>
      els.map((e) => Number(e.textContent)),
    );
    expect(confidences.length).toBeGreaterThan(5);
    expect(confidences.every((c) => c >= 0.5)).toBe(true);
    expect(
      await page.$$eval('#scripts details', (els) => els.map((e) => e.getAttribute('data-layer'))),
    ).toEqual(['dwd', 'dws', 'ads']);
    const [archive] = await Promise.all([page.waitForEvent('download'), page.click('#download-pipeline')]);
    const tarFile = path.join(os.tmpdir(), `pipeline-${id}.tar`);
    await archive.saveAs(tarFile);
    const listed = execFileSync('tar', ['-tf', tarFile], { encoding: 'utf8' }).trim().split('\n');
    const files = (await call('GET', `/v1/projects/${id}/pipeline`, undefined, own)).body.files as {
      path: string;
    }[];
    expect(listed).toEqual(files.map((f) => f.path));
    // The dbt project on its own, at its root.
    const [dbtArchive] = await Promise.all([page.waitForEvent('download'), page.click('#download-dbt')]);
    const dbtTar = path.join(os.tmpdir(), `dbt-${id}.tar`);
    await dbtArchive.saveAs(dbtTar);
    const dbtListed = execFileSync('tar', ['-tf', dbtTar], { encoding: 'utf8' }).trim().split('\n');
    expect(dbtListed).toContain('dbt_project.yml');
    expect(dbtListed.length).toBe(files.filter((f) => f.path.startsWith('dbt/')).length);
    fs.rmSync(dbtTar, { force: true });
    await screenshots(page, 'project-result');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // A report of the stage table the page does not lay out (as a stage added to the table brings
    // one) is offered as its JSON: here the stage attempts, served under the project like a report.
    await page.route('**/v1/ui-config', async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as { reports: object[] };
      config.reports.push({ path: 'stages', phase: 'production_pipeline', summary: 'every stage attempt' });
      await route.fulfill({ response, json: config });
    });
    await page.reload();
    const offered = '#reports li[data-report=stages] button';
    await page.waitForSelector(offered);
    const [report] = await Promise.all([page.waitForEvent('download'), page.click(offered)]);
    const reportFile = path.join(os.tmpdir(), `stages-${id}.json`);
    await report.saveAs(reportFile);
    expect(JSON.parse(fs.readFileSync(reportFile, 'utf8'))).toMatchObject({ stages: expect.any(Array) });
    fs.rmSync(reportFile, { force: true });
    await page.unroute('**/v1/ui-config');

    await page.click('nav.tabs >> text=Data profile');
    await waitInPage(page, () => /relational integrity/i.test(document.body.innerText));
    await screenshots(page, 'project-profile');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);

    // The list shows it, with a filter by status.
    await page.goto(`${gateway.base}/`);
    await page.waitForSelector(`#projects tr[data-project="${id}"]`);
    await page.selectOption('#status-filter', 'failed');
    await page.waitForSelector('#list-status:has-text("No projects with this status")');
    await page.selectOption('#status-filter', 'completed');
    await page.waitForSelector(`#projects tr[data-project="${id}"]`);
    expect(page.url()).toContain('status=completed');
    await screenshots(page, 'project-list');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps every log entry once when the WebSocket drops mid-run', async () => {
    const id = await waitingProject('socket cuts');
    const { page, errors } = await newPage(browser);
    await signIn(page, gateway.base, USER.username, USER.password, `/ui/projects/${id}`);
    await page.waitForSelector('#conn:has-text("live")');
    const drop = () =>
      page.evaluate(() =>
        (window as unknown as { platProjectStream: { drop(): void } }).platProjectStream.drop(),
      );
    // Cut the socket as the stages start, so events arrive while it is down; it resumes from the last
    // event id. Then cut it again each time new lines arrive, as long as the project runs.
    await drop();
    await call('POST', `/v1/projects/${id}/hitl/approve`, undefined, token);
    let cuts = 1;
    for (; cuts < 4; cuts++) {
      const shown = (await logIds(page)).length;
      const grew = await waitInPage(
        page,
        (n) => document.querySelectorAll('#log li').length > n,
        shown,
        10_000,
      )
        .then(() => true)
        .catch(() => false);
      const status = (await call('GET', `/v1/projects/${id}`, undefined, token)).body.status;
      if (!grew || status === 'completed') break;
      await drop();
    }
    await until(id, (s) => s === 'completed');
    const { events } = (await call('GET', `/v1/projects/${id}/events?since=0`, undefined, token)).body as {
      events: { event_id: number }[];
    };
    await waitInPage(page, (n) => document.querySelectorAll('#log li').length >= n, events.length);
    await page.waitForTimeout(500);
    expect(await logIds(page)).toEqual(events.map((e) => e.event_id));
    expect(cuts).toBeGreaterThanOrEqual(1);
    await page.waitForSelector('#headline .badge.s-completed');
    expect(errors).toEqual([]);
  });

  it('colours the DAG live as the stages run', async () => {
    const id = await waitingProject('monitor me');
    const { page, errors } = await newPage(browser);
    await signIn(page, gateway.base, USER.username, USER.password, `/ui/projects/${id}/monitor`);
    await page.waitForSelector('#dag g.node[data-phase=prd][data-status=waiting_approval]');
    await page.waitForSelector('#conn:has-text("live")');
    expect(await page.$$eval('#dag g.node[data-status=pending]', (els) => els.length)).toBe(7);
    await call('POST', `/v1/projects/${id}/hitl/approve`, undefined, token);
    await page.waitForSelector('#dag g.node[data-phase=production_pipeline][data-status=completed]', {
      timeout: 300_000,
    });
    await waitInPage(
      page,
      () => document.querySelectorAll('#dag g.node[data-status=completed]').length === 8,
    );
    // Attempts come from the workflow's history, read once the last stage has reported.
    await waitInPage(page, () =>
      Array.from(document.querySelectorAll('#stages td.attempts')).every((e) => e.textContent === '1'),
    );
    expect(errors).toEqual([]);
  });

  it('modifies the PRD: a syntax error and refused fields shown at their place, then a valid edit approved', async () => {
    const id = await waitingProject('modify me');
    const { page, errors } = await newPage(browser);
    await signIn(page, gateway.base, USER.username, USER.password, `/ui/projects/${id}`);
    await page.click('#modify');
    const original = JSON.parse(await page.inputValue('#prd-json'));

    await page.fill('#prd-json', '{"title": "x",');
    await page.click('#prd-save');
    await page.waitForSelector('#prd-errors:has-text("not valid JSON")');

    // A table name that is not an identifier (400) and a metric on a missing ADS table (422).
    const bad = structuredClone(original);
    bad.layers.ads[0].name = 'Not An Identifier';
    await pasteText(page, '#prd-json', JSON.stringify(bad, null, 2));
    await page.click('#prd-save');
    await page.waitForSelector('#prd-errors:has-text("layers.ads.0.name")');
    expect(await page.textContent('#prd-errors')).toMatch(/\(400\)/);
    // Clicking the error selects the offending value in the text.
    await page.click('#prd-errors li button');
    const selected = await page.$eval('#prd-json', (t) => {
      const area = t as HTMLTextAreaElement;
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    expect(selected).toBe('"Not An Identifier"');
    await screenshots(page, 'project-modify-errors');
    expect(await seriousA11yViolations(page)).toEqual([]);

    const crossed = structuredClone(original);
    crossed.metrics[0].ads_table = 'no_such_table';
    await pasteText(page, '#prd-json', JSON.stringify(crossed, null, 2));
    await page.click('#prd-save');
    await page.waitForSelector('#prd-errors:has-text("metrics.0.ads_table")');
    expect(await page.textContent('#prd-errors')).toMatch(/\(422\)/);

    const edited = structuredClone(original);
    edited.title = 'Rentals, edited in the browser';
    // What the analyst is unsure of is shown first, as text, whatever it holds.
    edited.review = [
      {
        decision: 'measure',
        subject: 'payment',
        confidence: 0.4,
        evidence: 'amount <img src=x onerror="window.__reviewXss=1"> summed as a flow',
        alternatives: ['amount averaged as a level'],
      },
    ];
    await pasteText(page, '#prd-json', JSON.stringify(edited, null, 2));
    await page.click('#prd-save');
    await page.waitForSelector('#decision', { state: 'hidden' });
    const view = await until(id, (s) => s !== 'waiting_approval');
    expect((view.prd as { title: string }).title).toBe('Rentals, edited in the browser');
    expect((view.decision as { decision: string }).decision).toBe('modify');
    await page.waitForSelector('#title:has-text("edited in the browser")');
    await page.waitForSelector('#prd-review li.warn');
    expect(await page.textContent('#prd-review')).toContain(
      'To check before approving (1)measure of payment (confidence 40%): amount <img src=x onerror="window.__reviewXss=1"> summed as a flow',
    );
    expect(await page.$$eval('#prd-review img', (els) => els.length)).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { __reviewXss?: number }).__reviewXss),
    ).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('rejects with a reason, and says so when someone else decided first', async () => {
    const rejected = await waitingProject('reject me');
    const { page, errors } = await newPage(browser);
    await signIn(page, gateway.base, USER.username, USER.password, `/ui/projects/${rejected}`);
    await page.click('#reject');
    await page.fill('#reject-form textarea[name=reason]', 'wrong database');
    await page.click('#reject-confirm');
    await page.waitForSelector('#headline .badge.s-terminated');
    expect(await page.textContent('#about')).toMatch(/reject .* — wrong database/);

    const raced = await waitingProject('decided elsewhere');
    await page.goto(`${gateway.base}/ui/projects/${raced}`);
    await page.waitForSelector('#decision:not([hidden])');
    // Another reviewer approves through the API while this page, its live updates stopped, still
    // offers the decision.
    await page.evaluate(() =>
      (window as unknown as { platProjectStream: { close(): void } }).platProjectStream.close(),
    );
    expect((await call('POST', `/v1/projects/${raced}/hitl/approve`, undefined, token)).status).toBe(200);
    await page.click('#approve');
    await page.waitForSelector('#notice:has-text("no longer waiting for a decision")');
    await page.waitForSelector('#decision', { state: 'hidden' });
    expect(errors).toEqual([]);
  });

  it('shows the decisions the analyst is unsure of above the PRD, the weak ones marked', async () => {
    // A source whose names say nothing of its business: the industry is a guess at 30%.
    const records = await loadZooDatabase('zoo_generic_records');
    const created = await call(
      'POST',
      '/v1/projects',
      {
        jdbc_url: records.jdbcUrl,
        username: records.user,
        password: records.password,
        description: 'our records',
      },
      token,
    );
    expect(created.status).toBe(201);
    const id = created.body.project_id as string;
    const view = await until(id, (s) => s === 'waiting_approval');
    const review = (view.prd as { review: { decision: string; confidence: number }[] }).review;
    expect(review.find((r) => r.decision === 'industry')?.confidence).toBeLessThan(0.5);

    const { page, errors } = await newPage(browser);
    await signIn(page, gateway.base, USER.username, USER.password, `/ui/projects/${id}`);
    await page.waitForSelector('#decision:not([hidden])');
    // The decision box says how many decisions to check, and takes you to them.
    expect(await page.textContent('#decision-review')).toContain(`unsure of ${review.length} decision`);
    await page.click('#decision-review a');
    expect(new URL(page.url()).hash).toBe('#prd-review');
    const panel = await page.waitForSelector('#prd-review');
    expect(await panel.textContent()).toContain(`To check before approving (${review.length})`);
    const weak = await page.$$eval('#prd-review li.warn', (els) => els.map((e) => e.textContent ?? ''));
    expect(weak.some((t) => /industry of .*confidence 30%/.test(t))).toBe(true);
    // Above the PRD's tables, where the person approving reads first.
    const above = await page.evaluate(() => {
      const r = document.getElementById('prd-review')!;
      const first = document.querySelector('#prd table');
      return !first || (r.compareDocumentPosition(first) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    });
    expect(above).toBe(true);
    await screenshots(page, 'project-prd-review');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('offers sign-up only when self-registration is on', async () => {
    const closed = await startTestGateway({
      client: platform.current.stack.env.client,
      taskQueue: TASK_QUEUE,
      selfSignup: false,
    });
    const { context, page, errors } = await newPage(browser);
    try {
      // The setting arrives after the page: wait until the page has acted on it.
      await page.goto(`${closed.base}/ui/signin`);
      await page.waitForSelector('body[data-config="settled"]');
      expect(await page.isVisible('#switch')).toBe(false);
      await page.goto(`${gateway.base}/ui/signin`);
      await page.waitForSelector('#switch:not([hidden])');
    } finally {
      await context.close();
      await closed.stop();
    }
    expect(errors).toEqual([]);
  });

  it('sends an expired or rejected session to sign-in and back to the page it was on', async () => {
    const { context, page, errors } = await newPage(browser);
    const past = Math.floor(Date.now() / 1000) - 60;
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const expired = `${b64({ alg: 'ES256' })}.${b64({ sub: 'u', username: USER.username, exp: past })}.sig`;
    const forged = `${b64({ alg: 'ES256' })}.${b64({ sub: 'u', username: USER.username, exp: past + 3600 })}.sig`;
    for (const bad of [expired, forged]) {
      await page.goto(`${gateway.base}/ui/signin`);
      await page.evaluate((t) => localStorage.setItem('plat_token', t), bad);
      await page.goto(`${gateway.base}/?status=completed`);
      await page.waitForURL(/\/ui\/signin\?/);
      expect(await page.textContent('#reason')).toMatch(/expired/);
    }
    // By keyboard alone: the username has focus, Tab reaches the password, Enter signs in.
    await page.keyboard.type(USER.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(USER.password);
    await Promise.all([page.waitForURL(`${gateway.base}/?status=completed`), page.keyboard.press('Enter')]);
    await page.click('#sign-out');
    await page.waitForURL(/reason=signedout/);
    expect(await page.evaluate(() => localStorage.getItem('plat_token'))).toBeNull();
    await context.close();
    expect(errors).toEqual([]);
  });
});
