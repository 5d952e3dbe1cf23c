/**
 * Reader connections that all see one consistent snapshot of the source.
 *
 * InnoDB gives each `START TRANSACTION WITH CONSISTENT SNAPSHOT` the committed state at that instant,
 * so snapshots started on several connections agree only if nothing commits in between, which a
 * read-only client cannot otherwise verify. While one session holds `LOCK TABLES … READ` on the
 * tables to copy, no write to them can be pending or start (writers hold their table's metadata lock
 * until they commit), so snapshots started then are identical for those tables; the lock is released
 * as soon as they are started (milliseconds of blocked writes, never a wait on the copy). Mysqldump
 * and MySQL Shell coordinate parallel dumps the same way when FLUSH TABLES WITH READ LOCK is not
 * allowed. A user without the LOCK TABLES privilege (or a lock that cannot be had within
 * `lockWaitSeconds`, e.g. behind a long write transaction) gets one reader: slower, never inconsistent.
 */
import { randomUUID } from 'node:crypto';
import type { Connection } from 'mysql2/promise';
import { quoteMysqlIdent } from '../../shared/sql-quoting';
import { snapshotBinlogPosition, sourceWritePosition, type SnapshotPosition } from './source-position';

export interface SnapshotReaders {
  /** Connections sharing one snapshot (one when it could not be shared). */
  readers: Connection[];
  /** Why there is only one reader, when more were asked for. */
  singleReason?: string;
  /** Names this snapshot: tables read under the same id are one point in time. */
  id: string;
  /** The source's write position around the snapshot's start. */
  position: SnapshotPosition;
  /** Ends the snapshots and closes the readers; `failed` drops them without a goodbye. */
  close(failed?: boolean): Promise<void>;
}

export interface SnapshotOptions {
  /** Opens a new connection to the source (the readers, and one that holds the brief lock). */
  connect: () => Promise<Connection>;
  /** The tables that will be read. */
  tables: string[];
  /** How many readers are wanted. */
  parallel: number;
  lockWaitSeconds?: number;
}

/** Session settings of every reader. */
const READER_SESSION = [
  // Snapshots exist only under REPEATABLE READ.
  'SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ',
  // TIMESTAMP values are read in UTC, whatever the server's or the session's default zone.
  "SET SESSION time_zone = '+00:00'",
  // A reader waits while DuckDB catches up; the server must not drop it meanwhile.
  'SET SESSION net_write_timeout = 3600',
];
const START_SNAPSHOT = 'START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY';

export async function openSnapshotReaders(opts: SnapshotOptions): Promise<SnapshotReaders> {
  const readers: Connection[] = [];
  const close = async (failed = false) => {
    await Promise.all(
      readers.splice(0).map(async (r) => {
        if (failed) return r.destroy();
        await r.query('COMMIT');
        await r.end();
      }),
    );
  };
  const id = randomUUID();
  try {
    for (let i = 0; i < Math.max(1, opts.parallel); i++) {
      const reader = await opts.connect();
      readers.push(reader);
      for (const sql of READER_SESSION) await reader.query(sql);
    }
    const before = await sourceWritePosition(readers[0]);
    // MariaDB says exactly where the snapshot stands; elsewhere, the positions around its start.
    const started = async (): Promise<SnapshotPosition> => {
      const exact = await snapshotBinlogPosition(readers[0]);
      return exact
        ? { before: exact, after: exact }
        : { before, after: await sourceWritePosition(readers[0]) };
    };
    if (readers.length === 1) {
      await readers[0].query(START_SNAPSHOT);
      return { readers, id, position: await started(), close };
    }
    const coordinator = await opts.connect();
    try {
      const locked = await lockTables(coordinator, opts.tables, opts.lockWaitSeconds ?? 10);
      if (locked !== true) {
        await Promise.all(readers.splice(1).map((r) => r.end()));
        await readers[0].query(START_SNAPSHOT);
        return { readers, singleReason: locked, id, position: await started(), close };
      }
      for (const reader of readers) await reader.query(START_SNAPSHOT);
      await coordinator.query('UNLOCK TABLES');
    } finally {
      // Closing the connection also releases its lock, should a snapshot have failed to start.
      await coordinator.end().catch(() => coordinator.destroy());
    }
    return { readers, id, position: await started(), close };
  } catch (err) {
    await close(true);
    throw err;
  }
}

/** Takes the read lock on every table, or says why it could not. */
async function lockTables(conn: Connection, tables: string[], waitSeconds: number): Promise<true | string> {
  if (tables.length === 0) return 'no tables to read';
  try {
    await conn.query(`SET SESSION lock_wait_timeout = ${Math.max(1, Math.floor(waitSeconds))}`);
    await conn.query(`LOCK TABLES ${tables.map((t) => `${quoteMysqlIdent(t)} READ`).join(', ')}`);
    return true;
  } catch (err) {
    await conn.query('SET SESSION lock_wait_timeout = DEFAULT').catch(() => {});
    const e = err as { code?: string; sqlMessage?: string; message?: string };
    return `no shared snapshot (LOCK TABLES: ${e.code ?? e.sqlMessage ?? e.message})`;
  }
}
