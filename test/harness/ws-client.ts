/** A WebSocket client of a gateway's `/ws`, collecting every message, as a browser would follow projects. */
import { WebSocket } from 'ws';

export type WsMessage = Record<string, unknown>;

export function connectWs(base: string, token: string) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?token=${encodeURIComponent(token)}`);
  const messages: WsMessage[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString()) as WsMessage));
  const closed = new Promise<{ code: number; reason: string }>((r) =>
    ws.on('close', (code, reason) => r({ code, reason: reason.toString() })),
  );
  const opened = new Promise<void>((r, reject) => (ws.once('open', () => r()), ws.once('error', reject)));
  /** The first message `pred` accepts, waiting up to `timeoutMs`. */
  const waitFor = async (pred: (m: WsMessage) => boolean, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = messages.find(pred);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no such message; got ${JSON.stringify(messages.map((m) => m.event_type ?? m.type))}`);
  };
  return { ws, messages, closed, opened, waitFor };
}
