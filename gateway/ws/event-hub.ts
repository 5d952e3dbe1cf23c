/**
 * The real-time channel (docs/requirements.md#events): `ws://host/ws?token=<ID token>`, then
 * `{"action":"subscribe","project_id":"...","since":<event_id>}`. Events come from the persisted
 * events table (written by the worker, on any host), so every gateway sees every event and `since`
 * replays what a client missed. A shared store announces new events as they commit and is polled
 * once a second besides; the embedded file is polled every 250 ms (docs/fleet.md#events-across-gateways).
 * The token (`?token=` or `Authorization: Bearer`) is verified before the upgrade: without a valid
 * one, or over the user's cap of connections, the request is answered on the HTTP level (401, 429)
 * and never becomes a WebSocket. Messages are at most 64 KiB, and only a few may wait to be handled.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { ProjectStore, StoredEvent } from '../../domain/metadata-store/project-store';
import type { IdTokens, TokenSubject } from '../auth/id-tokens';

/** Close codes a client can act on (1009, a message over {@link WS_MAX_PAYLOAD}, is ws's own). */
export const WS_CLOSE = { tooManyPending: 1008, tooManySubscriptions: 4429 } as const;

/** The largest message a client may send: a subscribe is well under 1 KiB. */
export const WS_MAX_PAYLOAD = 64 * 1024;

/** A client's messages waiting to be handled: beyond, it sends faster than it is served. */
export const WS_MAX_PENDING = 32;

/** Connections one user may hold open on one gateway (PLAT_WS_CONNECTIONS_PER_USER). */
export const DEFAULT_WS_CONNECTIONS_PER_USER = 20;

const clientMessage = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('subscribe'),
    project_id: z.string().min(1),
    since: z.number().int().min(0).optional(),
  }),
  z.object({ action: z.literal('unsubscribe'), project_id: z.string().min(1) }),
  z.object({ action: z.literal('ping') }),
]);

interface Client {
  socket: WebSocket;
  user: TokenSubject;
  /** project id → last event id sent */
  cursors: Map<string, number>;
  /** project id → the read in progress for it (one at a time, so nothing is sent twice) */
  reading: Map<string, Promise<void>>;
  /** projects asked for again while their read was in progress */
  again: Set<string>;
  /** the client's messages, handled one after another in the order they came */
  handled: Promise<void>;
  /** how many of its messages wait in `handled` */
  pending: number;
}

/** Polling periods: alone, and as the fallback of a store that announces new events. */
const POLL_MS = 250;
const FALLBACK_POLL_MS = 1000;

export interface EventHub {
  close(): void;
}

/** The ID token of an upgrade request: `?token=`, else `Authorization: Bearer`. */
function upgradeToken(req: IncomingMessage, url: URL): string | undefined {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  return /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
}

/** Answers an upgrade request on the HTTP level, in the platform's error format, and hangs up. */
function refuse(
  socket: Duplex,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ error: { code, message } });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** The state of one gateway's hub, shared by its upgrades, clients and polling. */
interface Hub {
  tokens: IdTokens;
  store: ProjectStore;
  wss: WebSocketServer;
  clients: Set<Client>;
  perUserCap: number;
  /** user id → connections open or being opened on this gateway */
  connections: Map<string, number>;
}

export function attachEventHub(
  server: Server,
  deps: { tokens: IdTokens; store: ProjectStore; pollMs?: number; connectionsPerUser?: number },
): EventHub {
  const hub: Hub = {
    tokens: deps.tokens,
    store: deps.store,
    wss: new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD }),
    clients: new Set(),
    perUserCap: deps.connectionsPerUser ?? DEFAULT_WS_CONNECTIONS_PER_USER,
    connections: new Map(),
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that hangs up while its token is checked must not take the process down.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!/^\/(v1\/)?ws\/?$/.test(url.pathname))
      return refuse(socket, 404, 'not_found', `no WebSocket at ${url.pathname.slice(0, 100)}`);
    void authorize(hub, req, socket, url).then((user) => user && upgrade(hub, req, socket, head, user));
  });

  const stopPolling = watchAndPoll(hub, deps.pollMs);
  return {
    close() {
      stopPolling();
      for (const c of hub.clients) c.socket.close(1001, 'server shutting down');
      hub.wss.close();
    },
  };
}

function release(connections: Map<string, number>, userId: string): void {
  const left = (connections.get(userId) ?? 1) - 1;
  if (left > 0) connections.set(userId, left);
  else connections.delete(userId);
}

/** The upgrade's user, or undefined once it has been refused (no token, a bad one, over the cap). */
async function authorize(
  hub: Hub,
  req: IncomingMessage,
  socket: Duplex,
  url: URL,
): Promise<TokenSubject | undefined> {
  const token = upgradeToken(req, url);
  if (!token) {
    refuse(socket, 401, 'unauthorized', 'sign in first: /ws?token=<ID token> or Authorization: Bearer');
    return undefined;
  }
  let user: TokenSubject;
  try {
    user = await hub.tokens.verify(token);
  } catch (err) {
    refuse(socket, 401, 'invalid_token', `invalid ID token: ${(err as Error).message}`.slice(0, 200));
    return undefined;
  }
  // Hung up while its token was checked: there is no one to serve.
  if (socket.destroyed) return undefined;
  const open = hub.connections.get(user.user_id) ?? 0;
  if (open >= hub.perUserCap) {
    refuse(socket, 429, 'too_many_connections', `at most ${hub.perUserCap} WebSocket connections per user`, {
      'Retry-After': '10',
    });
    return undefined;
  }
  // Counted from here, before the handshake, so concurrent upgrades of one user cannot pass the cap.
  hub.connections.set(user.user_id, open + 1);
  socket.once('close', () => release(hub.connections, user.user_id));
  return user;
}

