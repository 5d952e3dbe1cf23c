/**
 * A source server is a tenant's: it may stall after the handshake or flood an answer
 * (docs/security.md#sources). A connection that reads to answer (the gateway's probe, exploring)
 * is bounded in what it receives and how long it waits: past either, the connection is destroyed,
 * the statement under way fails with {@link SourceMisbehavedError}, and nothing more is read.
 */
import type { Socket } from 'node:net';
import type { Connection } from 'mysql2/promise';

/** The source stalled or sent past its cap: the reason is in the message. */
export class SourceMisbehavedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceMisbehavedError';
  }
}

export interface SourceBounds {
  /** Bytes the connection may receive in all (the server's answers). */
  maxBytes: number;
  /** Longest the server may send nothing while a statement waits for it. */
  idleMs: number;
}

/**
 * Bounds `db`: runs `work` on it and answers its result, or throws {@link SourceMisbehavedError} once
 * the server sent more than `maxBytes` or nothing for `idleMs` while `work` waited (the connection is
 * then destroyed, so the driver buffers nothing more).
 */
export async function withBoundedSource<T>(
  db: Connection,
  bounds: SourceBounds,
  work: (db: Connection) => Promise<T>,
): Promise<T> {
  const socket = (db as unknown as { connection: { stream: Socket } }).connection.stream;
  let received = 0;
  let misbehaved: SourceMisbehavedError | undefined;
  let fail: (err: SourceMisbehavedError) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  const stop = (message: string) => {
    if (misbehaved) return;
    misbehaved = new SourceMisbehavedError(message);
    db.destroy();
    fail(misbehaved);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > bounds.maxBytes)
      stop(`the source sent more than ${megabytes(bounds.maxBytes)} to answer; it was cut off`);
  };
  const onIdle = () => stop(`the source sent nothing for ${bounds.idleMs / 1000} s while a statement waited`);
  socket.on('data', onData);
  socket.setTimeout(bounds.idleMs, onIdle);
  try {
    return await Promise.race([work(db), failed]);
  } catch (err) {
    throw misbehaved ?? err;
  } finally {
    socket.off('data', onData);
    socket.setTimeout(0);
    socket.off('timeout', onIdle);
  }
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1_000_000) * 10) / 10} MB`;
