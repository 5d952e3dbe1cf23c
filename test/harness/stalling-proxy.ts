/**
 * A TCP proxy in front of a real server that stops passing the server's answers on a connection
 * once it has passed `afterBytes` of them: a source that stalls in the middle of a result, as a
 * hostile or broken one may (docs/security.md#sources). The client's side stays open and silent.
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface StallingProxy {
  port: number;
  /** Connections that have stalled so far. */
  stalled(): number;
  close(): Promise<void>;
}

export async function startStallingProxy(target: { host: string; port: number }, afterBytes: number) {
  const sockets = new Set<net.Socket>();
  let stalled = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let passed = 0;
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => {
      if (passed >= afterBytes) return;
      passed += chunk.length;
      client.write(chunk);
      if (passed >= afterBytes) stalled++;
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stalled: () => stalled,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  } satisfies StallingProxy;
}
