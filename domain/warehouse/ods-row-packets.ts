/**
 * Runs a SELECT on a mysql2 connection and hands each result row to a callback as the raw bytes of
 * its text-protocol packet, skipping mysql2's conversion to JavaScript values (the costliest part of
 * reading a big table). mysql2 builds a row parser per result set; it is swapped for one that passes
 * the packet through. That hook relies on mysql2 internals (`Query#_rowParser`, pinned mysql2 3.x),
 * so a row that still arrives as a parsed value fails the read instead of being lost.
 */
import type { Connection as CallbackConnection } from 'mysql2';
import type { Connection } from 'mysql2/promise';

/** Receives the packet payload `buffer[start, end)`; the bytes are only valid during the call. */
export type RowPacketHandler = (buffer: Buffer, start: number, end: number) => void;

interface MysqlPacket {
  buffer: Buffer;
  offset: number;
  end: number;
}

/** The callback-style connection under a mysql2/promise connection. */
export function callbackConnection(conn: Connection): CallbackConnection {
  return (conn as unknown as { connection: CallbackConnection }).connection;
}

/**
 * Streams `sql`'s rows to `onRow`. `onRow` may pause the connection (`conn.pause()`) for
 * backpressure and resume it later. Resolves with the number of rows once the result has ended.
 */
export function queryRowPackets(
  conn: CallbackConnection,
  sql: string,
  onRow: RowPacketHandler,
  /** Rejects the read at once with the signal's reason; the caller then drops the connection. */
  signal?: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    let failed = false;
    // A destroyed connection does not always end its query: stopping must not wait for it.
    const stop = () => {
      failed = true;
      reject(signal!.reason);
    };
    if (signal?.aborted) return stop();
    signal?.addEventListener('abort', stop, { once: true });
    const passThrough = {
      next(packet: MysqlPacket): null {
        rows++;
        onRow(packet.buffer, packet.offset, packet.end);
        return null;
      },
    };
    const query = conn.query({ sql, rowsAsArray: true });
    Object.defineProperty(query, '_rowParser', { get: () => passThrough, set: () => {}, configurable: true });
    // The first row tells whether the hook took (a parsed row means it did not); later rows then cost
    // no listener call.
    query.once('result', (row: unknown) => {
      if (row !== null && !failed) {
        failed = true;
        reject(
          new Error('mysql2 parsed a row itself: the raw row reader does not support this mysql2 version'),
        );
      }
    });
    query.on('error', (err: Error) => {
      signal?.removeEventListener('abort', stop);
      failed = true;
      reject(err);
    });
    query.on('end', () => {
      signal?.removeEventListener('abort', stop);
      if (!failed) resolve(rows);
    });
  });
}
