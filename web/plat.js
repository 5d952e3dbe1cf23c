// plat's one client library, shared by every page (docs/web-ui.md): the session, the API with its
// error format, the live event stream, a safe DOM builder, formatting and the page frame.
// Top-level, so the other pages' scripts see its type when checked (web/tsconfig.json).
const platLib = (function () {
  const TOKEN_KEY = 'plat_token';

  // ---- session ----------------------------------------------------------------------------------

  /**
   * The token's claims, or null when it is missing or unreadable (the server still verifies it).
   * @param {string} token
   * @returns {{ username?: string, sub?: string, exp?: number, roles?: unknown } | null}
   */
  function claims(token) {
    try {
      const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      return JSON.parse(atob(part));
    } catch {
      return null;
    }
  }

  /**
   * The signed-in user `{username, expiresAt, operator}`, or null when signed out or the token has
   * expired. `operator` only decides what the page offers: the server checks the role itself.
   */
  function currentUser() {
    const token = localStorage.getItem(TOKEN_KEY);
    const c = token && claims(token);
    if (!c || (c.exp && c.exp * 1000 <= Date.now())) return null;
    return {
      username: c.username || c.sub,
      expiresAt: c.exp ? new Date(c.exp * 1000) : null,
      operator: Array.isArray(c.roles) && c.roles.includes('operator'),
    };
  }

  /** @typedef {NonNullable<ReturnType<typeof currentUser>>} User */

  /**
   * Sends the browser to sign-in, remembering this page so sign-in brings it back.
   * @param {'expired' | 'signin'} [reason] what the sign-in page says
   */
  function toSignIn(reason) {
    localStorage.removeItem(TOKEN_KEY);
    const next = location.pathname + location.search + location.hash;
    const query = new URLSearchParams({ next });
    if (reason) query.set('reason', reason);
    location.assign('/ui/signin?' + query.toString());
  }

  /** For pages that need a user: redirects to sign-in when there is none; returns the user. */
  function requireUser() {
    const user = currentUser();
    if (!user) {
      toSignIn(localStorage.getItem(TOKEN_KEY) ? 'expired' : 'signin');
      throw new PageLeft();
    }
    return user;
  }

  /** Thrown to stop a page's script after it sent the browser elsewhere. */
  class PageLeft extends Error {}

  function signOut() {
    localStorage.removeItem(TOKEN_KEY);
    location.assign('/ui/signin?reason=signedout');
  }

  // ---- API -----------------------------------------------------------------------------------------

  /** An API error in plat's format: `status`, `code`, `message` and `details` (e.g. one per field). */
  class ApiError extends Error {
    /**
     * @param {number} status the HTTP status, 0 when the gateway cannot be reached
     * @param {string} code
     * @param {string} message
     * @param {unknown} [details]
     * @param {unknown} [body]
     */
    constructor(status, code, message, details, body) {
      super(message);
      this.status = status;
      this.code = code;
      this.details = details;
      /** The whole response body (a 503 health check carries its checks there). */
      this.body = body;
    }
  }

  /**
   * What `request` takes: `fetch`'s method and headers, and a body sent as JSON unless it
   * is a string already.
   * @typedef {{ method?: string, headers?: Record<string, string>, body?: unknown }} RequestOptions
   */

  /**
   * JSON request without credentials (sign-in, sign-up, health).
   * @param {string} path
   * @param {RequestOptions} [options]
   */
  async function request(path, options) {
    const opts = Object.assign({}, options || {});
    if (opts.body !== undefined && typeof opts.body !== 'string') opts.body = JSON.stringify(opts.body);
    opts.headers = Object.assign(
      opts.body !== undefined ? { 'content-type': 'application/json' } : {},
      opts.headers || {},
    );
    let res;
    try {
      // The body is a string by now.
      res = await fetch(path, /** @type {RequestInit} */ (opts));
    } catch {
      throw new ApiError(0, 'unreachable', 'the plat gateway cannot be reached');
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw apiError(res.status, res.statusText, data);
    return data;
  }

  /**
   * An `ApiError` from an answer in plat's error format (`{"error": {code, message, details}}`).
   * @param {number} status
   * @param {string} statusText
   * @param {{ error?: Partial<ApiErrorBody['error']> } | null} [body] any answer: not every error is in plat's format
   */
  function apiError(status, statusText, body) {
    const e = (body && body.error) || {};
    return new ApiError(status, e.code || String(status), e.message || statusText, e.details, body);
  }

  /**
   * What a signed-in page makes of an error: sign-in again on 401, the operator message on 403.
   * @param {unknown} err
   */
  function signedInError(err) {
    if (!(err instanceof ApiError)) return err;
    if (err.status === 401) {
      toSignIn('expired');
      return new PageLeft();
    }
    if (err.status === 403 && err.code === 'forbidden')
      return new ApiError(403, 'forbidden', OPERATOR_ONLY, err.details, err.body);
    return err;
  }

  /** What a page that needs the operator role says to a tenant (the API answered 403). */
  const OPERATOR_ONLY =
    'This page needs the operator role, which your account does not have. ' +
    'Ask an operator to run `plat users grant <your username>`, then sign out and in again.';

  /** The session's token; without a live session the browser goes to sign-in. */
  function sessionToken() {
    const token = localStorage.getItem(TOKEN_KEY);
    if (token && currentUser()) return token;
    toSignIn('expired');
    throw new PageLeft();
  }

  // ---- the typed client ---------------------------------------------------------------------------

  /** openapi-fetch, served from its npm package by the gateway (a module, loaded on first use). */
  const OPENAPI_FETCH = '/vendor/openapi-fetch.mjs';

  /** @typedef {import('openapi-fetch').Client<ApiPaths, 'application/json'>} TypedClient */
  /** @type {Promise<TypedClient> | undefined} */
  let typedClient;

  /**
   * The API's client typed by its OpenAPI document (docs/architecture.md#one-contract-per-service):
   * paths, parameters and bodies are checked by `npm run typecheck`. It sends the session's token;
   * use it through {@link call}, which answers the body or throws `ApiError` in plat's format.
   * @returns {Promise<TypedClient>}
   */
  function http() {
    typedClient ??= /** @type {Promise<{ default: typeof import('openapi-fetch').default }>} */ (
      import(OPENAPI_FETCH)
    ).then(({ default: createClient }) =>
      createClient({
        baseUrl: location.origin,
        fetch: async (req) => {
          const token = localStorage.getItem(TOKEN_KEY);
          if (token) req.headers.set('authorization', 'Bearer ' + token);
          try {
            return await fetch(req);
          } catch {
            throw new ApiError(0, 'unreachable', 'the plat gateway cannot be reached');
          }
        },
      }),
    );
    return typedClient;
  }

  /**
   * The 2xx body of a typed call, or `ApiError` in plat's format; a rejected token sends the browser
   * to sign-in, and a route for operators only answers a tenant with {@link OPERATOR_ONLY}.
   * @template T
   * @param {Promise<{ data?: T, error?: ApiErrorBody, response: Response }>} pending
   * @returns {Promise<T>}
   */
  async function call(pending) {
    const { data, error, response } = await pending;
    if (response.ok) return data;
    throw signedInError(apiError(response.status, response.statusText, error));
  }

  /**
   * A project as the API describes it (the generated `Project` type).
   * @param {string} projectId
   * @returns {Promise<ApiProject>}
   */
  async function project(projectId) {
    sessionToken();
    const client = await http();
    return call(client.GET('/v1/projects/{project_id}', { params: { path: { project_id: projectId } } }));
  }

  // ---- warehouse queries --------------------------------------------------------------------------

  /**
   * The server runs a few of a user's queries at once and answers 429 past that
   * (docs/security.md#cost-limits): a page with many charts sends two at a time and, should another
   * page of the same user hold a slot, tries again shortly.
   */
  const QUERIES_AT_ONCE = 2;
  let queriesRunning = 0;
  /** @type {((value?: unknown) => void)[]} the waiting queries' `resolve` */
  const queriesWaiting = [];

  /**
   * A warehouse query (`POST /v1/projects/{id}/query`), queued as above.
   * @param {string} projectId
   * @param {ApiBody<'/v1/projects/{project_id}/query', 'post'>} body
   * @returns {Promise<ApiAnswer<'/v1/projects/{project_id}/query', 'post'>>}
   */
  async function warehouseQuery(projectId, body) {
    if (queriesRunning >= QUERIES_AT_ONCE) await new Promise((resolve) => queriesWaiting.push(resolve));
    else queriesRunning++;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          sessionToken();
          const client = await http();
          return await call(
            client.POST('/v1/projects/{project_id}/query', {
              params: { path: { project_id: projectId } },
              body,
            }),
          );
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 429 || attempt >= 30) throw err;
          await new Promise((resolve) => setTimeout(resolve, 300 + 200 * Math.min(attempt, 5)));
        }
      }
    } finally {
      const next = queriesWaiting.shift();
      if (next) next();
      else queriesRunning--;
    }
  }

  // ---- live events ------------------------------------------------------------------------------

  /**
   * Follows a project's events over the WebSocket. Each event reaches `onEvent` once, in order: after
   * a dropped connection it reconnects (1 s, 2 s, ... up to 15 s) and subscribes with `since` = the
   * last event id seen, so nothing is lost or repeated. `onState` hears 'connecting', 'live',
   * 'reconnecting' and 'closed'. Returns `{close(), drop()}`; `drop()` cuts the socket as a network
   * failure would (the UI tests use it).
   * @param {string} projectId
   * @param {{ since?: number, onEvent: (event: ApiEvent) => void, onState?: (state: StreamState) => void }} handlers
   */
  function followEvents(projectId, { since = 0, onEvent, onState }) {
    let last = since;
    /** @type {WebSocket | null} */
    let socket = null;
    let closed = false;
    let attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let timer = null;
    /** @param {StreamState} s */
    const state = (s) => onState && onState(s);

    function connect() {
      const token = localStorage.getItem(TOKEN_KEY);
      if (!token || !currentUser()) return toSignIn('expired');
      state(attempt ? 'reconnecting' : 'connecting');
      let opened = false;
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(`${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`);
      socket.onopen = () => {
        opened = true;
        socket.send(JSON.stringify({ action: 'subscribe', project_id: projectId, since: last }));
      };
      socket.onmessage = (msg) => {
        /** @type {{ type: 'subscribed' } | ({ type: 'event' } & ApiEvent)} */
        let data;
        try {
          data = JSON.parse(msg.data);
        } catch {
          return;
        }
        if (data.type === 'subscribed') {
          attempt = 0;
          state('live');
        } else if (data.type === 'event') {
          if (data.event_id <= last) return;
          last = data.event_id;
          onEvent(data);
        }
      };
      socket.onclose = () => {
        socket = null;
        if (closed) return state('closed');
        // The gateway refuses a rejected token before the upgrade, which a browser only sees as a
        // close that never opened: the API says whether the token is the reason (401 → sign-in).
        if (!opened)
          http()
            .then((client) => call(client.GET('/v1/projects', { params: { query: { limit: 1 } } })))
            .catch(() => {});
        attempt += 1;
        state('reconnecting');
        timer = setTimeout(connect, Math.min(15_000, 1000 * 2 ** (attempt - 1)));
      };
    }
    connect();
    return {
      close() {
        closed = true;
        clearTimeout(timer);
        if (socket) socket.close(1000, 'page closed');
      },
      drop() {
        if (socket) socket.close(4000, 'dropped for a test');
      },
      get lastEventId() {
        return last;
      },
    };
  }

  /**
   * The web pages' settings from `GET /v1/ui-config`, fetched once per page: among them a project's
   * phases in the order they run, with the names the pages show (the gateway's stage table).
   */
  /**
   * What the pages read from `GET /v1/ui-config` once `page()` starts them, as `window.plat.PHASES`
   * ([phase, label] pairs) and `window.plat.ENDED` (the statuses a project ends in).
   * @type {{ PHASES: [ApiProject['phase'], string][], ENDED: ApiUiConfig['ended_statuses'], REPORTS: ApiUiConfig['reports'] }}
   */
  const settings = { PHASES: [], ENDED: [], REPORTS: [] };

  /** @type {Promise<ApiUiConfig> | undefined} */
  let configRequest;
  /** @returns {Promise<ApiUiConfig>} */
  function uiConfig() {
    configRequest ??= http().then((client) => call(client.GET('/v1/ui-config')));
    return configRequest;
  }

  /** @typedef {'connecting' | 'live' | 'reconnecting' | 'closed'} StreamState */
  /** @type {Record<StreamState, string>} */
  const STATE_TEXT = { connecting: 'connecting…', live: '● live', reconnecting: 'reconnecting…', closed: '' };

  /**
   * A project's events as a page needs them: every stored event first (`onHistory`, oldest first),
   * then each new one live (`onEvent`), the connection state shown in `stateEl`. The stream closes
   * itself once the project has ended.
   * @param {string} projectId
   * @param {{ onHistory?: (events: ApiEvent[]) => void, onEvent: (event: ApiEvent) => void, stateEl?: Element | null }} handlers
   */
  async function liveProject(projectId, { onHistory, onEvent, stateEl }) {
    const client = await http();
    const { events } = await call(
      client.GET('/v1/projects/{project_id}/events', {
        params: { path: { project_id: projectId }, query: { since: 0 } },
      }),
    );
    if (onHistory) onHistory(events);
    const stream = followEvents(projectId, {
      since: events.length ? events[events.length - 1].event_id : 0,
      onState: (s) => stateEl && (stateEl.textContent = STATE_TEXT[s] || ''),
      onEvent: (e) => {
        onEvent(e);
        if (settings.ENDED.some((s) => e.event_type === `project_${s}`))
          setTimeout(() => stream.close(), 500);
      },
    });
    return stream;
  }

  // ---- DOM ------------------------------------------------------------------------------------------

  /** @typedef {PlatChild} Child */
  /**
   * An element's attributes: `true` sets an empty one, null, undefined and false none; `on<event>`
   * adds a listener; `dataset` sets `data-*` (numbers as text).
   * @typedef {{ [name: string]: string | number | boolean | null | undefined | EventListener | Record<string, string | number> }} Attrs
   */
  /**
   * The element `document.createElement(tag)` makes.
   * @template {string} K
   * @typedef {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement} HtmlElementOf
   */

  /**
   * Builds an element: `h('a', {href: '/x', class: 'y'}, 'text', child)`. Strings become text nodes,
   * so nothing from the API is ever parsed as HTML. `on<event>` attributes take functions.
   * @template {string} K
   * @param {K} tag
   * @param {Attrs | null} [attrs]
   * @param {...Child} children
   * @returns {HtmlElementOf<K>}
   */
  function h(tag, attrs, ...children) {
    const el = /** @type {HtmlElementOf<K>} */ (document.createElement(tag));
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    append(el, children);
    return el;
  }
  /**
   * @template {Element} E
   * @param {E} el
   * @param {Child[]} children
   * @returns {E}
   */
  function append(el, children) {
    // Read as unknown[]: `flat(Infinity)` over the nested `Child` type would never end typing.
    for (const c of /** @type {unknown[]} */ (children).flat(Infinity)) {
      if (c === undefined || c === null || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  /**
   * Builds an SVG element the same way as `h`.
   * @param {string} tag
   * @param {Record<string, string | number | null | undefined> | null} [attrs]
   * @param {...Child} children
   */
  function svg(tag, attrs, ...children) {
    const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {}))
      if (v !== undefined && v !== null) el.setAttribute(k, String(v));
    return append(el, children);
  }

  // ---- formatting ---------------------------------------------------------------------------------

  const fmt = {
    /** @param {number | null | undefined} n */
    usd(n) {
      const v = Number(n || 0);
      return v > 0 && v < 0.01 ? '$' + v.toFixed(4) : '$' + v.toFixed(2);
    },
    /** @param {number | null | undefined} n */
    int(n) {
      return Number(n || 0).toLocaleString('en-US');
    },
    /**
     * 0:42, 12:05, 1:02:33
     * @param {number} seconds
     */
    clock(seconds) {
      const s = Math.max(0, Math.floor(seconds));
      const hh = Math.floor(s / 3600);
      const mm = Math.floor((s % 3600) / 60);
      const ss = String(s % 60).padStart(2, '0');
      return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
    },
    /**
     * 42 s, 3 min 5 s, 2 h 4 min
     * @param {number | null | undefined} seconds
     */
    duration(seconds) {
      const s = Math.round(Number(seconds || 0));
      if (s < 60) return `${s} s`;
      if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
      return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
    },
    /**
     * A local date and time, to the minute (the full ISO time is the element's title).
     * @param {string | null | undefined} iso
     */
    time(iso) {
      if (!iso) return '';
      const d = new Date(iso);
      return d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
    },
    /** @param {string | null | undefined} iso */
    clockTime(iso) {
      return iso ? new Date(iso).toLocaleTimeString('en-GB') : '';
    },
    /** @param {string | null | undefined} name */
    label(name) {
      return String(name || '').replace(/_/g, ' ');
    },
  };

  /**
   * A stage timer: counts from `start` (ISO) every second until `end` is set, as spec'd for
   * `phase_changed` (the timer starts from its `started_at`).
   * @param {string | undefined} start
   * @param {string} [end]
   */
  function timer(start, end) {
    const el = h('span', { class: 'timer', dataset: { start: start || '', end: end || '' } });
    tickTimer(el);
    return el;
  }
  /** @param {HTMLElement | SVGElement} el a `timer`, or an SVG text with its data */
  function tickTimer(el) {
    const { start, end } = el.dataset;
    if (!start) return (el.textContent = '');
    const to = end ? Date.parse(end) : Date.now();
    el.textContent = fmt.clock((to - Date.parse(start)) / 1000);
  }
  setInterval(() => {
    for (const el of document.querySelectorAll('.timer[data-end=""]:not([data-start=""])'))
      tickTimer(/** @type {HTMLElement | SVGElement} */ (el));
  }, 1000);

  /**
   * A status badge.
   * @param {string} status
   */
  function badge(status) {
    return h('span', { class: `badge s-${status}` }, fmt.label(status));
  }

  // ---- page frame ---------------------------------------------------------------------------------

  /** @type {Promise<ApiAnswer<'/v1/alarms'>> | undefined} */
  let alarmsRead;
  /** The alarms (GET /v1/alarms), read once per page: the top bar and the page share the answer. */
  function alarms() {
    alarmsRead ??= http().then((client) => call(client.GET('/v1/alarms')));
    return alarmsRead;
  }

  /**
   * The top bar: brand, navigation (the operators' pages for operators), firing alarms, the user and sign-out.
   * @param {User | null} user
   */
  function topbar(user) {
    const operator = !user || user.operator;
    const nav = h(
      'nav',
      { 'aria-label': 'main' },
      h('a', { href: '/' }, 'Projects'),
      operator ? h('a', { href: '/ui/simulate' }, 'Policy simulator') : null,
      operator ? h('a', { href: '/ui/alarms' }, 'Alarms') : null,
    );
    const bar = h('header', { class: 'topbar' }, h('a', { class: 'brand', href: '/' }, 'plat'), nav);
    // Every page says when the platform is in alarm (docs/web-ui.md#alarms), to its operators;
    // quiet when it is not.
    if (user && operator)
      alarms()
        .then(({ firing, alarms: all }) => {
          if (!firing) return;
          const names = all.filter((a) => a.state === 'firing').map((a) => a.name);
          nav.append(
            h(
              'a',
              { class: 'alarm-pill', id: 'alarm-pill', href: '/ui/alarms', title: names.join(', ') },
              `${firing} alarm${firing === 1 ? '' : 's'} firing`,
            ),
          );
        })
        .catch(() => {});
    if (user) {
      bar.append(
        h(
          'div',
          { class: 'user' },
          h('span', { class: 'muted' }, 'Signed in as ', h('strong', {}, user.username)),
          h('button', { type: 'button', class: 'secondary', id: 'sign-out', onclick: signOut }, 'Sign out'),
        ),
      );
    }
    return bar;
  }

  /**
   * The tabs of a project's pages, the current one marked.
   * @param {string} projectId
   * @param {'detail' | 'monitor' | 'cost' | 'result' | 'dashboard' | 'profile'} current
   */
  function projectTabs(projectId, current) {
    const id = encodeURIComponent(projectId);
    const tabs = [
      ['detail', `/ui/projects/${id}`, 'Progress & PRD'],
      ['monitor', `/ui/projects/${id}/monitor`, 'Monitor'],
      ['cost', `/ui/projects/${id}/cost`, 'Cost'],
      ['result', `/ui/projects/${id}/result`, 'Result'],
      ['dashboard', `/ui/projects/${id}/dashboard`, 'Dashboard'],
      ['profile', `/ui/projects/${id}/profile`, 'Data profile'],
    ];
    return h(
      'nav',
      { class: 'tabs', 'aria-label': 'project pages' },
      tabs.map(([key, href, text]) =>
        h('a', { href, 'aria-current': key === current ? 'page' : undefined }, text),
      ),
    );
  }

  /** The project id of a page under /ui/projects/<id>/..., or ?project=<id>. */
  function projectId() {
    const m = /\/ui\/projects\/([^/]+)/.exec(location.pathname);
    return m ? decodeURIComponent(m[1]) : new URLSearchParams(location.search).get('project');
  }

  /**
   * Runs a page: `start(user)` after the frame is drawn; an error it throws is shown in the page
   * (a redirect to sign-in is not an error).
   * @param {(user: User) => unknown} start the signed-in user, or null on a page that needs none
   * @param {{ needsUser?: boolean }} [options]
   */
  function page(start, { needsUser = true } = {}) {
    // The typed client's module loads while the document does, not after (the page's first call needs it).
    http().catch(() => {});
    const run = async () => {
      let user;
      try {
        user = needsUser ? requireUser() : currentUser();
      } catch (err) {
        if (err instanceof PageLeft) return;
        throw err;
      }
      document.body.prepend(topbar(user));
      try {
        const config = await uiConfig();
        settings.PHASES = config.phases.map((p) => [p.phase, p.label]);
        settings.ENDED = config.ended_statuses;
        settings.REPORTS = config.reports;
        await start(user);
      } catch (err) {
        if (err instanceof PageLeft) return;
        const main = document.querySelector('main') || document.body;
        main.append(h('p', { class: 'error-box', role: 'alert' }, err.message || String(err)));
      }
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run);
    else run();
  }

  return {
    TOKEN_KEY,
    alarms,
    get PHASES() {
      return settings.PHASES;
    },
    get ENDED() {
      return settings.ENDED;
    },
    /** Every report a stage keeps (the stage table, from `GET /v1/ui-config`). */
    get REPORTS() {
      return settings.REPORTS;
    },
    uiConfig,
    ApiError,
    PageLeft,
    http,
    call,
    project,
    warehouseQuery,
    request,
    currentUser,
    requireUser,
    toSignIn,
    signOut,
    followEvents,
    liveProject,
    h,
    svg,
    fmt,
    badge,
    timer,
    tickTimer,
    topbar,
    projectTabs,
    projectId,
    page,
  };
})();
window.plat = platLib;
