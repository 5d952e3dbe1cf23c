/**
 * A MySQL server that misbehaves after the handshake, as a hostile source might: it accepts any
 * account, then either never answers a statement (`stall`) or answers with rows without end
 * (`flood`). Built on mysql2's own server side, so the wire format is the real one.
 */
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2';

export interface MisbehavingMysql {
  port: number;
  /** Bytes the server wrote in answers so far. */
  written(): number;
  close(): Promise<void>;
}

export async function startMisbehavingMysql(mode: 'stall' | 'flood'): Promise<MisbehavingMysql> {
  let written = 0;
  const sockets = new Set<{ destroy(): void }>();
  const server = mysql.createServer((conn) => {
    const c = conn as unknown as {
      serverHandshake(args: Record<string, unknown>): void;
      on(event: 'query', handler: (sql: string) => void): void;
      on(event: 'error', handler: () => void): void;
      writeColumns(columns: Record<string, unknown>[]): void;
      writeTextRow(values: string[]): void;
      stream: {
        destroy(): void;
        writable: boolean;
        write(b: Buffer): boolean;
        once(e: string, f: () => void): void;
      };
    };
    sockets.add(c.stream);
    c.on('error', () => {});
    c.serverHandshake({
      protocolVersion: 10,
      serverVersion: '8.0.36-hostile',
      connectionId: 1,
      statusFlags: 2,
      characterSet: 33,
      capabilityFlags: 0xf7ff,
      authCallback: (_params: unknown, done: (err: null) => void) => done(null),
    });
    c.on('query', () => {
      if (mode === 'stall') return;
      // Rows of 64 kB, written as fast as the client takes them, until it goes away; numbered
      // after the client's command, as a server does.
      (c as unknown as { sequenceId: number }).sequenceId = 1;
      c.writeColumns([
        {
          name: 'n',
          columnType: 253,
          columnLength: 65_535,
          characterSet: 33,
          flags: 0,
          decimals: 0,
          orgName: 'n',
          table: 't',
          orgTable: 't',
          schema: 'x',
          catalog: 'def',
        },
      ]);
      const row = 'x'.repeat(65_000);
      const pump = () => {
        while (c.stream.writable) {
          c.writeTextRow([row]);
          written += row.length;
          if (written > 2_000_000_000) return;
          if ((c.stream as unknown as { writableNeedDrain: boolean }).writableNeedDrain)
            return c.stream.once('drain', pump);
        }
      };
      pump();
    });
  });
  await new Promise<void>((resolve) =>
    (server.listen as unknown as (p: number, h: string, f: () => void) => void)(0, '127.0.0.1', () =>
      resolve(),
    ),
  );
  const port = (server as unknown as { _server: { address(): AddressInfo } })._server.address().port;
  return {
    port,
    written: () => written,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
