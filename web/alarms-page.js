// The alarms page: every alarm's state and condition, and one alarm's firings and resolutions
// (docs/web-ui.md#alarms). Alertmanager reports changes to the gateway; the page re-reads every 15 s.
window.plat.page(async () => {
  const { call, h, fmt, badge } = window.plat;
  /** @param {string} sel an element of the page's HTML */
  const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
  let selected = new URLSearchParams(location.search).get('alarm');

  /** @param {string | null} iso */
  const when = (iso) => (iso ? h('time', { datetime: iso }, fmt.time(iso)) : '—');

  /** @param {string} name */
  async function showHistory(name) {
    selected = name;
    history.replaceState(null, '', `?alarm=${encodeURIComponent(name)}`);
    const client = await window.plat.http();
    const { alarm, history: notes } = await call(
      client.GET('/v1/alarms/{name}', { params: { path: { name } } }),
    );
    $('#history-section').hidden = false;
    $('#history-title').textContent = `History of ${alarm.name}`;
    $('#history-hint').textContent = `Look first at: ${alarm.hint}.`;
    $('#history tbody').replaceChildren(
      ...(notes.length
        ? notes.map((n) =>
            h(
              'tr',
              {},
              h('td', { 'data-label': 'Status' }, badge(n.status)),
              h('td', { 'data-label': 'Started' }, when(n.starts_at)),
              h('td', { 'data-label': 'Ended' }, when(n.ends_at)),
              h('td', { 'data-label': 'Summary' }, n.summary),
            ),
          )
        : [h('tr', {}, h('td', { colspan: 4, class: 'muted' }, 'Never fired.'))]),
    );
  }

  async function refresh() {
    const client = await window.plat.http();
    const { firing, alarms } = await call(client.GET('/v1/alarms'));
    $('#headline').textContent = firing
      ? `${firing} of ${alarms.length} alarms firing`
      : `All ${alarms.length} alarms ok`;
    $('#headline').className = firing ? 'error-box' : 'muted';
    $('#alarms tbody').replaceChildren(
      ...alarms.map((a) =>
        h(
          'tr',
          { id: `alarm-${a.name}`, 'aria-current': a.name === selected ? 'true' : undefined },
          h(
            'td',
            { 'data-label': 'Alarm' },
            h('button', { type: 'button', class: 'link-button', onclick: () => showHistory(a.name) }, a.name),
          ),
          h('td', { 'data-label': 'State' }, badge(a.state)),
          h('td', { 'data-label': 'Fires when', class: 'condition' }, a.condition),
          h('td', { 'data-label': 'Since' }, when(a.since)),
          h(
            'td',
            { 'data-label': 'Latest', class: 'condition' },
            a.summary || h('span', { class: 'muted' }, 'never fired'),
          ),
        ),
      ),
    );
    if (selected) await showHistory(selected);
  }

  await refresh();
  setInterval(() => refresh().catch(() => {}), 15_000);
});
