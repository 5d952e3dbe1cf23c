// The dashboard page (the project's bi_dashboard_url): each dashboard of the spec as cards, each card
// one metric queried live from the ADS layer over the stat_date range picked (docs/web-ui.md#dashboard).
window.plat.page(async () => {
  const { call, h, projectTabs } = window.plat;
  const { seriesOption, topOption, draw, formatValue, rangeText, bucketRows, grainFor } = window.platCharts;
  const id = window.plat.projectId();
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
  /** Breakdowns show the largest values and sum the rest into one bar. */
  const TOP_N = 10;
  // The dashboards report as this page reads it (domain/visualization/dashboard-spec.ts): the API
  // document describes it loosely.
  /**
   * @typedef {object} Dataset
   * @property {string} metric
   * @property {string} unit
   * @property {string} ads_table
   * @property {string} sql
   * @property {'series' | 'breakdown'} [kind]
   * @property {string} [dimension]
   * @property {boolean} [additive]
   * @property {string | null} first_date
   * @property {string | null} last_date
   * @property {{ events_per_day?: number }} [grain]
   */
  /**
   * @typedef {object} DashboardSpec
   * @property {{ title: string, description: string, charts: { metric: string, title: string, chart: string }[] }[]} dashboards
   * @property {Dataset[]} datasets
   * @property {{ metric: string, reason: string }[]} skipped
   */
  /** @typedef {{ stat_date: string, value: number }} DayValue */
  document.getElementById('tabs').replaceWith(projectTabs(id, 'dashboard'));

  /** @param {string} sql */
  const query = (sql) => window.plat.warehouseQuery(id, { sql, layer: 'ads', max_rows: 10000 });
  /** @type {(label: string, value: string) => HTMLElement} */
  const stat = (label, value) => h('span', {}, `${label} `, h('b', {}, value));

  /**
   * A card drew `rows` rows (the UI test waits on data-rows).
   * @param {HTMLElement} card
   * @param {number} rows
   */
  function markLoaded(card, rows) {
    card.dataset.rows = String(rows);
    delete card.dataset.error;
  }
  /**
   * Marked so a reader (and the UI test) can tell a failed card from one still loading.
   * @param {HTMLElement} card
   * @param {Element} body
   * @param {Error} err
   */
  function markFailed(card, body, err) {
    if (err instanceof window.plat.PageLeft) throw err;
    card.dataset.error = err.message;
    body.replaceChildren(h('p', { class: 'bad' }, err.message));
  }

  /**
   * @param {DayValue[]} rows
   * @param {string} unit
   */
  function dataTable(rows, unit) {
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'data' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'stat_date'),
            h('th', { scope: 'col', class: 'num' }, 'value'),
          ),
        ),
        h(
          'tbody',
          {},
          rows
            .slice(-60)
            .map((r) =>
              h('tr', {}, h('td', {}, r.stat_date), h('td', { class: 'num' }, formatValue(r.value, unit))),
            ),
        ),
      ),
    );
  }

  /**
   * @param {HTMLElement} card
   * @param {Dataset} dataset
   * @param {string} kind the chart: line, bar, area, table or stat
   * @param {string} from
   * @param {string} to
   */
  async function renderSeries(card, dataset, kind, from, to) {
    const body = card.querySelector('.body');
    body.replaceChildren(h('span', { class: 'muted' }, 'querying…'));
    const sql = `SELECT CAST(stat_date AS VARCHAR) AS stat_date, CAST(value AS DOUBLE) AS value FROM (${dataset.sql}) AS m WHERE stat_date BETWEEN DATE '${from}' AND DATE '${to}' ORDER BY stat_date`;
    try {
      const res = await query(sql);
      // The query casts stat_date to text.
      const daily = res.rows.map((r) => ({
        stat_date: /** @type {string} */ (r.stat_date),
        value: Number(r.value),
      }));
      const total = daily.reduce((n, r) => n + r.value, 0);
      // Distinct counts and averages do not add up across days: no total for them.
      const additive = dataset.additive !== false;
      const unit = dataset.unit;
      // Sparse facts are charted by week or month: the spec gives the fact's events a day, and the
      // grain follows the range picked (a narrowed range gets a finer one).
      const rangeDays = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
      /** @type {ReturnType<typeof grainFor>} */
      const choice = dataset.grain
        ? grainFor(dataset.grain.events_per_day ?? 5, rangeDays)
        : { grain: 'day', reason: '' };
      const grain = choice.grain;
      const rows = bucketRows(daily, grain, additive);
      const per = { day: 'daily', week: 'weekly', month: 'monthly' }[grain];
      const stats = h(
        'div',
        { class: 'stats' },
        h(
          'span',
          { class: 'range' },
          rangeText(
            rows.length ? rows[0].stat_date : from,
            rows.length ? rows[rows.length - 1].stat_date : to,
          ),
        ),
        stat('days', String(daily.length)),
        additive ? stat('total', formatValue(total, unit)) : '',
        stat('daily avg', formatValue(daily.length ? total / daily.length : 0, unit)),
        stat(
          grain === 'day' ? 'max' : `${per} max`,
          formatValue(rows.length ? Math.max(...rows.map((r) => r.value)) : 0, unit),
        ),
        // Says which grain and why: "monthly: about 6.7 events a month".
        grain === 'day' ? '' : h('span', { class: 'grain' }, choice.reason),
      );
      if (!rows.length) body.replaceChildren(stats, h('p', { class: 'muted' }, 'no data in this date range'));
      else if (kind === 'stat')
        body.replaceChildren(
          stats,
          h('div', { class: 'big' }, formatValue(additive ? total : total / daily.length, unit)),
        );
      else if (kind === 'table') body.replaceChildren(stats, dataTable(daily, unit));
      else {
        const canvas = h('div', {
          class: 'chart',
          role: 'img',
          'aria-label': `${dataset.metric}: ${daily.length} days from ${from} to ${to}${grain === 'day' ? '' : `, ${rows.length} ${grain}s`}`,
        });
        body.replaceChildren(stats, canvas);
        draw(canvas, seriesOption(kind, rows, unit, from, to, grain), 220);
      }
      markLoaded(card, daily.length);
    } catch (err) {
      markFailed(card, body, err);
    }
  }

  /**
   * @param {HTMLElement} card
   * @param {Dataset} dataset
   * @param {string} from
   * @param {string} to
   */
  async function renderBreakdown(card, dataset, from, to) {
    const body = card.querySelector('.body');
    body.replaceChildren(h('span', { class: 'muted' }, 'querying…'));
    const ranked = `SELECT CAST(dimension AS VARCHAR) AS dimension, CAST(SUM(value) AS DOUBLE) AS value FROM (${dataset.sql}) AS m WHERE stat_date BETWEEN DATE '${from}' AND DATE '${to}' GROUP BY 1 ORDER BY 2 DESC, 1`;
    try {
      const res = await query(ranked);
      // The query casts the dimension to text.
      const rows = res.rows.map((r) => ({
        dimension: /** @type {string | null} */ (r.dimension),
        value: Number(r.value),
      }));
      const top = rows.slice(0, TOP_N);
      const rest = rows.slice(TOP_N);
      const others = rest.length
        ? { count: rest.length, value: rest.reduce((n, r) => n + r.value, 0) }
        : null;
      const total = rows.reduce((n, r) => n + r.value, 0);
      const stats = h(
        'div',
        { class: 'stats' },
        stat(dataset.dimension || 'values', String(rows.length)),
        stat('total', formatValue(total, dataset.unit)),
        top.length ? stat('top share', `${total ? Math.round((100 * top[0].value) / total) : 0}%`) : '',
      );
      if (!rows.length) body.replaceChildren(stats, h('p', { class: 'muted' }, 'no data in this date range'));
      else {
        const bars = top.length + (others ? 1 : 0);
        const canvas = h('div', {
          class: 'chart',
          role: 'img',
          'aria-label': `${dataset.metric}: top ${top.length} of ${rows.length}`,
        });
        body.replaceChildren(stats, canvas);
        draw(canvas, topOption(top, dataset.unit, others), 24 * bars + 16);
      }
      markLoaded(card, rows.length);
    } catch (err) {
      markFailed(card, body, err);
    }
  }

  // The dashboards report is described loosely in the document (each dataset's own columns).
  const client = await window.plat.http();
  const [project, spec] = await Promise.all([
    window.plat.project(id),
    call(client.GET('/v1/projects/{project_id}/dashboards', { params: { path: { project_id: id } } })).then(
      (answer) => /** @type {DashboardSpec} */ (/** @type {unknown} */ (answer)),
    ),
  ]);
  document.title = `Dashboard · ${project.prd ? project.prd.title : id} · plat`;
  $('#title').textContent = project.prd ? project.prd.title : id;
  // The source time the numbers show: the last successful refresh, else the first copy (docs/refresh.md#freshness).
  const asOf = project.refresh?.as_of ?? project.phase_details.data_ingestion?.ended_at;
  $('#subtitle').textContent =
    `${id} · ${project.status} · ${spec.datasets.length} metrics` +
    (asOf ? ` · data as of ${window.plat.fmt.time(asOf)}` : '');
  const firsts = spec.datasets
    .map((d) => d.first_date)
    .filter(Boolean)
    .sort();
  const lasts = spec.datasets
    .map((d) => d.last_date)
    .filter(Boolean)
    .sort();
  const form = /** @type {HTMLFormElement} */ ($('#filter'));
  form.from.value = firsts[0] || '';
  form.to.value = lasts[lasts.length - 1] || '';
  const byMetric = new Map(spec.datasets.map((d) => [d.metric, d]));
  /** @type {{ card: HTMLElement, dataset: Dataset, kind: string }[]} */
  const cards = [];
  const container = $('#dashboards');
  for (const d of spec.dashboards) {
    const grid = h('div', { class: 'cards' });
    for (const c of d.charts) {
      const dataset = byMetric.get(c.metric);
      const card = h(
        'div',
        { class: 'card panel', 'data-metric': c.metric, 'data-kind': dataset.kind || 'series' },
        h('h3', {}, c.title),
        h(
          'div',
          { class: 'muted' },
          `${c.metric}${dataset.unit ? ' · ' + dataset.unit : ''} · ${dataset.ads_table}`,
        ),
        h('div', { class: 'body' }),
        h('details', {}, h('summary', {}, 'SQL'), h('pre', {}, dataset.sql)),
      );
      grid.append(card);
      cards.push({ card, dataset, kind: c.chart });
    }
    container.append(
      h(
        'section',
        { class: 'dashboard' },
        h('h2', {}, d.title),
        h('p', { class: 'muted' }, d.description),
        grid,
      ),
    );
  }
  if (!spec.dashboards.length)
    container.append(h('p', { class: 'muted' }, 'No dashboard has a valid metric.'));
  if (spec.skipped.length)
    $('#skipped').append(
      h('h2', {}, 'Metrics not shown'),
      h(
        'ul',
        {},
        spec.skipped.map((s) => h('li', {}, `${s.metric}: ${s.reason}`)),
      ),
    );
  const refresh = () => {
    const from = form.from.value;
    const to = form.to.value;
    if (!ISO_DATE.test(from) || !ISO_DATE.test(to)) return;
    for (const { card, dataset, kind } of cards)
      if (dataset.kind === 'breakdown') renderBreakdown(card, dataset, from, to);
      else renderSeries(card, dataset, kind, from, to);
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    refresh();
  });
  refresh();
});
