// Renders a PRD readably: industry with the analyst's evidence, the four layers with their tables,
// facts, relationships, metrics, dashboards and quality rules (docs/web-ui.md).
// Top-level, so the other pages' scripts see its type when checked (web/tsconfig.json).
const platPrdLib = (function () {
  const { h, fmt } = window.plat;

  /** @typedef {ApiPrd['facts'][number]} Fact */
  /** @typedef {Fact['event_time_candidates'][number]} Candidate */
  /** @typedef {ApiPrd['layers']['ods'][number]} LayerTable a table of any layer (all four have one shape) */

  /**
   * @template T
   * @param {T[] | undefined} items
   * @param {(item: T) => PlatChild} render an item as its `<li>`
   */
  const list = (items, render) => (items && items.length ? h('ul', {}, items.map(render)) : none());
  const none = () => h('p', { class: 'muted' }, 'none');
  /** @param {string | undefined} text */
  const evidence = (text) => (text ? h('span', { class: 'muted' }, ' — ', text) : '');

  /**
   * Every date a fact could be dated by, with the figures that ranked it (docs/offline-analyst.md): the
   * chosen one first; to date the fact otherwise, copy another's table, column and path into
   * event_time in the editor.
   * @param {Fact} f
   */
  function eventTimeCandidates(f) {
    const candidates = f.event_time_candidates || [];
    if (candidates.length < 2) return '';
    // The one event_time names, which a person may have changed from the first.
    /** @param {Candidate} c */
    const chosen = (c) => f.event_time && c.table === f.event_time.table && c.column === f.event_time.column;
    /** @param {Candidate} c */
    const percent = (c) =>
      c.coverage === undefined ? 'not profiled' : `${Math.round(c.coverage * 1000) / 10}%`;
    return h(
      'details',
      { class: 'candidates' },
      h('summary', {}, `Event-time candidates (${candidates.length})`),
      table(
        ['Date', 'Set on', 'Range', 'Support', 'Reading'],
        candidates.map((c) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, `${c.table}.${c.column}`), chosen(c) ? ' (chosen)' : ''),
            h('td', {}, percent(c)),
            h('td', {}, c.first ? `${c.first} … ${c.last}` : ''),
            h('td', {}, c.support),
            h('td', {}, c.note),
          ),
        ),
      ),
    );
  }

  /**
   * The decisions the analyst is unsure of, weakest first (docs/offline-analyst.md#say-when-unsure):
   * shown above everything else for the person approving, each with what else it could be.
   * @param {ApiPrd['review']} items
   * @param {(text: string) => HTMLElement} hy a heading one level below the sections'
   */
  function reviewSection(items, hy) {
    if (!items.length) return '';
    return h(
      'section',
      { class: 'review', id: 'prd-review' },
      hy(`To check before approving (${items.length})`),
      list(items, (r) =>
        h(
          'li',
          { class: r.confidence < 0.5 ? 'warn' : '' },
          h('strong', {}, `${r.decision.replace(/_/g, ' ')} of `, h('code', {}, r.subject)),
          ` (confidence ${Math.round(r.confidence * 100)}%): ${r.evidence}`,
          r.alternatives.length
            ? h(
                'details',
                {},
                h('summary', {}, `Other readings (${r.alternatives.length})`),
                list(r.alternatives, (a) => h('li', {}, a)),
              )
            : '',
        ),
      ),
    );
  }

  /**
   * @param {string[]} head the columns' names
   * @param {PlatChild} rows
   */
  function table(head, rows) {
    return h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            head.map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h('tbody', {}, rows),
      ),
    );
  }

  /**
   * @param {string} layer
   * @param {LayerTable} t
   */
  function layerTable(layer, t) {
    return h(
      'details',
      { class: 'panel', dataset: { table: `${layer}.${t.name}` } },
      h(
        'summary',
        {},
        h('code', {}, t.name),
        ' ',
        h('span', { class: 'tag' }, `${t.fields.length} fields`),
        t.partition_by.length
          ? h('span', { class: 'tag' }, `partitioned by ${t.partition_by.join(', ')}`)
          : '',
        t.grain ? h('span', { class: 'muted' }, ' — one row per ', t.grain.replace(/^one /, '')) : '',
      ),
      t.description ? h('p', {}, t.description) : '',
      t.source_tables.length ? h('p', { class: 'muted' }, 'From ', t.source_tables.join(', ')) : '',
      // Tables read as one (a fact split by year or region), and the header family its lines join.
      [t.union, ...(t.joined_unions || [])]
        .filter(Boolean)
        .map((u, i) =>
          h(
            'p',
            { class: 'union' },
            i === 0 ? 'Read as one: ' : 'Joined, read as one: ',
            u.members.map((m) => `${m.table} (${m.parts.join(', ')})`).join(' + '),
            ` by ${u.part_columns.join(', ')}`,
            evidence(u.evidence),
          ),
        ),
      table(
        ['Field', 'Type', 'Source', 'Description'],
        t.fields.map((f) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, f.name)),
            h('td', {}, f.type),
            h('td', {}, f.source ? h('code', {}, f.source) : ''),
            h('td', {}, f.description),
          ),
        ),
      ),
    );
  }

  /**
   * The PRD as sections; `headingLevel` is the level of the section headings (2 by default).
   * @param {ApiPrd} prd
   * @param {{ headingLevel?: number }} [options]
   */
  function renderPrd(prd, { headingLevel = 2 } = {}) {
    /** @param {string} text */
    const hx = (text) => h('h' + headingLevel, {}, text);
    /**
     * A long section, folded: its heading is the summary.
     * @param {string} text
     * @param {...PlatChild} content
     */
    const fold = (text, ...content) =>
      h('details', { class: 'fold' }, h('summary', {}, h('h' + headingLevel, {}, text)), ...content);
    /** @param {string} text */
    const hy = (text) => h('h' + (headingLevel + 1), {}, text);
    const analyst =
      prd.analyst.kind === 'claude'
        ? `Claude (${prd.analyst.model})`
        : `the offline schema analyst (${prd.analyst.model}; no model calls)`;
    return h(
      'div',
      { class: 'prd' },
      h('p', {}, h('strong', {}, prd.title)),
      h('p', {}, prd.summary),
      h(
        'dl',
        { class: 'kv' },
        h('dt', {}, 'Written by'),
        h('dd', {}, analyst),
        h('dt', {}, 'Source'),
        h(
          'dd',
          {},
          h('code', {}, prd.source.database),
          `: ${fmt.int(prd.source.table_count)} tables, ${fmt.int(prd.source.total_rows)} rows`,
        ),
        h('dt', {}, 'Industry'),
        h(
          'dd',
          { id: 'prd-industry' },
          h('strong', {}, prd.industry.name),
          ` (confidence ${Math.round(prd.industry.confidence * 100)}%)`,
        ),
      ),
      prd.industry.evidence.length
        ? h(
            'details',
            {},
            h('summary', {}, 'Why this industry'),
            list(prd.industry.evidence, (e) => h('li', {}, e)),
          )
        : '',
      reviewSection(prd.review || [], hy),
      fold(
        `Source tables and their roles (${(prd.table_roles || []).length})`,
        table(
          ['Table', 'Role', 'Evidence'],
          (prd.table_roles || []).map((r) =>
            h('tr', {}, h('td', {}, h('code', {}, r.table)), h('td', {}, r.role), h('td', {}, r.evidence)),
          ),
        ),
      ),
      prd.facts && prd.facts.length
        ? [
            hy('Facts'),
            list(prd.facts, (f) =>
              h(
                'li',
                {},
                h('code', {}, f.table),
                ` (${f.kind})`,
                f.event_time
                  ? [
                      ', dated by ',
                      h('code', {}, `${f.event_time.table}.${f.event_time.column}`),
                      f.event_time.path.length ? ` via ${f.event_time.path.join(', ')}` : '',
                    ]
                  : ', a snapshot',
                f.measures.length ? h('div', { class: 'muted' }, f.measures.join('; ')) : '',
                f.event_time ? evidence(f.event_time.evidence) : '',
                eventTimeCandidates(f),
                evidence(f.evidence),
              ),
            ),
          ]
        : '',
      prd.relationships && prd.relationships.length
        ? [
            hy('Relationships'),
            list(prd.relationships, (r) =>
              h(
                'li',
                {},
                h('code', {}, `${r.table}(${r.columns.join(', ')})`),
                ' → ',
                h('code', {}, `${r.references_table}(${r.references_columns.join(', ')})`),
                h('span', { class: 'tag' }, r.origin),
                evidence(r.evidence),
              ),
            ),
          ]
        : '',
      hx('Warehouse layers'),
      /** @type {(keyof ApiPrd['layers'])[]} */ (['ods', 'dwd', 'dws', 'ads']).map((layer) => [
        hy(`${layer.toUpperCase()} (${prd.layers[layer].length} tables)`),
        prd.layers[layer].length ? prd.layers[layer].map((t) => layerTable(layer, t)) : none(),
      ]),
      fold(
        `Metrics (${prd.metrics.length})`,
        table(
          ['Metric', 'Description', 'ADS table', 'Kind', 'SQL'],
          prd.metrics.map((m) =>
            h(
              'tr',
              {},
              h('td', {}, h('code', {}, m.name), m.unit ? h('span', { class: 'tag' }, m.unit) : ''),
              h('td', {}, m.description),
              h('td', {}, h('code', {}, m.ads_table)),
              h('td', {}, m.kind, m.dimension ? ` by ${m.dimension}` : ''),
              h('td', {}, h('details', {}, h('summary', {}, 'SQL'), h('pre', {}, m.sql))),
            ),
          ),
        ),
      ),
      hx(`Dashboards (${prd.dashboards.length})`),
      list(prd.dashboards, (d) =>
        h(
          'li',
          {},
          h('strong', {}, d.title),
          ` (${d.chart}): `,
          d.metrics
            .map((m) => h('code', {}, m))
            .reduce((acc, el) => (acc.length ? [...acc, ', ', el] : [el]), []),
          d.description ? h('div', { class: 'muted' }, d.description) : '',
        ),
      ),
      fold(
        `Quality rules (${prd.quality_rules.length})`,
        table(
          ['Rule', 'Where', 'Kind', 'Severity'],
          prd.quality_rules.map((r) =>
            h(
              'tr',
              {},
              h('td', {}, r.name),
              h('td', {}, h('code', {}, `${r.layer}.${r.table}${r.column ? '.' + r.column : ''}`)),
              h(
                'td',
                {},
                r.kind,
                Object.keys(r.params || {}).length
                  ? h('span', { class: 'muted' }, ' ', JSON.stringify(r.params))
                  : '',
              ),
              h('td', {}, h('span', { class: r.severity === 'blocking' ? 'bad' : 'warn' }, r.severity)),
            ),
          ),
        ),
      ),
      refreshSection(prd.refresh || [], fold),
    );
  }

  /** How each table's changes are found, in words. */
  const DETECTED = {
    updated_at: 'a timestamp the source keeps current',
    key: 'a key that grows',
    full: 'reading it whole',
  };
  const DELETES = { key_set: 'keys compared', reread: 'with the re-read', not_seen: 'not seen' };

  /**
   * The refresh plan (docs/offline-analyst.md#change-detection): one row per source table.
   * @param {NonNullable<ApiPrd['refresh']>} plan
   * @param {(text: string, ...content: PlatChild[]) => HTMLElement} fold
   */
  function refreshSection(plan, fold) {
    if (!plan.length) return '';
    return fold(
      `How a refresh finds changes (${plan.length} tables)`,
      h(
        'div',
        { id: 'prd-refresh' },
        table(
          ['Table', 'Changes found by', 'Deleted rows', 'Evidence'],
          plan.map((r) =>
            h(
              'tr',
              { dataset: { table: r.table, detect: r.detect } },
              h('td', {}, h('code', {}, r.table)),
              h('td', {}, DETECTED[r.detect], r.column ? [' ', h('code', {}, r.column)] : ''),
              h('td', {}, DELETES[r.deletes]),
              h('td', {}, r.evidence || ''),
            ),
          ),
        ),
      ),
    );
  }

  return { renderPrd };
})();
window.platPrd = platPrdLib;
