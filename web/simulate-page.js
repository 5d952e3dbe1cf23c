// The policy simulator page (docs/search-lifecycle.md#simulating-a-policy): a form for the policy, the
// days and the ingest profile; POST /v1/search/simulate; the bytes of each tier per day as a stacked
// chart, the summary, and the timeline of every index.
window.plat.page(async () => {
  const { call, h, fmt, ApiError } = window.plat;
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  const form = /** @type {HTMLFormElement} */ ($('#sim-form'));
  /** Timeline rows drawn at most; the JSON answer has them all. */
  const MAX_ROWS = 2000;
  /**
   * The answer, read as the domain type the simulation returns: the API document describes it with
   * open objects (as the CLI reads it, gateway/cli/simulate-command.ts).
   * @typedef {import('../domain/search-ops/lifecycle/simulate/simulation-result').SimulationResult} SimulationResult
   */
  /**
   * What the API says is wrong: its 400 lists each field, its 422 the policy's `problems`.
   * @typedef {{ path?: string, field?: string, message: string }} Problem
   */
  const COLORS = ['#d9480f', '#f59f00', '#2f6fde', '#5c7cfa', '#868e96', '#12b886', '#ae3ec9'];

  /** @param {number | null | undefined} n */
  const bytes = (n) => {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
    let v = Number(n || 0);
    let u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u === 0 ? `${Math.round(v)} B` : `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
  };
  /** @param {{ day: number, time: string }} e */
  const when = (e) => `day ${e.day} ${e.time}`;

  function showChoice() {
    const choice = form.policy_choice.value;
    $('#stored-label').hidden = choice !== 'stored';
    $('#pasted-label').hidden = choice !== 'pasted';
    if (choice === 'tieredPolicy') form.managed_domain.checked = true;
  }
  form.policy_choice.addEventListener('change', showChoice);

  /** The request body, or an Error naming the field to fix. */
  function body() {
    const choice = form.policy_choice.value;
    /** @param {string} name a field of the form */
    const num = (name) => Number(form[name].value);
    /** @type {ApiBody<'/v1/search/simulate', 'post'>} */
    const out = {
      days: num('days'),
      profile: {
        docs_per_day: num('docs_per_day'),
        [form.size_kind.value]: num('size'),
        growth_percent: num('growth_percent'),
      },
      pass_interval: form.pass_interval.value.trim(),
      managed_domain: form.managed_domain.checked,
      shards: num('shards'),
      replicas: num('replicas'),
    };
    if (choice === 'stored') out.policy_id = form.policy_id.value.trim();
    else if (choice === 'pasted') {
      let doc;
      try {
        doc = JSON.parse(form.policy.value);
      } catch (err) {
        throw new Error(`The policy is not JSON: ${err.message}`, { cause: err });
      }
      out.policy = doc && typeof doc.policy === 'object' ? doc.policy : doc;
    } else out.policy_id = choice;
    return out;
  }

  /** @param {Error & { details?: (Problem[] & { problems?: undefined }) | { problems?: Problem[] } }} err */
  function showError(err) {
    const box = $('#sim-error');
    const problems = (err.details && err.details.problems) || (Array.isArray(err.details) ? err.details : []);
    box.replaceChildren(
      err.message,
      problems.length
        ? h(
            'ul',
            {},
            problems.map((p) => h('li', {}, `${p.path || p.field || ''}: ${p.message}`)),
          )
        : null,
    );
    box.hidden = false;
  }

  /** @param {SimulationResult} r */
  function drawChart(r) {
    const tiers = r.tiers.filter((t) => r.daily.some((d) => d.tiers.some((x) => x.tier === t)));
    const el = $('#chart');
    el.style.height = '320px';
    const chart = window.echarts.getInstanceByDom(el) || window.echarts.init(el, null, { renderer: 'svg' });
    chart.setOption(
      {
        animation: false,
        grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
        legend: { top: 0 },
        tooltip: {
          trigger: 'axis',
          valueFormatter: bytes,
        },
        xAxis: { type: 'category', name: 'day', data: r.daily.map((d) => d.day) },
        yAxis: { type: 'value', axisLabel: { formatter: bytes } },
        series: tiers.map((tier, i) => ({
          type: 'line',
          name: tier,
          stack: 'bytes',
          areaStyle: { opacity: 0.35 },
          showSymbol: false,
          lineStyle: { width: 1 },
          color: COLORS[i % COLORS.length],
          data: r.daily.map((d) => (d.tiers.find((x) => x.tier === tier) || {}).total_bytes || 0),
        })),
      },
      true,
    );
    if (!el.dataset.resizes) {
      el.dataset.resizes = '1';
      new ResizeObserver(() => chart.resize()).observe(el);
    }
  }

  /** @param {SimulationResult} r */
  function show(r) {
    $('#result').hidden = false;
    const p = r.profile;
    $('#headline').textContent =
      `${r.policy_id} on ${r.alias}-* for ${r.days} days: ${fmt.int(p.docs_per_day)} documents a day, ` +
      `passes every ${r.pass_interval} (${fmt.int(r.stats.passes_run)} of ${fmt.int(r.stats.passes)} had something to do).`;
    const s = r.summary;
    const kv = [
      ['Indices created', fmt.int(s.indices_created)],
      ['Indices deleted', fmt.int(s.indices_deleted)],
      ['First rollover', s.first_rollover ? `${when(s.first_rollover)} (${s.first_rollover.index})` : 'none'],
      ['First deletion', s.first_deletion ? `${when(s.first_deletion)} (${s.first_deletion.index})` : 'none'],
      [
        'Peak',
        `day ${s.peak.day}: ${s.peak.indices} indices, ${bytes(s.peak.primary_bytes)} primary, ${bytes(s.peak.total_bytes)} with replicas`,
      ],
      [
        'Steady state',
        s.steady_state
          ? `from day ${s.steady_state.from_day}: ` +
            s.steady_state.tiers
              .map((t) => `${t.tier} ${t.indices} indices, ${bytes(t.total_bytes)}`)
              .join('; ')
          : `none: nothing is deleted within ${r.days} days`,
      ],
    ];
    if (r.truncated) kv.push(['Stopped early', r.truncated.reason]);
    if (s.failures) kv.push(['Failed attempts', String(s.failures)]);
    $('#summary').replaceChildren(...kv.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
    drawChart(r);
    const rows = r.timeline.slice(0, MAX_ROWS);
    $('#timeline-note').textContent =
      r.timeline.length > MAX_ROWS
        ? `The first ${MAX_ROWS} of ${fmt.int(r.timeline.length)} events (the API's answer has them all).`
        : `${fmt.int(r.timeline.length)} events.`;
    $('#timeline tbody').replaceChildren(
      ...rows.map((e) =>
        h(
          'tr',
          { class: e.kind === 'failed' ? 'bad' : undefined },
          h('td', { 'data-label': 'When' }, when(e)),
          h('td', { 'data-label': 'Index' }, e.index),
          h('td', { 'data-label': 'Event' }, fmt.label(e.kind)),
          h(
            'td',
            { 'data-label': 'Detail', class: 'condition' },
            e.kind === 'transitioned'
              ? `${e.from} → ${e.to}`
              : e.kind === 'rolled_over'
                ? `to ${e.new_index}`
                : e.kind === 'failed'
                  ? `${e.action}: ${e.cause}`
                  : e.kind === 'created'
                    ? e.managed
                      ? 'managed'
                      : 'not claimed by the policy: unmanaged'
                    : e.action || '',
          ),
        ),
      ),
    );
    $('#notes').replaceChildren(...r.notes.map((n) => h('li', {}, n)));
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    $('#sim-error').hidden = true;
    const status = $('#sim-status');
    const submit = /** @type {HTMLButtonElement} */ ($('#sim-submit'));
    let request;
    try {
      request = body();
    } catch (err) {
      return showError(err);
    }
    submit.disabled = true;
    status.textContent = 'simulating…';
    try {
      const client = await window.plat.http();
      const answer = await call(client.POST('/v1/search/simulate', { body: request }));
      const r = /** @type {SimulationResult} */ (/** @type {unknown} */ (answer));
      show(r);
      $('#result').dataset.events = String(r.timeline.length);
      status.textContent = `done in ${fmt.int(r.stats.elapsed_ms)} ms`;
    } catch (err) {
      if (err instanceof window.plat.PageLeft) throw err;
      status.textContent = '';
      showError(err instanceof ApiError || err instanceof Error ? err : new Error(String(err)));
    } finally {
      submit.disabled = false;
    }
  });
  showChoice();
});
