// The cost page: the project's cost record by agent and phase (tokens, model calls, price tier, USD)
// with the price table it is computed from, updated live by `cost_update` (docs/web-ui.md#cost).
window.plat.page(async () => {
  const { request, h, fmt, badge, projectTabs } = window.plat;
  const id = window.plat.projectId();
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  document.getElementById('tabs').replaceWith(projectTabs(id, 'cost'));
  /** @type {string[]} the cost record's phases are plain strings */
  const PHASE_ORDER = window.plat.PHASES.map(([phase]) => phase);

  /** @type {[ApiProject, ApiAnswer<'/v1/pricing'>]} */
  const [view, pricing] = await Promise.all([window.plat.project(id), request('/v1/pricing')]);
  document.title = `Cost ${view.project_id} · plat`;
  $('#title').textContent = `Cost: ${view.prd ? view.prd.title : view.project_id}`;
  $('#headline').replaceChildren(badge(view.status), ' ', h('code', {}, view.project_id));

  /** @param {ApiProject['cost']} cost */
  function render(cost) {
    const t = cost.project_total;
    const calls = cost.by_agent.reduce((n, a) => n + a.call_count, 0);
    const etlUsd = t.etl_dpu_hours * pricing.etl_usd_per_dpu_hour;
    $('#totals').replaceChildren(
      h('dt', {}, 'Estimated'),
      h('dd', {}, h('strong', { id: 'cost-total' }, fmt.usd(t.estimated_usd))),
      h('dt', {}, 'Tokens'),
      h(
        'dd',
        {},
        `${fmt.int(t.total_tokens)} (${fmt.int(t.input_tokens)} input, ${fmt.int(t.output_tokens)} output)`,
      ),
      h('dt', {}, 'Model calls'),
      h('dd', { id: 'calls-total' }, fmt.int(calls)),
      h('dt', {}, 'Managed ETL'),
      h('dd', {}, `${t.etl_dpu_hours.toFixed(3)} DPU-hours (${fmt.usd(etlUsd)})`),
      h('dt', {}, 'Updated'),
      h('dd', {}, h('time', { datetime: cost.updated_at }, fmt.time(cost.updated_at))),
    );
    const offline = view.prd && view.prd.analyst.kind === 'offline_schema_analyst';
    const note = $('#analyst-note');
    note.hidden = !(offline && calls === 0);
    note.textContent =
      'The PRD was written by the offline schema analyst, which makes no model calls: 0 tokens, $0. ' +
      'With ANTHROPIC_API_KEY (or Bedrock) set, Claude writes it and its tokens are priced here.';

    const rows = [...cost.by_agent].sort(
      (a, b) =>
        PHASE_ORDER.indexOf(a.phase) - PHASE_ORDER.indexOf(b.phase) ||
        a.agent_name.localeCompare(b.agent_name),
    );
    /** @type {(label: string, value: PlatChild, cls?: string) => HTMLElement} */
    const cell = (label, value, cls) => h('td', { 'data-label': label, class: cls }, value);
    $('#by-agent tbody').replaceChildren(
      ...rows.map((a) =>
        h(
          'tr',
          { dataset: { agent: a.agent_name, phase: a.phase } },
          cell('Agent', fmt.label(a.agent_name)),
          cell('Phase', fmt.label(a.phase)),
          cell('Model', a.model ? h('code', {}, a.model) : h('span', { class: 'muted' }, '—')),
          cell('Price tier', a.tier || h('span', { class: 'muted' }, '—')),
          cell('Input tokens', fmt.int(a.input_tokens), 'num'),
          cell('Output tokens', fmt.int(a.output_tokens), 'num'),
          cell('Model calls', fmt.int(a.call_count), 'num'),
          cell('USD', fmt.usd(a.estimated_usd), 'num'),
        ),
      ),
      h(
        'tr',
        { class: 'total' },
        cell('Agent', h('strong', {}, 'Total')),
        cell('Phase', ''),
        cell('Model', ''),
        cell('Price tier', ''),
        cell('Input tokens', fmt.int(t.input_tokens), 'num'),
        cell('Output tokens', fmt.int(t.output_tokens), 'num'),
        cell('Model calls', fmt.int(calls), 'num'),
        cell('USD', h('strong', {}, fmt.usd(t.estimated_usd)), 'num'),
      ),
    );
    const used = new Set(cost.by_agent.map((a) => a.tier).filter(Boolean));
    $('#prices tbody').replaceChildren(
      ...Object.entries(pricing.tiers).map(([tier, p]) =>
        h(
          'tr',
          { dataset: { tier } },
          h('td', {}, tier, used.has(tier) ? h('span', { class: 'tag' }, 'used') : ''),
          h('td', { class: 'num' }, `$${p.input.toFixed(2)}`),
          h('td', { class: 'num' }, `$${p.output.toFixed(2)}`),
        ),
      ),
    );
    $('#etl-price').textContent =
      `Managed ETL (AWS Glue): $${pricing.etl_usd_per_dpu_hour.toFixed(2)} per DPU-hour; 0 on the embedded engine.`;
  }
  render(view.cost);

  if (window.plat.ENDED.includes(view.status)) return;
  await window.plat.liveProject(id, {
    stateEl: $('#conn'),
    onEvent: (e) => e.event_type === 'cost_update' && e.cost && render(e.cost),
  });
});
