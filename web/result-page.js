// The result page: links to the dashboard and data profile, the quality report, metric validation,
// the catalog with lineage (relations only at confidence ≥ 0.5), the modeling scripts and the
// pipeline templates to download (docs/web-ui.md#result).
window.plat.page(async () => {
  const { call, h, fmt, badge, projectTabs } = window.plat;
  const { download, tarArchive } = window.platDownloads;
  const id = window.plat.projectId();
  const enc = encodeURIComponent(id);
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  document.getElementById('tabs').replaceWith(projectTabs(id, 'result'));
  /** Relations below this confidence are not shown (the data-profile rule). */
  const MIN_CONFIDENCE = 0.5;

  // The reports as this page reads them: the API document describes them loosely. Each is written by
  // a domain type (named beside it); the data profile's is imported, the others pull in Node code.
  /**
   * domain/governance/quality-checks.ts (`QualityReport`)
   * @typedef {object} QualityReport
   * @property {number} rules_total
   * @property {number} rules_passed
   * @property {number} rules_failed
   * @property {number} rules_errored
   * @property {string[]} blocking_failed
   * @property {{ name: string, severity: string, table: string, column?: string, status: 'passed' | 'failed' | 'error', checked_rows: number, violations: number, message: string, samples: object[], sql: string }[]} results
   */
  /**
   * domain/warehouse/metric-validation.ts (`MetricValidationReport`)
   * @typedef {object} MetricValidationReport
   * @property {{ name: string, ads_table: string, valid: boolean, reason: string, row_count: number, first_date: string | null, last_date: string | null }[]} results
   */
  /**
   * domain/governance/catalog.ts (`Catalog`)
   * @typedef {object} Catalog
   * @property {string} engine
   * @property {{ database: string, table: string, layer: string, description: string, row_count: number, columns: object[], location: string, upstream: string[] }[]} tables
   * @property {{ from: string, to: string }[]} lineage
   */
  /**
   * activities/analysis/warehouse/warehouse-deps.ts (the modeling scripts)
   * @typedef {object} ModelingScripts
   * @property {{ layer: string, database: string, script: string, tables: object[] }[]} layers
   */
  /**
   * domain/pipeline/pipeline-templates.ts (`PipelineTemplates`)
   * @typedef {object} PipelineTemplates
   * @property {{ table: string, watermark: string }[]} incremental
   * @property {string[]} full_reload
   * @property {{ cron: string, timezone: string }} schedule
   * @property {{ path: string, content: string }[]} files
   */
  /** @typedef {import('../domain/advisor/data-profile-types').DataProfileReport} DataProfileReport */

  const view = await window.plat.project(id);
  document.title = `Result ${view.project_id} · plat`;
  $('#title').textContent = `Result: ${view.prd ? view.prd.title : view.project_id}`;
  $('#headline').replaceChildren(
    badge(view.status),
    ' ',
    h('code', {}, view.project_id),
    ` · ${view.message}`,
  );
  if (view.status !== 'completed') {
    $('#not-done').hidden = false;
    $('#not-done').textContent =
      view.status === 'running' || view.status === 'waiting_approval'
        ? 'The project is still running: each result appears here once its stage has run.'
        : `The project ended ${view.status}: only the stages that ran have results.`;
  }

  /**
   * A stage's report as the API answers it (`GET /v1/projects/{id}/{path}`), or `ApiError`.
   * @param {ApiReportPath} path a report of the stage table (a misspelt one fails `npm run typecheck`)
   */
  async function report(path) {
    const client = await window.plat.http();
    const route = /** @type {ApiReportRoute} */ (`/v1/projects/{project_id}/${path}`);
    return call(client.GET(route, { params: { path: { project_id: id } } }));
  }
  /**
   * A stage's report, or null with the reason shown in `el` when its stage has not run.
   * @param {ApiReportPath} path a report of the stage table (a misspelt one fails `npm run typecheck`)
   * @param {Element} el
   */
  async function artifact(path, el) {
    try {
      return await report(path);
    } catch (err) {
      if (err instanceof window.plat.PageLeft) throw err;
      el.replaceChildren(
        h('p', { class: 'muted' }, err.status === 409 ? `Not built yet: ${err.message}.` : err.message),
      );
      return null;
    }
  }
  /** @type {(head: string[], rows: PlatChild, attrs?: Record<string, string>) => HTMLElement} */
  const table = (head, rows, attrs = {}) =>
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        attrs,
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            head.map((c) => h('th', { scope: 'col', class: c.endsWith(' ') ? 'num' : '' }, c.trim())),
          ),
        ),
        h('tbody', {}, rows),
      ),
    );

  // ---- reports -------------------------------------------------------------------------------
  /** @param {ApiProject['phase']} phase */
  const done = (phase) => view.phases[phase] === 'completed';
  /** The reports this page (or the dashboard and profile pages) lays out; any other is offered as JSON. */
  const LAID_OUT = new Set(['quality', 'metrics', 'catalog', 'scripts', 'pipeline', 'dashboards', 'profile']);
  $('#reports').replaceChildren(
    h(
      'li',
      {},
      done('visualization')
        ? h('a', { href: `/ui/projects/${enc}/dashboard`, id: 'dashboard-link' }, 'Dashboard')
        : h('span', { class: 'muted' }, 'Dashboard (not built yet)'),
      view.warehouse && view.warehouse.visualization
        ? ` — ${view.warehouse.visualization.dashboards} dashboards, ${view.warehouse.visualization.charts} charts`
        : '',
    ),
    h(
      'li',
      {},
      done('analytics_advisor')
        ? h('a', { href: `/ui/projects/${enc}/profile`, id: 'profile-link' }, 'Data profile')
        : h('span', { class: 'muted' }, 'Data profile (not built yet)'),
      view.warehouse && view.warehouse.profile ? ` — scored ${view.warehouse.profile.overall_score}/100` : '',
    ),
    h(
      'li',
      {},
      h('a', { href: '#quality-title' }, 'Quality report'),
      ' · ',
      h('a', { href: '#catalog-title' }, 'Catalog'),
      ' · ',
      h('a', { href: '#scripts-title' }, 'Scripts'),
      ' · ',
      h('a', { href: '#pipeline-title' }, 'Pipeline templates'),
    ),
    // A report of the stage table this page does not lay out (a stage added since): its JSON.
    ...window.plat.REPORTS.filter((r) => !LAID_OUT.has(r.path)).map((r) =>
      h(
        'li',
        { dataset: { report: r.path } },
        done(r.phase)
          ? h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                onclick: async () =>
                  download(
                    `${id}-${r.path}.json`,
                    // The gateway's reports are the stage table's.
                    JSON.stringify(await report(/** @type {ApiReportPath} */ (r.path)), null, 2),
                    'application/json',
                  ),
              },
              `Download ${r.path}.json`,
            )
          : h('span', { class: 'muted' }, `${r.path} (not built yet)`),
        ` — ${r.summary}`,
      ),
    ),
  );

  const [quality, metrics, catalog, scripts, pipeline, profile] =
    /** @type {[QualityReport | null, MetricValidationReport | null, Catalog | null, ModelingScripts | null, PipelineTemplates | null, DataProfileReport | null]} */ (
      /** @type {unknown} */ (
        await Promise.all([
          artifact('quality', $('#quality')),
          artifact('metrics', $('#metrics')),
          artifact('catalog', $('#catalog')),
          artifact('scripts', $('#scripts')),
          artifact('pipeline', $('#pipeline')),
          done('analytics_advisor') ? report('profile').catch(/** @returns {null} */ () => null) : null,
        ])
      )
    );

  // ---- quality ---------------------------------------------------------------------------------
  if (quality) {
    const statusClass = { passed: 'ok', failed: 'bad', error: 'warn' };
    $('#quality').replaceChildren(
      h(
        'p',
        { id: 'quality-summary' },
        h('strong', {}, `${quality.rules_passed} of ${quality.rules_total} rules passed`),
        quality.rules_failed ? `, ${quality.rules_failed} failed` : '',
        quality.rules_errored ? `, ${quality.rules_errored} could not run` : '',
        quality.blocking_failed.length
          ? h('span', { class: 'bad' }, ` — blocking: ${quality.blocking_failed.join(', ')}`)
          : '',
      ),
      table(
        ['Rule', 'Where', 'Severity', 'Status', 'Violations ', 'Details'],
        quality.results.map((r) =>
          h(
            'tr',
            { dataset: { rule: r.name, status: r.status } },
            h('td', { 'data-label': 'Rule' }, r.name),
            h('td', { 'data-label': 'Where' }, h('code', {}, r.table + (r.column ? '.' + r.column : ''))),
            h('td', { 'data-label': 'Severity' }, r.severity),
            h('td', { 'data-label': 'Status', class: statusClass[r.status] }, r.status),
            h(
              'td',
              { 'data-label': 'Violations', class: 'num' },
              `${fmt.int(r.violations)} / ${fmt.int(r.checked_rows)}`,
            ),
            h(
              'td',
              { 'data-label': 'Details' },
              h(
                'details',
                {},
                h('summary', {}, r.message || 'SQL'),
                h('pre', {}, r.sql),
                r.samples.length ? h('pre', {}, JSON.stringify(r.samples, null, 2)) : '',
              ),
            ),
          ),
        ),
        { class: 'stack-on-phone' },
      ),
    );
  }

  // ---- metrics ---------------------------------------------------------------------------------
  if (metrics) {
    const valid = metrics.results.filter((m) => m.valid).length;
    $('#metrics').replaceChildren(
      h('p', {}, h('strong', {}, `${valid} of ${metrics.results.length} metrics valid`)),
      table(
        ['Metric', 'ADS table', 'Valid', 'Rows ', 'Dates', 'Why'],
        metrics.results.map((m) =>
          h(
            'tr',
            { dataset: { metric: m.name } },
            h('td', { 'data-label': 'Metric' }, h('code', {}, m.name)),
            h('td', { 'data-label': 'ADS table' }, h('code', {}, m.ads_table)),
            h('td', { 'data-label': 'Valid', class: m.valid ? 'ok' : 'bad' }, m.valid ? 'yes' : 'no'),
            h('td', { 'data-label': 'Rows', class: 'num' }, fmt.int(m.row_count)),
            h('td', { 'data-label': 'Dates' }, m.first_date ? `${m.first_date} – ${m.last_date}` : ''),
            h('td', { 'data-label': 'Why' }, m.reason),
          ),
        ),
        { class: 'stack-on-phone' },
      ),
    );
  }

  // ---- catalog and lineage -----------------------------------------------------------------------
  if (catalog) {
    /** @type {Map<string, string[]>} */
    const upstreamOf = new Map();
    for (const l of catalog.lineage) upstreamOf.set(l.to, [...(upstreamOf.get(l.to) || []), l.from]);
    const relations = profile ? profile.relations.filter((r) => r.confidence >= MIN_CONFIDENCE) : [];
    const layers = ['ods', 'dwd', 'dws', 'ads'];
    $('#catalog').replaceChildren(
      h(
        'p',
        { class: 'muted' },
        `${catalog.tables.length} tables on the ${catalog.engine} engine; lineage: each table's upstream tables.`,
      ),
      ...layers.map((layer) => {
        const tables = catalog.tables.filter((t) => t.layer === layer);
        if (!tables.length) return '';
        return h(
          'details',
          { class: 'panel', open: layer !== 'ods', dataset: { layer } },
          h('summary', {}, h('strong', {}, layer.toUpperCase()), ` — ${tables.length} tables`),
          table(
            ['Table', 'Rows ', 'Columns ', 'Upstream', 'Location'],
            tables.map((t) =>
              h(
                'tr',
                { dataset: { table: `${t.database}.${t.table}` } },
                h(
                  'td',
                  { 'data-label': 'Table' },
                  h('code', {}, t.table),
                  t.description ? h('div', { class: 'muted' }, t.description) : '',
                ),
                h('td', { 'data-label': 'Rows', class: 'num' }, fmt.int(t.row_count)),
                h('td', { 'data-label': 'Columns', class: 'num' }, String(t.columns.length)),
                h(
                  'td',
                  { 'data-label': 'Upstream', class: 'lineage' },
                  (upstreamOf.get(`${t.database}.${t.table}`) || t.upstream || []).map((u) =>
                    h('div', {}, h('code', {}, u)),
                  ),
                ),
                h('td', { 'data-label': 'Location' }, h('code', {}, t.location)),
              ),
            ),
            { class: 'stack-on-phone' },
          ),
        );
      }),
      h('h3', {}, `Relations between source tables (confidence ≥ ${MIN_CONFIDENCE})`),
      relations.length
        ? table(
            ['From', 'To', 'Confidence ', 'Match rate ', 'Evidence'],
            relations.map((r) =>
              h(
                'tr',
                { class: 'relation' },
                h('td', { 'data-label': 'From' }, h('code', {}, `${r.from_table}.${r.from_column}`)),
                h('td', { 'data-label': 'To' }, h('code', {}, `${r.to_table}.${r.to_column}`)),
                h('td', { 'data-label': 'Confidence', class: 'num' }, r.confidence.toFixed(2)),
                h('td', { 'data-label': 'Match rate', class: 'num' }, `${(r.match_rate * 100).toFixed(1)}%`),
                h('td', { 'data-label': 'Evidence' }, fmt.label(r.evidence)),
              ),
            ),
            { class: 'stack-on-phone', id: 'relations' },
          )
        : h(
            'p',
            { class: 'muted' },
            profile ? 'None at this confidence.' : 'Shown once the data profile is built.',
          ),
    );
  }

  // ---- scripts -------------------------------------------------------------------------------------
  if (scripts) {
    $('#scripts').replaceChildren(
      ...scripts.layers.map((l) =>
        h(
          'details',
          { class: 'panel', dataset: { layer: l.layer } },
          h(
            'summary',
            {},
            h('strong', {}, l.layer.toUpperCase()),
            ` — ${l.tables.length} tables into `,
            h('code', {}, l.database),
          ),
          h(
            'div',
            { class: 'actions' },
            h(
              'button',
              { type: 'button', class: 'secondary', onclick: () => download(`${l.database}.sql`, l.script) },
              `Download ${l.database}.sql`,
            ),
          ),
          h('pre', {}, l.script),
        ),
      ),
    );
  }

  // ---- pipeline ------------------------------------------------------------------------------------
  if (pipeline) {
    const dbtFiles = pipeline.files.filter((f) => f.path.startsWith('dbt/'));
    $('#pipeline').replaceChildren(
      h(
        'p',
        {},
        `A Temporal project that loads the source daily (${pipeline.schedule.cron} ${pipeline.schedule.timezone}): `,
        `${pipeline.incremental.length} tables incrementally, ${pipeline.full_reload.length} reloaded whole.`,
        dbtFiles.length ? ' The same warehouse as a dbt project is in dbt/.' : '',
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            id: 'download-pipeline',
            onclick: () => download(`${id}-pipeline.tar`, tarArchive(pipeline.files), 'application/x-tar'),
          },
          `Download all ${pipeline.files.length} files (.tar)`,
        ),
        dbtFiles.length
          ? h(
              'button',
              {
                type: 'button',
                id: 'download-dbt',
                // The dbt project at its own root (docs/dbt-export.md).
                onclick: () =>
                  download(
                    `${id}-dbt.tar`,
                    tarArchive(dbtFiles.map((f) => ({ ...f, path: f.path.slice('dbt/'.length) }))),
                    'application/x-tar',
                  ),
              },
              `Download the dbt project (${dbtFiles.length} files, .tar)`,
            )
          : '',
      ),
      h(
        'ul',
        { id: 'pipeline-files', class: 'files' },
        pipeline.files.map((f) =>
          h(
            'li',
            {},
            h(
              'button',
              {
                type: 'button',
                class: 'link-button',
                onclick: () => download(f.path.split('/').pop(), f.content),
              },
              f.path,
            ),
          ),
        ),
      ),
    );
  }
});
