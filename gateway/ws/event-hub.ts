/**
 * The real-time channel (docs/requirements.md#events): `ws://host/ws?token=<ID token>`, then
 * `{"action":"subscribe","project_id":"...","since":<event_id>}`. Events come from the persisted
 * events table (written by the worker), polled once for all subscribers, so every gateway process
 * sees every event and `since` replays what a client missed.
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
}

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
        session.client ? onMessage(session.client, data.toString()) : early.push(data.toString()),
      );
      ws.on('close', () => session.client && clients.delete(session.client));
      let user: TokenSubject;
      try {
        user = await deps.tokens.verify(url.searchParams.get('token') ?? '');
      } catch (err) {
        ws.close(WS_CLOSE.invalidToken, `invalid token: ${(err as Error).message}`.slice(0, 120));
        return;
      }
      const client: Client = { socket: ws, user, cursors: new Map() };
      session.client = client;
      clients.add(client);
      send(ws, { type: 'welcome', user: user.username });
      for (const text of early.splice(0)) onMessage(client, text);
    });
  });

  const onMessage = (client: Client, text: string) => {
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
    const project = deps.store.getProject(msg.project_id);
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
    flush(client, msg.project_id);
  };

  const flush = (client: Client, projectId: string) => {
    const after = client.cursors.get(projectId);
    if (after === undefined) return;
    const events = deps.store.eventsSince(projectId, after);
    for (const e of events) send(client.socket, toMessage(e));
    if (events.length) client.cursors.set(projectId, events[events.length - 1].event_id);
  };

  const timer = setInterval(() => {
    for (const client of clients) for (const projectId of client.cursors.keys()) flush(client, projectId);
  }, deps.pollMs ?? 250);
  timer.unref();

  return {
    close() {
      clearInterval(timer);
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