function upgrade(hub: Hub, req: IncomingMessage, socket: Duplex, head: Buffer, user: TokenSubject): void {
  hub.wss.handleUpgrade(req, socket, head, (ws) => {
    const client: Client = {
      socket: ws,
      user,
      cursors: new Map(),
      reading: new Map(),
      again: new Set(),
      handled: Promise.resolve(),
      pending: 0,
    };
    hub.clients.add(client);
    // ws reports a message over maxPayload here before closing with 1009; nothing else to do.
    ws.on('error', () => {});
    ws.on('close', () => hub.clients.delete(client));
    ws.on('message', (data) => {
      if (client.pending >= WS_MAX_PENDING)
        return ws.close(WS_CLOSE.tooManyPending, `at most ${WS_MAX_PENDING} messages waiting`);
      handle(hub.store, client, data.toString());
    });
    send(ws, { type: 'welcome', user: user.username });
  });
}

function handle(store: ProjectStore, client: Client, text: string): void {
  client.pending += 1;
  client.handled = client.handled
    .then(() => onMessage(store, client, text))
    .catch(() => {})
    .finally(() => (client.pending -= 1));
}

async function onMessage(store: ProjectStore, client: Client, text: string): Promise<void> {
  let parsed;
  try {
    parsed = clientMessage.safeParse(JSON.parse(text));
  } catch {
    return send(client.socket, { type: 'error', message: 'messages must be JSON' });
  }
  if (!parsed.success) {
    return send(client.socket, {
      type: 'error',
      message: 'expected {"action":"subscribe","project_id":"...","since"?:n}',
    });
  }
  const msg = parsed.data;
  if (msg.action === 'ping') return send(client.socket, { type: 'pong' });
  if (msg.action === 'unsubscribe') {
    client.cursors.delete(msg.project_id);
    return send(client.socket, { type: 'unsubscribed', project_id: msg.project_id });
  }
  let project;
  try {
    project = await store.getProject(msg.project_id);
  } catch (err) {
    return send(client.socket, {
      type: 'error',
      project_id: msg.project_id,
      message: `could not read project ${msg.project_id}: ${(err as Error).message}`,
    });
  }
  if (!project || project.owner_id !== client.user.user_id) {
    return send(client.socket, {
      type: 'error',
      project_id: msg.project_id,
      message: `no project ${msg.project_id}`,
    });
  }
  if (client.cursors.size >= 50)
    return client.socket.close(WS_CLOSE.tooManySubscriptions, 'at most 50 subscriptions');
  client.cursors.set(msg.project_id, msg.since ?? 0);
  send(client.socket, {
    type: 'subscribed',
    project_id: msg.project_id,
    status: project.status,
    phase: project.phase,
  });
  await flush(store, client, msg.project_id);
}

/**
 * Sends the project's events after the client's cursor. One read per client and project at a
 * time, so nothing is sent twice; a request during a read runs once more after it.
 */
function flush(store: ProjectStore, client: Client, projectId: string): Promise<void> {
  const running = client.reading.get(projectId);
  if (running) {
    client.again.add(projectId);
    return running;
  }
  const read = (async () => {
    const after = client.cursors.get(projectId);
    if (after === undefined) return;
    const events = await store.eventsSince(projectId, after).catch(() => []);
    // Unsubscribed or subscribed anew meanwhile: this read's events are not the client's.
    if (client.cursors.get(projectId) !== after) return;
    for (const e of events) send(client.socket, toMessage(e));
    if (events.length) client.cursors.set(projectId, events[events.length - 1].event_id);
  })().finally(() => {
    client.reading.delete(projectId);
    if (client.again.delete(projectId)) void flush(store, client, projectId);
  });
  client.reading.set(projectId, read);
  return read;
}

function flushAll(hub: Hub, only?: string): void {
  for (const client of hub.clients)
    for (const projectId of client.cursors.keys())
      if (only === undefined || only === projectId) void flush(hub.store, client, projectId);
}

/** Flushes on each event the store announces and on a timer besides; returns what stops both. */
function watchAndPoll(hub: Hub, pollMsOption: number | undefined): () => void {
  let closed = false;
  let stopWatching: (() => void) | undefined;
  let pollMs = pollMsOption ?? POLL_MS;
  const watching = hub.store
    .watchEvents((projectId) => flushAll(hub, projectId))
    .then(
      (stop) => {
        // Closed while the listener was being set up: stop it at once.
        if (closed) return stop?.();
        stopWatching = stop;
        if (stop && pollMsOption === undefined) pollMs = FALLBACK_POLL_MS;
      },
      () => undefined,
    );
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    if (closed) return;
    flushAll(hub);
    timer = setTimeout(poll, pollMs);
    timer.unref();
  };
  void watching.then(poll);
  return () => {
    closed = true;
    clearTimeout(timer);
    stopWatching?.();
  };
}

function toMessage(e: StoredEvent) {
  return {
    type: 'event',
    event_id: e.event_id,
    project_id: e.project_id,
    event_type: e.event_type,
    phase: e.phase,
    status: e.status,
    message: e.message,
    timestamp: e.timestamp,
    ...(e.payload ?? {}),
  };
}

function send(ws: WebSocket, message: object): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
