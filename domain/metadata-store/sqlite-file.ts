/**
 * Opens a SQLite-format file through libsql (whose prebuilt binary ships in the npm package) in WAL
 * mode, so several processes of one host read while another writes. One host only: WAL needs shared
 * memory, so such a file is never shared across hosts (docs/fleet.md#shared-state).
 */
import Database from 'libsql';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type SqliteFile = InstanceType<typeof Database>;

const open = new Map<string, SqliteFile>();

/** Opens (once per process) a SQLite-format database in WAL mode and applies its DDL statements. */
export function openSqliteFile(file: string, ddl: string[] = []): SqliteFile {
  const existing = open.get(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // Processes open the file at the same moment on start-up: wait for locks, do not fail.
  db.pragma('busy_timeout = 10000');
  retryWhileLocked(() => db.pragma('journal_mode = WAL'));
  for (const sql of ddl) retryWhileLocked(() => db.exec(sql));
  open.set(file, db);
  return db;
}

/** Forgets a file opened by {@link openSqliteFile} after closing it. */
export function forgetSqliteFile(file: string): void {
  open.delete(file);
}

/** Switching to WAL needs a moment of exclusive access, which busy_timeout does not cover. */
export function retryWhileLocked<T>(fn: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if (attempt >= 50 || !isLocked(err)) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** A SQLite "database is locked / busy" error (another process holds the write lock). */
export function isLocked(err: unknown): boolean {
  return /locked|busy/i.test((err as Error)?.message ?? '');
}
