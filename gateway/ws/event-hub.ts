/**
 * The real-time channel (docs/requirements.md#events): `ws://host/ws?token=<ID token>`, then
 * `{"action":"subscribe","project_id":"...","since":<event_id>}`. Events come from the persisted
 * events table (written by the worker, on any host), so every gateway sees every event and `since`
 * replays what a client missed. A shared store announces new events as they commit and is polled
 * once a second besides; the embedded file is polled every 250 ms (docs/fleet.md#events-across-gateways).
 */
import type { IncomingMessage, Server } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { ProjectStore, StoredEvent } from '../../domain/metadata-store/project-store';
import type { IdTokens, TokenSubject } from '../auth/id-tokens';

/** Close codes a client can act on. */
export const WS_CLOSE = { invalidToken: 4401, tooManySubscriptions: 4429 } as const;

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
}

/** Polling periods: alone, and as the fallback of a store that announces new events. */
const POLL_MS = 250;
const FALLBACK_POLL_MS = 1000;

export interface EventHub {
  close(): void;
}

export function attachEventHub(
  server: Server,
  deps: { tokens: IdTokens; store: ProjectStore; pollMs?: number },
): EventHub {
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Set<Client>();

  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!/^\/(v1\/)?ws\/?$/.test(url.pathname)) return socket.destroy();
    wss.handleUpgrade(req, socket, head, async (ws) => {
      // Listen at once: a client may send its subscribe before the token check below finishes.
      const early: string[] = [];
      const session: { client?: Client } = {};
      ws.on('message', (data) =>
        session.client ? handle(session.client, data.toString()) : early.push(data.toString()),
      );
      ws.on('close', () => session.client && clients.delete(session.client));
      let user: TokenSubject;
      try {
        user = await deps.tokens.verify(url.searchParams.get('token') ?? '');
      } catch (err) {
        ws.close(WS_CLOSE.invalidToken, `invalid token: ${(err as Error).message}`.slice(0, 120));
        return;
      }
      // The socket closed while its token was checked: there is no client to serve.
      if (ws.readyState !== WebSocket.OPEN) return;
      const client: Client = {
        socket: ws,
        user,
        cursors: new Map(),
        reading: new Map(),
        again: new Set(),
        handled: Promise.resolve(),
      };
      session.client = client;
      clients.add(client);
      send(ws, { type: 'welcome', user: user.username });
      for (const text of early.splice(0)) handle(client, text);
    });
  });

  const handle = (client: Client, text: string) => {
    client.handled = client.handled.then(() => onMessage(client, text)).catch(() => {});
  };

  const onMessage = async (client: Client, text: string): Promise<void> => {
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
      project = await deps.store.getProject(msg.project_id);
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
    await flush(client, msg.project_id);
  };

  /**
   * Sends the project's events after the client's cursor. One read per client and project at a
   * time, so nothing is sent twice; a request during a read runs once more after it.
   */
  const flush = (client: Client, projectId: string): Promise<void> => {
    const running = client.reading.get(projectId);
    if (running) {
      client.again.add(projectId);
      return running;
    }
    const read = (async () => {
      const after = client.cursors.get(projectId);
      if (after === undefined) return;
      const events = await deps.store.eventsSince(projectId, after).catch(() => []);
      // Unsubscribed or subscribed anew meanwhile: this read's events are not the client's.
      if (client.cursors.get(projectId) !== after) return;
      for (const e of events) send(client.socket, toMessage(e));
      if (events.length) client.cursors.set(projectId, events[events.length - 1].event_id);
    })().finally(() => {
      client.reading.delete(projectId);
      if (client.again.delete(projectId)) void flush(client, projectId);
    });
    client.reading.set(projectId, read);
    return read;
  };

  const flushAll = (only?: string) => {
    for (const client of clients)
      for (const projectId of client.cursors.keys())
        if (only === undefined || only === projectId) void flush(client, projectId);
  };

  let closed = false;
  let stopWatching: (() => void) | undefined;
  let pollMs = deps.pollMs ?? POLL_MS;
  const watching = deps.store
    .watchEvents((projectId) => flushAll(projectId))
    .then(
      (stop) => {
        // Closed while the listener was being set up: stop it at once.
        if (closed) return stop?.();
        stopWatching = stop;
        if (stop && deps.pollMs === undefined) pollMs = FALLBACK_POLL_MS;
      },
      () => undefined,
    );
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    if (closed) return;
    flushAll();
    timer = setTimeout(poll, pollMs);
    timer.unref();
  };
  void watching.then(poll);

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      stopWatching?.();
      for (const c of clients) c.socket.close(1001, 'server shutting down');
      wss.close();
    },
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
