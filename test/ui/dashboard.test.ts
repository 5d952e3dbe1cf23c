/// <reference lib="dom" />
/**
 * The dashboard page in Debian's Chromium: sign in, charts drawn from live ADS queries, the
 * stat_date filter narrowing them. Real gateway, worker, dev server and Sakila.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { dataDirDeps } from '../../workers/platform-activities';
import { apiCaller } from '../harness/api-caller';
import { chromiumPath } from '../harness/browser';
import { harness } from '../harness/harness-state';
import { newTestDataDir, startTestGateway, type TestGateway } from '../harness/platform-gateway';
import { devServerWithPlatformWorker, type DevServerWithWorker } from '../harness/temporal-envs';

const TASK_QUEUE = 'dashboard-ui-test';

describe('dashboard page', () => {
  let stack: DevServerWithWorker;
  let gateway: TestGateway;
  let browser: Browser;
  let page: Page;
  let projectId: string;
  const call = apiCaller(() => gateway.base);

  beforeAll(async () => {
    const dataDir = newTestDataDir();
    stack = await devServerWithPlatformWorker(TASK_QUEUE, dataDirDeps(dataDir));
    gateway = await startTestGateway({ client: stack.env.client, taskQueue: TASK_QUEUE, dataDir });
    const token = (await call('POST', '/auth/signup', { username: 'dana', password: 'dashboards!' })).body
      .id_token as string;
    const { host, port, user, password } = harness().mariadb;
    const created = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: `jdbc:mysql://${host}:${port}/sakila`, username: user, password },
      token,
    );
    projectId = created.body.project_id as string;
    for (let i = 0; i < 600; i++) {
      const view = await call('GET', `/v1/projects/${projectId}`, undefined, token);
      if (view.body.status === 'waiting_approval')
        await call('POST', `/v1/projects/${projectId}/hitl/approve`, undefined, token);
      if (view.body.status === 'completed') break;
      if (['failed', 'terminated'].includes(view.body.status as string))
        throw new Error(`project ended ${String(view.body.status)}: ${String(view.body.message)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await stack?.stop();
  });

  it('asks for sign-in, then draws every dashboard chart from the ADS layer', async () => {
    await page.goto(`${gateway.base}/ui/projects/${projectId}/dashboard`);
    await page.fill('#plat-login input[name=username]', 'dana');
    await page.fill('#plat-login input[name=password]', 'dashboards!');
    await page.click('#plat-login button');
    await page.waitForSelector('.card[data-rows], .card[data-error]');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.card')).every(
        (c) =>
          (c as HTMLElement).dataset.rows !== undefined || (c as HTMLElement).dataset.error !== undefined,
      ),
    );
    expect(
      await page.$$eval('.card[data-error]', (els) => els.map((e) => e.getAttribute('data-error'))),
    ).toEqual([]);
    const all = await page.$$eval('.card', (els) =>
      els.map((e) => ({
        metric: e.getAttribute('data-metric'),
        kind: e.getAttribute('data-kind'),
        rows: Number((e as HTMLElement).dataset.rows),
        lines: e.querySelectorAll('path.series').length,
        runs: (e.querySelector('path.series')?.getAttribute('d') ?? '').split('M').length - 1,
        bars: e.querySelectorAll('rect.bar').length,
        labels: Array.from(e.querySelectorAll('svg text')).map((t) => t.textContent ?? ''),
      })),
    );
    const cards = all.filter((c) => c.kind === 'series');
    expect(cards.map((c) => c.metric)).toEqual(
      expect.arrayContaining(['rental_count', 'payment_total_amount']),
    );
    for (const c of cards) expect(c).toMatchObject({ rows: expect.any(Number), lines: 1 });
    // The time axis is labelled in months for Sakila's nine months, not with raw dates.
    expect(cards[0].labels).toEqual(expect.arrayContaining(['Jan 2006']));
    // Top-N breakdowns beside the series: at most ten bars plus one for the rest, largest first.
    const byCountry = all.find((c) => c.metric === 'payment_total_amount_by_country')!;
    expect(byCountry.kind).toBe('breakdown');
    expect(byCountry.rows).toBeGreaterThan(100);
    expect(byCountry.bars).toBe(11);
    expect(byCountry.labels).toEqual(expect.arrayContaining([expect.stringMatching(/\d+ others/)]));
    expect(all.find((c) => c.metric === 'rental_count_by_rating')).toMatchObject({ rows: 5, bars: 5 });
    expect(cards.every((c) => c.rows > 30)).toBe(true);
    // Sakila has rows on 41 of 267 days: the line breaks at each gap instead of joining across it.
    expect(cards.every((c) => c.runs >= 5)).toBe(true);
    expect(await page.textContent('h1')).toContain('DVD rental');
  });

  it('narrows every chart to the stat_date range picked', async () => {
    await page.fill('input[name=from]', '2005-07-01');
    await page.fill('input[name=to]', '2005-07-31');
    await page.click('#filter button');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.card[data-kind=series]')).every(
        (c) => Number((c as HTMLElement).dataset.rows) <= 31,
      ),
    );
    const rows = await page.$$eval('.card[data-kind=series]', (els) =>
      els.map((e) => Number((e as HTMLElement).dataset.rows)),
    );
    expect(rows.every((n) => n > 0 && n <= 31)).toBe(true);
  });

  it('shows the data-profile report: score, six dimensions, tables and relations', async () => {
    await page.goto(`${gateway.base}/ui/projects/${projectId}/profile`);
    await page.waitForFunction(() => /relational integrity/i.test(document.body.innerText));
    const text = await page.innerText('body');
    expect(text).toMatch(/ods_rental/);
    expect(text).toMatch(/16,?044/);
    expect(text).not.toMatch(/could not be loaded/);
  });
});
