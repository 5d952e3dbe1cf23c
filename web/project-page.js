// The project detail page: live phases with timers, the work log streaming over the WebSocket, the
// PRD, and the approve / modify / reject decision (docs/web-ui.md).
window.plat.page(async () => {
  const { call, h, fmt, badge, timer, projectTabs } = window.plat;
  const id = window.plat.projectId();
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  document.getElementById('tabs').replaceWith(projectTabs(id, 'detail'));

  const ENDED = window.plat.ENDED;
  let view = await window.plat.project(id);
  /** @type {string | null} the PRD shown, as JSON */
  let prdShownFor = null;
  let editing = false;

  let rendered = false;
  function render() {
    document.title = `${view.project_id} · plat`;
    $('#title').textContent = view.prd ? view.prd.title : view.project_id;
    $('#headline').replaceChildren(
      badge(view.status),
      ' ',
      h('code', {}, view.project_id),
      ` · ${fmt.label(view.phase)} · `,
      view.message,
    );
    renderPhases();
    renderDecision();
    renderPrd();
    renderAbout();
    $('#cancel').hidden = !['running', 'waiting_approval'].includes(view.status);
    renderFreshness();
    rendered = true;
  }

  // A built warehouse can be refreshed from its source: the panel loads once it is.
  let freshnessShown = false;
  function renderFreshness() {
    if (freshnessShown || view.status !== 'completed' || !view.warehouse) return;
    freshnessShown = true;
    $('#refresh-section').hidden = false;
    window.platRefresh.mountRefreshPanel($('#refresh'), id).catch((err) => {
      if (err instanceof window.plat.PageLeft) throw err;
      $('#refresh').replaceChildren(h('p', { class: 'bad' }, err.message));
    });
  }

  function renderPhases() {
    $('#phases').replaceChildren(
      // Object.entries types the keys as any string.
      .../** @type {[ApiProject['phase'], ApiProject['phases'][ApiProject['phase']]][]} */ (
        Object.entries(view.phases)
      ).map(([phase, status]) => {
        const d = view.phase_details[phase] || {};
        return h(
          'li',
          { dataset: { phase, status } },
          h('strong', {}, fmt.label(phase)),
          ' ',
          badge(status),
          h(
            'div',
            { class: 'muted' },
            d.started_at
              ? ['time ', timer(d.started_at, d.ended_at)]
              : status === 'skipped'
                ? 'skipped'
                : 'not started',
          ),
          d.message ? h('div', { class: 'muted' }, d.message) : '',
        );
      }),
    );
  }

  function renderPrd() {
    if (!view.prd) return;
    // Re-render only when the PRD changed (a modify decision): keeps open <details> as they are.
    const key = JSON.stringify(view.prd);
    if (key === prdShownFor) return;
    prdShownFor = key;
    $('#prd').replaceChildren(window.platPrd.renderPrd(view.prd, { headingLevel: 3 }));
  }

  function renderAbout() {
    const pairs = [
      ['Source', h('code', {}, view.source.jdbc_url), ` as ${view.source.username}`],
      ['Description', view.description || h('span', { class: 'muted' }, 'none')],
      ['Created', h('time', { datetime: view.created_at }, fmt.time(view.created_at))],
      ['Duration', fmt.duration(view.duration_seconds)],
      [
        'Cost',
        h('span', { id: 'cost-usd' }, fmt.usd(view.cost_usd)),
        ` · ${fmt.int(view.cost.project_total.total_tokens)} tokens`,
      ],
    ];
    if (view.decision)
      pairs.push([
        'Decision',
        `${view.decision.decision} at ${fmt.time(view.decision.decided_at)}`,
        view.decision.reason ? ` — ${view.decision.reason}` : '',
      ]);
    if (view.error)
      pairs.push([
        'Error',
        h('span', { class: 'bad' }, `${fmt.label(view.error.phase)}: ${view.error.message}`),
      ]);
    if (view.status === 'completed')
      pairs.push([
        'Results',
        h(
          'a',
          { href: `/ui/projects/${encodeURIComponent(id)}/result`, id: 'results-link' },
          'Open the results',
        ),
      ]);
    $('#about').replaceChildren(...pairs.flatMap(([k, ...v]) => [h('dt', {}, k), h('dd', {}, ...v)]));
  }

  // ---- decision ------------------------------------------------------------------------------
  const decisionBox = $('#decision');
  const decisionError = $('#decision-error');
  function renderDecision() {
    const waiting = view.status === 'waiting_approval';
    const wasHidden = decisionBox.hidden;
    decisionBox.hidden = !waiting;
    if (!waiting) {
      editing = false;
      $('#editor').replaceChildren();
      return;
    }
    // The decisions the analyst is unsure of sit in the PRD below: say how many, and link to them.
    const unsure = view.prd?.review?.length ?? 0;
    const reviewNote = $('#decision-review');
    reviewNote.hidden = unsure === 0;
    if (unsure)
      reviewNote.replaceChildren(
        `The analyst is unsure of ${unsure} decision${unsure === 1 ? '' : 's'}: `,
        h(
          'a',
          { href: '#prd-review' },
          unsure === 1 ? 'check it before approving' : 'check them before approving',
        ),
        '.',
      );
    // Opened live (hitl_required while the page is open): bring it into view. On load it is already
    // near the top, under the headline.
    if (wasHidden && rendered) {
      decisionBox.scrollIntoView({ block: 'start' });
      decisionBox.focus({ preventScroll: true });
    }
  }
  /** @param {Error & { status?: number }} err an `ApiError`, or any error */
  function decisionFailed(err) {
    if (err instanceof window.plat.PageLeft) throw err;
    if (err.status === 409) {
      // Someone else decided (or the project ended): say so where it stays visible, then show the
      // project as it is now.
      const notice = $('#notice');
      notice.replaceChildren(h('strong', {}, 'This PRD is no longer waiting for a decision: '), err.message);
      notice.hidden = false;
      return refresh();
    }
    decisionError.replaceChildren(h('strong', {}, err.message));
    decisionError.hidden = false;
  }
  /** @typedef {ApiBody<'/v1/projects/{project_id}/hitl/modify', 'post'>} ModifyBody the PRD as modified */
  /** @typedef {ApiBody<'/v1/projects/{project_id}/hitl/reject', 'post'>} RejectBody */
  /**
   * @overload
   * @param {'approve'} decision
   * @returns {Promise<void>}
   */
  /**
   * @overload
   * @param {'modify'} decision
   * @param {ModifyBody} body
   * @returns {Promise<void>}
   */
  /**
   * @overload
   * @param {'reject'} decision
   * @param {RejectBody} body
   * @returns {Promise<void>}
   */
  /**
   * @param {'approve' | 'modify' | 'reject'} decision
   * @param {ModifyBody | RejectBody} [body]
   */
  async function decide(decision, body) {
    decisionError.hidden = true;
    for (const b of decisionBox.querySelectorAll('button')) b.disabled = true;
    try {
      const client = await window.plat.http();
      const params = { path: { project_id: id } };
      // The overloads pair each decision with its body, which the ternary cannot follow.
      await call(
        decision === 'modify'
          ? client.POST('/v1/projects/{project_id}/hitl/modify', {
              params,
              body: /** @type {ModifyBody} */ (body),
            })
          : decision === 'reject'
            ? client.POST('/v1/projects/{project_id}/hitl/reject', {
                params,
                body: /** @type {RejectBody} */ (body) || {},
              })
            : client.POST('/v1/projects/{project_id}/hitl/approve', { params }),
      );
      $('#reject-form').hidden = true;
      $('#editor').replaceChildren();
      editing = false;
      await refresh();
    } finally {
      for (const b of decisionBox.querySelectorAll('button')) b.disabled = false;
    }
  }
  $('#approve').addEventListener('click', () => decide('approve').catch(decisionFailed));
  $('#reject').addEventListener('click', () => {
    $('#reject-form').hidden = false;
    /** @type {HTMLFormElement} */ ($('#reject-form')).reason.focus();
  });
  $('#reject-cancel').addEventListener('click', () => ($('#reject-form').hidden = true));
  $('#reject-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const reason = /** @type {HTMLFormElement} */ (e.target).reason.value.trim();
    decide('reject', reason ? { reason } : {}).catch(decisionFailed);
  });
  $('#modify').addEventListener('click', () => {
    if (editing || !view.prd) return;
    editing = true;
    const editor = window.platPrdEditor.createPrdEditor($('#editor'), view.prd, {
      onSubmit: async (prd) => {
        try {
          // The text as the person wrote it: the server checks it (400 / 422, shown in the editor).
          await decide('modify', /** @type {ModifyBody} */ (prd));
        } catch (err) {
          if (err.status === 409) decisionFailed(err);
          throw err;
        }
      },
      onCancel: () => {
        editing = false;
        $('#editor').replaceChildren();
      },
    });
    editor.focus();
  });

  $('#cancel').addEventListener('click', async () => {
    if (!confirm('Cancel this project? Stages in progress stop and nothing more is built.')) return;
    try {
      const client = await window.plat.http();
      await call(client.POST('/v1/projects/{project_id}/cancel', { params: { path: { project_id: id } } }));
      await refresh();
    } catch (err) {
      if (err instanceof window.plat.PageLeft) throw err;
      alert(err.message);
    }
  });

  // ---- live updates ---------------------------------------------------------------------------
  /** @type {ReturnType<typeof setTimeout> | null} */
  let pending = null;
  async function refresh() {
    view = await window.plat.project(id);
    render();
  }
  const refreshSoon = () => {
    clearTimeout(pending);
    pending = setTimeout(() => refresh().catch(() => {}), 250);
  };

  const log = $('#log');
  /** @param {ApiEvent} e */
  function addLogLine(e) {
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    log.append(
      h(
        'li',
        { dataset: { eventId: e.event_id, type: e.event_type } },
        h('time', { datetime: e.timestamp, class: 'muted' }, fmt.clockTime(e.timestamp)),
        h('span', { class: 'muted' }, fmt.label(e.phase)),
        h('span', { class: `msg ${e.status === 'failed' ? 'bad' : ''}` }, e.message),
      ),
    );
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  render();
  if (ENDED.includes(view.status)) {
    const client = await window.plat.http();
    const { events } = await call(
      client.GET('/v1/projects/{project_id}/events', {
        params: { path: { project_id: id }, query: { since: 0 } },
      }),
    );
    return events.forEach(addLogLine);
  }
  const stream = await window.plat.liveProject(id, {
    stateEl: $('#conn'),
    onHistory: (events) => events.forEach(addLogLine),
    onEvent: (e) => {
      addLogLine(e);
      if (e.event_type === 'cost_update' && e.cost) {
        const cost = $('#cost-usd');
        if (cost) cost.textContent = fmt.usd(e.cost.project_total.estimated_usd);
      }
      if (e.event_type !== 'log_entry') refreshSoon();
    },
  });
  // The UI tests cut the socket through this handle to check that nothing is lost or repeated.
  window.platProjectStream = stream;
});
