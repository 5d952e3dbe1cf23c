// The project page's freshness panel (docs/web-ui.md#freshness, docs/refresh.md): as of when the
// warehouse shows its source, the last refresh table by table, "Refresh now", a backfill of a range
// of days, and the schedule.
const platRefreshLib = (() => {
  const { call, h, fmt, badge } = window.plat;

  /** @typedef {ApiAnswer<'/v1/projects/{project_id}/refreshes'>} Refreshes */
  /** @typedef {NonNullable<ApiAnswer<'/v1/projects/{project_id}/refresh-schedule'>['schedule']>} Schedule */
  /** @typedef {ApiBody<'/v1/projects/{project_id}/refresh-schedule', 'put'>} ScheduleBody */

  /**
   * Fills `root` with the panel of project `projectId`, and keeps it current while a refresh runs.
   * @param {HTMLElement} root
   * @param {string} projectId
   */
  async function mountRefreshPanel(root, projectId) {
    const params = { params: { path: { project_id: projectId } } };
    const client = await window.plat.http();
    /** @type {ReturnType<typeof setTimeout> | null} */
    let polling = null;
    /** The refresh just asked for: followed until the project records its end. */
    let awaited = '';

    async function load() {
      const refreshes = await call(client.GET('/v1/projects/{project_id}/refreshes', params));
      const { schedule } = await call(client.GET('/v1/projects/{project_id}/refresh-schedule', params));
      const last = refreshes.last;
      // Started, but not yet recorded by the workflow: shown as running until it is.
      const pending = awaited !== '' && last?.refresh_id !== awaited;
      if (!pending && last?.status !== 'running') awaited = '';
      render(refreshes, schedule, pending);
      clearTimeout(polling);
      if (pending || last?.status === 'running') polling = setTimeout(() => load().catch(shown), 1000);
    }

    /** @param {Error} err */
    function shown(err) {
      if (err instanceof window.plat.PageLeft) throw err;
      const box = root.querySelector('#refresh-error');
      if (box) {
        box.replaceChildren(h('strong', {}, err.message));
        /** @type {HTMLElement} */ (box).hidden = false;
      }
    }

    /** @param {() => Promise<unknown>} action */
    const acting = (action) => () => action().then(load).catch(shown);

    /**
     * @param {Refreshes} refreshes
     * @param {Schedule | null} schedule
     * @param {boolean} pending a refresh was asked for and has not started yet
     */
    function render(refreshes, schedule, pending) {
      const last = refreshes.last;
      const running = pending || last?.status === 'running';
      root.replaceChildren(
        h(
          'p',
          { id: 'refresh-as-of' },
          'Data as of ',
          refreshes.as_of
            ? h('time', { datetime: refreshes.as_of }, fmt.time(refreshes.as_of))
            : h('span', { class: 'muted' }, 'unknown'),
          last ? ' · last refresh ' : ' · never refreshed',
          last
            ? [
                badge(last.status),
                ` ${fmt.time(last.started_at)} (${last.trigger}${last.range ? ` of ${last.range.from} to ${last.range.to}` : ''})`,
              ]
            : '',
          last?.error ? h('span', { class: 'bad' }, ` — ${last.error}`) : '',
        ),
        last?.tables?.length ? tablesOf(last.tables) : '',
        last?.recomputed ? recomputedOf(last.recomputed, last.rebuilt ?? {}) : '',
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              id: 'refresh-now',
              disabled: running,
              onclick: acting(async () => {
                awaited = (await call(client.POST('/v1/projects/{project_id}/refresh', params))).refresh_id;
              }),
            },
            running ? 'Refreshing…' : 'Refresh now',
          ),
        ),
        backfillForm(running),
        scheduleBox(schedule),
        h('div', { id: 'refresh-error', class: 'error-box', role: 'alert', hidden: true }),
      );
    }

    /** @param {NonNullable<NonNullable<Refreshes['last']>['tables']>} tables */
    function tablesOf(tables) {
      const head = ['Table', 'Read', 'Rows read', 'Before', 'After', 'Deleted', 'How'];
      return h(
        'table',
        { id: 'refresh-tables' },
        h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, c)))),
        h(
          'tbody',
          {},
          ...tables.map((t) =>
            h(
              'tr',
              { dataset: { table: t.table, read: t.read } },
              h('td', {}, t.table),
              h('td', {}, t.read === 'changes' ? 'changes only' : 'whole'),
              h('td', {}, fmt.int(t.rows_read)),
              h('td', {}, fmt.int(t.rows_before)),
              h('td', {}, fmt.int(t.rows_after)),
              h('td', {}, fmt.int(t.rows_deleted)),
              h('td', { class: 'muted' }, t.detail),
            ),
          ),
        ),
      );
    }

    /**
     * What the rebuild computed again of each modeled table (docs/refresh.md#only-affected-days).
     * @param {NonNullable<NonNullable<Refreshes['last']>['recomputed']>} recomputed
     * @param {Record<string, number>} rows
     */
    function recomputedOf(recomputed, rows) {
      // The words of recomputedText (shared/refresh-model.ts), which the log and the CLI use.
      /** @param {(typeof recomputed)[string]} scope */
      const said = (scope) =>
        scope.kind === 'kept'
          ? 'unchanged'
          : scope.kind === 'whole'
            ? `built whole: ${scope.reason}`
            : `${fmt.int(scope.days)} ${scope.days === 1 ? 'day' : 'days'} of ${scope.column} computed again`;
      return h(
        'table',
        { id: 'refresh-rebuilt' },
        h(
          'thead',
          {},
          h('tr', {}, ...['Modeled table', 'Rows', 'Computed again'].map((c) => h('th', {}, c))),
        ),
        h(
          'tbody',
          {},
          ...Object.entries(recomputed).map(([name, scope]) =>
            h(
              'tr',
              { dataset: { table: name, kind: scope.kind } },
              h('td', {}, name),
              h('td', {}, name in rows ? fmt.int(rows[name]) : ''),
              h('td', { class: scope.kind === 'whole' ? 'muted' : '' }, said(scope)),
            ),
          ),
        ),
      );
    }

    /**
     * Two days and a button: every table read again, those days recomputed (docs/refresh.md#backfill).
     * @param {boolean} running
     */
    function backfillForm(running) {
      /** @param {string} name @param {string} label */
      const day = (name, label) => h('label', {}, label, h('input', { type: 'date', name, required: true }));
      const form = h(
        'form',
        { id: 'backfill-form', class: 'schedule-form' },
        day('from', 'Rebuild days from'),
        day('to', 'to'),
        h('button', { type: 'submit', class: 'secondary', disabled: running }, 'Backfill'),
      );
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const value = (/** @type {string} */ name) =>
          /** @type {HTMLInputElement} */ (form.querySelector(`[name=${name}]`)).value;
        const body = { from: value('from'), to: value('to') };
        acting(async () => {
          awaited = (await call(client.POST('/v1/projects/{project_id}/backfill', { ...params, body })))
            .refresh_id;
        })();
      });
      return form;
    }

    /** @param {Schedule | null} schedule */
    function scheduleBox(schedule) {
      /**
       * @param {string} label
       * @param {string} name
       * @param {string} placeholder
       * @param {string | undefined} value
       */
      const field = (label, name, placeholder, value) =>
        h('label', {}, label, h('input', { name, placeholder, size: 12, value: value ?? '' }));
      const form = h(
        'form',
        { id: 'schedule-form', class: 'schedule-form', novalidate: true },
        field('Every', 'every', '6h', schedule?.every),
        field('or cron', 'cron', '0 6 * * *', schedule?.cron),
        field('in time zone', 'timezone', 'UTC', schedule?.timezone),
        h(
          'button',
          { type: 'submit', class: 'secondary' },
          schedule ? 'Change schedule' : 'Refresh on a schedule',
        ),
      );
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const value = (/** @type {string} */ name) =>
          /** @type {HTMLInputElement} */ (form.querySelector(`[name=${name}]`)).value.trim() || undefined;
        // As typed: the gateway says which rule a timing breaks.
        const body = /** @type {ScheduleBody} */ (
          /** @type {unknown} */ ({ every: value('every'), cron: value('cron'), timezone: value('timezone') })
        );
        acting(() => call(client.PUT('/v1/projects/{project_id}/refresh-schedule', { ...params, body })))();
      });
      if (!schedule) return h('div', { id: 'refresh-schedule' }, form);
      const timing = schedule.every
        ? `every ${schedule.every}`
        : `${schedule.cron} (${schedule.timezone ?? 'UTC'})`;
      return h(
        'div',
        { id: 'refresh-schedule', dataset: { paused: String(schedule.paused) } },
        h(
          'p',
          {},
          `Refreshes ${timing}`,
          schedule.paused ? h('strong', {}, ' — paused') : '',
          schedule.next_runs[0] && !schedule.paused ? ` · next ${fmt.time(schedule.next_runs[0])}` : '',
        ),
        form,
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              id: schedule.paused ? 'schedule-resume' : 'schedule-pause',
              onclick: acting(() =>
                call(
                  schedule.paused
                    ? client.POST('/v1/projects/{project_id}/refresh-schedule/resume', params)
                    : client.POST('/v1/projects/{project_id}/refresh-schedule/pause', params),
                ),
              ),
            },
            schedule.paused ? 'Resume' : 'Pause',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'danger',
              id: 'schedule-delete',
              onclick: acting(() =>
                call(client.DELETE('/v1/projects/{project_id}/refresh-schedule', params)),
              ),
            },
            'Stop the schedule',
          ),
        ),
      );
    }

    await load();
  }

  return { mountRefreshPanel };
})();
window.platRefresh = platRefreshLib;
