/// <reference lib="dom" />
/**
 * The dashboard page in Debian's Chromium: sign in, charts drawn from live ADS queries, the
 * stat_date filter narrowing them. Real gateway, worker, dev server and Sakila.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { horizontalOverflow, screenshots, seriousA11yViolations, waitInPage } from '../harness/ui-session';
import { signUp } from '../harness/api-caller';
import { chromiumPath } from '../harness/browser';
import { platformStackPerSuite } from '../harness/platform-stack';
import { harnessProjectRequest } from '../harness/sakila';

const TASK_QUEUE = 'dashboard-ui-test';

describe('dashboard page', () => {
  let browser: Browser;
  let page: Page;
  let projectId: string;
  // Declared first so the browser closes while the gateway it talks to is still up.
  afterAll(async () => {
    await browser?.close();
  });
  const platform = platformStackPerSuite(TASK_QUEUE);
  const call = platform.call;

  beforeAll(async () => {
    const token = await signUp(call, 'dana', 'dashboards!');
    const created = await call('POST', '/v1/projects', harnessProjectRequest(), token);
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

  /** Each card as drawn: its ECharts option's series and the axis labels on screen. */
  const drawnCards = () =>
    page.$$eval('.card', (els) =>
      els.map((e) => {
        const chartEl = e.querySelector('.chart') as HTMLElement | null;
        const echarts = (window as unknown as { echarts: EChartsGlobal }).echarts;
        const option = chartEl ? echarts.getInstanceByDom(chartEl)?.getOption() : undefined;
        const series = (option?.series ?? []) as { type: string; data: unknown[] }[];
        return {
          metric: e.getAttribute('data-metric'),
          kind: e.getAttribute('data-kind'),
          rows: Number((e as HTMLElement).dataset.rows),
          types: series.map((x) => x.type),
          points: series[0]?.data ?? [],
          lone: series[1]?.data ?? [],
          categories: ((option?.yAxis as { data?: string[] }[] | undefined)?.[0]?.data ?? []) as string[],
          zoom: ((option?.dataZoom as unknown[] | undefined) ?? []).length,
          labels: Array.from(e.querySelectorAll('.chart svg text')).map((t) => t.textContent ?? ''),
          range: e.querySelector('.range')?.textContent ?? '',
        };
      }),
    );

  const allDrawn = () =>
    waitInPage(page, () =>
      Array.from(document.querySelectorAll('.card')).every(
        (c) =>
          (c as HTMLElement).dataset.rows !== undefined || (c as HTMLElement).dataset.error !== undefined,
      ),
    );

  it('asks for sign-in, then draws every dashboard chart from the ADS layer', async () => {
    await page.goto(`${platform.current.gateway.base}/ui/projects/${projectId}/dashboard`);
    await page.fill('#plat-login input[name=username]', 'dana');
    await page.fill('#plat-login input[name=password]', 'dashboards!');
    await page.click('#plat-login button');
    await page.waitForSelector('.card[data-rows], .card[data-error]');
    await allDrawn();
    expect(
      await page.$$eval('.card[data-error]', (els) => els.map((e) => e.getAttribute('data-error'))),
    ).toEqual([]);
    const all = await drawnCards();
    const cards = all.filter((c) => c.kind === 'series');
    expect(cards.map((c) => c.metric)).toEqual(
      expect.arrayContaining(['rental_count', 'payment_total_amount']),
    );
    for (const c of cards) expect(c).toMatchObject({ rows: expect.any(Number), types: ['line', 'scatter'] });
    // The time axis is labelled in months for Sakila's nine months, the year where it changes, and
    // the caption names the range with its years.
    expect(cards[0].labels).toEqual(expect.arrayContaining(['Jan 2006', 'Jul']));
    expect(cards[0].range).toBe('May 24, 2005 – Feb 14, 2006');
    // Top-N breakdowns beside the series: at most ten bars plus one for the rest, largest first.
    const byCountry = all.find((c) => c.metric === 'payment_total_amount_by_country')!;
    expect(byCountry.kind).toBe('breakdown');
    expect(byCountry.rows).toBeGreaterThan(100);
    expect(byCountry.types).toEqual(['bar']);
    expect(byCountry.categories).toHaveLength(11);
    expect(byCountry.categories.at(-1)).toMatch(/^\d+ others$/);
    expect(all.find((c) => c.metric === 'rental_count_by_rating')).toMatchObject({ rows: 5 });
    expect(all.find((c) => c.metric === 'rental_count_by_rating')!.categories).toHaveLength(5);
    expect(cards.every((c) => c.rows > 30)).toBe(true);
    // Sakila has rows on 41 of 267 days: the line breaks at each gap (a null between runs) instead of
    // joining across it, and a day alone between gaps is drawn as a dot. Long ranges can be zoomed.
    const gaps = (c: (typeof cards)[number]) =>
      (c.points as [number, number | null][]).filter((p) => p[1] === null).length;
    expect(cards.every((c) => gaps(c) >= 4)).toBe(true);
    expect(cards.every((c) => c.zoom === 2)).toBe(true);
    expect(await page.textContent('h1')).toContain('DVD rental');
    // How fresh the numbers are: the source time of the copy (no refresh yet).
    expect(await page.textContent('#subtitle')).toMatch(/ · data as of \d/);
    await screenshots(page, 'dashboard');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toEqual([]);
  });

  it('narrows every chart to the stat_date range picked', async () => {
    await page.fill('input[name=from]', '2005-07-01');
    await page.fill('input[name=to]', '2005-07-31');
    await page.click('#filter button');
    await waitInPage(page, () =>
      Array.from(document.querySelectorAll('.card[data-kind=series]')).every(
        (c) => Number((c as HTMLElement).dataset.rows) <= 31,
      ),
    );
    const rows = await page.$$eval('.card[data-kind=series]', (els) =>
      els.map((e) => Number((e as HTMLElement).dataset.rows)),
    );
    expect(rows.every((n) => n > 0 && n <= 31)).toBe(true);
  });

  it('draws one day as a dot with one readable label', async () => {
    await page.fill('input[name=from]', '2005-07-06');
    await page.fill('input[name=to]', '2005-07-06');
    await page.click('#filter button');
    await waitInPage(page, () =>
      Array.from(document.querySelectorAll('.card[data-kind=series]')).every(
        (c) => (c as HTMLElement).dataset.rows === '1',
      ),
    );
    const [first] = (await drawnCards()).filter((c) => c.kind === 'series');
    expect(first.lone).toHaveLength(1);
    expect(first.zoom).toBe(0);
    const xLabels = first.labels.filter((l) => /[A-Z][a-z]{2}/.test(l));
    expect(xLabels).toEqual(['Jul 6']);
    expect(first.range).toBe('Jul 6, 2005');
    await screenshots(page, 'dashboard-one-day');
  });

  it('labels ten years by year and lets them be zoomed', async () => {
    // A synthetic decade through the page's own chart code: no Sakila range is that long.
    const drawn = await page.evaluate(() => {
      const charts = (window as unknown as { platCharts: PlatCharts }).platCharts;
      const rows = [];
      for (let t = Date.UTC(2015, 0, 1); t <= Date.UTC(2024, 11, 31); t += 86_400_000)
        rows.push({ stat_date: new Date(t).toISOString().slice(0, 10), value: (t / 86_400_000) % 50 });
      const el = document.createElement('div');
      el.className = 'chart';
      el.style.width = '600px';
      document.body.append(el);
      charts.draw(el, charts.seriesOption('line', rows, '', '2015-01-01', '2024-12-31'), 220);
      const labels = Array.from(el.querySelectorAll('svg text')).map((t) => t.textContent ?? '');
      el.remove();
      return labels;
    });
    const years = drawn.filter((l) => /^20\d\d$/.test(l));
    expect(years.length).toBeGreaterThanOrEqual(4);
    expect(new Set(years).size).toBe(years.length);
    expect(drawn.some((l) => /^[A-Z][a-z]{2}/.test(l))).toBe(false);
  });

  it('charts a sparse series by month: one bar a month, summed, tooltips naming the month', async () => {
    // 400 events over five years through the page's own chart code (docs/web-ui.md#grain).
    const drawn = await page.evaluate(() => {
      const charts = (window as unknown as { platCharts: PlatCharts }).platCharts;
      const rows = [];
      for (let i = 0; i < 400; i++) {
        const t = Date.UTC(2020, 0, 1) + Math.floor((i * 1826) / 400) * 86_400_000;
        rows.push({ stat_date: new Date(t).toISOString().slice(0, 10), value: 1 });
      }
      const monthly = charts.bucketRows(rows, 'month', true);
      const el = document.createElement('div');
      el.className = 'chart';
      el.style.width = '600px';
      document.body.append(el);
      const chart = charts.draw(
        el,
        charts.seriesOption('bar', monthly, 'count', '2020-01-01', '2024-12-31', 'month'),
        220,
      );
      const option = chart.getOption() as unknown as {
        series: { data: [number, number][] }[];
        tooltip: { formatter: (p: unknown) => string }[];
      };
      const bars = option.series[0].data;
      const tip = option.tooltip[0].formatter({ value: bars[0] });
      el.remove();
      // A narrowed range gets a finer grain: a month of the same density is drawn by week.
      const grains = [charts.grainFor(400 / 1827, 1827).grain, charts.grainFor(400 / 1827, 30).grain];
      return { bars: bars.length, total: bars.reduce((n, b) => n + b[1], 0), first: monthly[0], tip, grains };
    });
    expect(drawn.bars).toBe(60);
    expect(drawn.total).toBe(400);
    expect(drawn.first.stat_date).toBe('2020-01-01');
    expect(drawn.tip).toContain('Jan 2020');
    expect(drawn.grains).toEqual(['month', 'week']);
  });

  it('shows the data-profile report: score, six dimensions, tables and relations', async () => {
    await page.goto(`${platform.current.gateway.base}/ui/projects/${projectId}/profile`);
    await waitInPage(page, () => /relational integrity/i.test(document.body.innerText));
    const text = await page.innerText('body');
    expect(text).toMatch(/ods_rental/);
    expect(text).toMatch(/16,?044/);
    expect(text).not.toMatch(/could not be loaded/);
  });
});

/** The parts of the ECharts global the test reads. */
interface EChartsGlobal {
  getInstanceByDom(el: HTMLElement): { getOption(): Record<string, unknown> } | undefined;
}

/** The page's chart helpers (web/charts.js). */
interface PlatCharts {
  seriesOption(kind: string, rows: unknown[], unit: string, from: string, to: string, grain?: string): object;
  draw(el: HTMLElement, option: object, height: number): { getOption(): unknown };
  grainFor(perDay: number, days: number): { grain: string; reason: string };
  bucketRows(
    rows: { stat_date: string; value: number }[],
    grain: string,
    additive: boolean,
  ): { stat_date: string; value: number }[];
}
