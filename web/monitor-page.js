// The monitor page: the agent DAG whose nodes change colour on `phase_changed`, stage timers, live
// cost from `cost_update`, attempts and failures per stage, and the workflow in Temporal's Web UI
// (docs/web-ui.md#monitor).
window.plat.page(async () => {
  const { call, h, svg, fmt, badge, timer, tickTimer, projectTabs } = window.plat;
  const id = window.plat.projectId();
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  document.getElementById('tabs').replaceWith(projectTabs(id, 'monitor'));

  const NODES = window.plat.PHASES;
  const COLOURS = {
    pending: ['#f4f6f9', '#b9c0cc'],
    running: ['#e3edfc', '#1f5fbf'],
    waiting_approval: ['#fdf0d5', '#c98a0b'],
    completed: ['#e3f4e8', '#137333'],
    failed: ['#fbe4e2', '#b3261e'],
    skipped: ['#f4f6f9', '#d0d5dd'],
  };
  const ENDED = window.plat.ENDED;

  let view = await window.plat.project(id);
  /** @type {Partial<ApiAnswer<'/v1/projects/{project_id}/stages'>>} only `stages` until the first read */
  let stages = { stages: [] };
  const config = await window.plat.uiConfig().catch(/** @returns {null} */ () => null);

  /**
   * Cost per phase, from the cost record's by-agent rows.
   * @param {ApiProject['phase']} phase
   */
  const phaseCost = (phase) =>
    view.cost.by_agent.filter((a) => a.phase === phase).reduce((n, a) => n + a.estimated_usd, 0);
  /**
   * The latest run of a phase's activity (a stage may run once; retries are its attempts).
   * @param {ApiProject['phase']} phase
   */
  const stageOf = (phase) => stages.stages.filter((s) => s.phase === phase).at(-1);

  function renderHeadline() {
    document.title = `Monitor ${view.project_id} · plat`;
    $('#title').textContent = `Monitor: ${view.prd ? view.prd.title : view.project_id}`;
    $('#headline').replaceChildren(
      badge(view.status),
      ' ',
      h('code', {}, view.project_id),
      ` · ${view.message}`,
    );
  }

  function renderCost() {
    const t = view.cost.project_total;
    const calls = view.cost.by_agent.reduce((n, a) => n + a.call_count, 0);
    $('#cost').replaceChildren(
      h('dt', {}, 'Estimated'),
      h('dd', {}, h('strong', { id: 'cost-total' }, fmt.usd(t.estimated_usd))),
      h('dt', {}, 'Tokens'),
      h(
        'dd',
        {},
        `${fmt.int(t.total_tokens)} (${fmt.int(t.input_tokens)} in, ${fmt.int(t.output_tokens)} out)`,
      ),
      h('dt', {}, 'Model calls'),
      h(
        'dd',
        {},
        fmt.int(calls),
        calls ? '' : h('span', { class: 'muted' }, ' — the offline analyst makes none'),
      ),
      h('dt', {}, 'Updated'),
      h('dd', {}, fmt.time(view.cost.updated_at)),
    );
  }

  function renderWorkflow() {
    const pairs = [
      ['Workflow id', h('code', {}, view.project_id)],
      ['Run time', h('span', {}, timer(view.created_at, ENDED.includes(view.status) ? view.updated_at : ''))],
    ];
    if (config && config.temporal_ui_url) {
      const url = `${config.temporal_ui_url}/namespaces/${encodeURIComponent(config.temporal_namespace)}/workflows/${encodeURIComponent(view.project_id)}`;
      pairs.push([
        'Temporal',
        h(
          'a',
          { href: url, id: 'temporal-link', target: '_blank', rel: 'noopener' },
          'Open in the Temporal Web UI',
        ),
      ]);
    }
    if (!stages.history_available && stages.stages && view.status !== 'running')
      pairs.push(['History', h('span', { class: 'muted' }, 'no longer kept by Temporal')]);
    $('#workflow').replaceChildren(...pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  }

  function renderDag() {
    const W = 200;
    const H = 78;
    const GAP = 44;
    // Four nodes a row on a wide screen; one column on a phone, where a row would be unreadable.
    const PER_ROW = $('#dag').clientWidth < 560 ? 1 : 4;
    /** @param {number} i */
    const pos = (i) => ({ x: 10 + (i % PER_ROW) * (W + GAP), y: 10 + Math.floor(i / PER_ROW) * (H + 60) });
    const width = 20 + PER_ROW * W + (PER_ROW - 1) * GAP;
    const rows = Math.ceil(NODES.length / PER_ROW);
    const height = 20 + rows * H + (rows - 1) * 60;
    const edges = [];
    for (let i = 0; i + 1 < NODES.length; i++) {
      const a = pos(i);
      const b = pos(i + 1);
      const d =
        a.y === b.y
          ? `M${a.x + W},${a.y + H / 2} L${b.x - 6},${b.y + H / 2}`
          : `M${a.x + W / 2},${a.y + H} L${a.x + W / 2},${a.y + H + 30} L${b.x + W / 2},${a.y + H + 30} L${b.x + W / 2},${b.y - 6}`;
      edges.push(
        svg('path', { d, fill: 'none', stroke: '#8a93a3', 'stroke-width': 2, 'marker-end': 'url(#arrow)' }),
      );
    }
    const nodes = NODES.map(([phase, label], i) => {
      const { x, y } = pos(i);
      const status = view.phases[phase];
      const [fill, stroke] = COLOURS[status] || COLOURS.pending;
      const d = view.phase_details[phase] || {};
      const s = stageOf(phase);
      const tries = s && s.attempts > 1 ? ` · ${s.attempts} attempts` : '';
      const clock = svg('tspan', {
        class: 'timer',
        'data-start': d.started_at || '',
        'data-end': d.ended_at || '',
      });
      tickTimer(clock);
      return svg(
        'g',
        { class: 'node', 'data-phase': phase, 'data-status': status },
        svg('title', {}, `${label}: ${fmt.label(status)}${tries}`),
        svg('rect', {
          x,
          y,
          width: W,
          height: H,
          rx: 8,
          fill,
          stroke,
          'stroke-width': status === 'running' ? 3 : 2,
          'stroke-dasharray': status === 'skipped' ? '6 4' : undefined,
        }),
        svg('text', { x: x + 12, y: y + 24, 'font-weight': 600, fill: '#1d2330', 'font-size': 15 }, label),
        svg(
          'text',
          { x: x + 12, y: y + 46, fill: stroke === '#b9c0cc' ? '#5b6475' : stroke, 'font-size': 13 },
          fmt.label(status),
          d.started_at ? ' · ' : '',
          clock,
        ),
        svg(
          'text',
          { x: x + 12, y: y + 66, fill: s && s.failures ? '#b3261e' : '#5b6475', 'font-size': 12 },
          s
            ? `${s.attempts || 1} attempt${s.attempts > 1 ? 's' : ''}${s.failures ? `, ${s.failures} failed` : ''}`
            : '',
          phaseCost(phase) ? ` · ${fmt.usd(phaseCost(phase))}` : '',
        ),
      );
    });
    const done = NODES.filter(([p]) => view.phases[p] === 'completed').length;
    $('#dag').replaceChildren(
      svg(
        'svg',
        {
          viewBox: `0 0 ${width} ${height}`,
          role: 'img',
          'aria-label': `Agent pipeline: ${done} of ${NODES.length} stages completed; now ${fmt.label(view.phase)} (${fmt.label(view.phases[view.phase])})`,
        },
        svg(
          'defs',
          {},
          svg(
            'marker',
            {
              id: 'arrow',
              viewBox: '0 0 10 10',
              refX: 8,
              refY: 5,
              markerWidth: 7,
              markerHeight: 7,
              orient: 'auto-start-reverse',
            },
            svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#8a93a3' }),
          ),
        ),
        edges,
        nodes,
      ),
    );
  }

  function renderStages() {
    $('#stages tbody').replaceChildren(
      ...NODES.map(([phase, label]) => {
        const status = view.phases[phase];
        const d = view.phase_details[phase] || {};
        const s = stageOf(phase);
        return h(
          'tr',
          { dataset: { phase, status } },
          h('td', { 'data-label': 'Stage' }, label),
          h('td', { 'data-label': 'Status' }, badge(status)),
          h('td', { 'data-label': 'Started' }, d.started_at ? fmt.clockTime(d.started_at) : ''),
          h(
            'td',
            { 'data-label': 'Time', class: 'num' },
            d.started_at ? timer(d.started_at, d.ended_at) : '',
          ),
          h('td', { 'data-label': 'Attempts', class: 'num attempts' }, s ? String(s.attempts) : ''),
          h(
            'td',
            { 'data-label': 'Failures', class: `num failures ${s && s.failures ? 'bad' : ''}` },
            s ? String(s.failures) : '',
          ),
          h('td', { 'data-label': 'Cost', class: 'num' }, phaseCost(phase) ? fmt.usd(phaseCost(phase)) : ''),
          h(
            'td',
            { 'data-label': 'Last failure', class: 'bad' },
            (s && s.last_failure) || (status === 'failed' && d.message) || '',
          ),
        );
      }),
    );
  }

  function render() {
    renderHeadline();
    renderCost();
    renderWorkflow();
    renderDag();
    renderStages();
  }

  /** @type {ReturnType<typeof setTimeout> | null} */
  let resized = null;
  window.addEventListener('resize', () => {
    clearTimeout(resized);
    resized = setTimeout(renderDag, 150);
  });

  async function refresh() {
    const client = await window.plat.http();
    [view, stages] = await Promise.all([
      window.plat.project(id),
      call(client.GET('/v1/projects/{project_id}/stages', { params: { path: { project_id: id } } })),
    ]);
    render();
  }
  await refresh();
  if (ENDED.includes(view.status)) return;

  /** @type {ReturnType<typeof setTimeout> | null} */
  let soon = null;
  const refreshSoon = () => {
    clearTimeout(soon);
    soon = setTimeout(() => refresh().catch(() => {}), 250);
  };
  // Retries leave no event: while the project runs, read the stages' attempts every few seconds.
  const poll = setInterval(() => {
    if (ENDED.includes(view.status)) return clearInterval(poll);
    refresh().catch(() => {});
  }, 5000);
  await window.plat.liveProject(id, {
    stateEl: $('#conn'),
    onEvent: (e) => {
      if (e.event_type === 'phase_changed' && e.phase_status) {
        // Colour the node at once; the refresh below brings attempts and cost.
        view.phases[e.phase] = e.phase_status;
        view.phase_details[e.phase] = Object.assign({}, view.phase_details[e.phase], {
          started_at: e.started_at,
          ended_at: e.ended_at,
        });
        view.phase = e.phase;
        renderDag();
        renderStages();
      }
      if (e.event_type === 'cost_update' && e.cost) {
        view.cost = e.cost;
        renderCost();
      }
      if (e.event_type !== 'log_entry') refreshSoon();
    },
  });
});
