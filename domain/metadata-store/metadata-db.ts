/**
 * The metadata store (embedded default: a SQLite-format file through libsql, whose prebuilt binary
 * ships in the npm package). Shared by the gateway and the worker processes; WAL mode lets them
 * read while the other writes.
 */
import Database from 'libsql';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type MetadataDb = InstanceType<typeof Database>;

const MIGRATIONS: string[] = [
  `CREATE TABLE IF NOT EXISTS projects (
     project_id TEXT PRIMARY KEY,
     owner_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     status TEXT NOT NULL,
     view_json TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS projects_owner ON projects (owner_id, created_at)`,
  `CREATE TABLE IF NOT EXISTS events (
     event_id INTEGER PRIMARY KEY AUTOINCREMENT,
     project_id TEXT NOT NULL,
     event_key TEXT NOT NULL UNIQUE,
     event_type TEXT NOT NULL,
     phase TEXT NOT NULL,
     status TEXT NOT NULL,
     message TEXT NOT NULL,
     payload_json TEXT NOT NULL,
     timestamp TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS events_project ON events (project_id, event_id)`,
  `CREATE TABLE IF NOT EXISTS agent_logs (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     project_id TEXT NOT NULL,
     log_key TEXT NOT NULL UNIQUE,
     agent TEXT NOT NULL,
     phase TEXT NOT NULL,
     tool TEXT NOT NULL,
     params_json TEXT NOT NULL,
     summary TEXT NOT NULL,
     duration_ms INTEGER NOT NULL,
     input_tokens INTEGER NOT NULL DEFAULT 0,
     output_tokens INTEGER NOT NULL DEFAULT 0,
     timestamp TEXT NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS agent_logs_project ON agent_logs (project_id, id)`,
  `CREATE TABLE IF NOT EXISTS users (
     user_id TEXT PRIMARY KEY,
     username TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS memory_pipeline_state (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL,
     updated_at TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS project_artifacts (
     project_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     content_json TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (project_id, kind)
   )`,
  `CREATE TABLE IF NOT EXISTS alarm_notifications (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     alarm TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     status TEXT NOT NULL,
     starts_at TEXT NOT NULL,
     ends_at TEXT,
     summary TEXT NOT NULL,
     labels_json TEXT NOT NULL,
     received_at TEXT NOT NULL,
     UNIQUE (fingerprint, status, starts_at)
   )`,
  `CREATE INDEX IF NOT EXISTS alarm_notifications_alarm ON alarm_notifications (alarm, id)`,
];

const open = new Map<string, MetadataDb>();

/** Opens (once per process) and migrates the metadata database at `file`. */
export function openMetadataDb(file: string): MetadataDb {
  return openSqliteDb(file, MIGRATIONS);
}

/** Opens (once per process) a SQLite-format database in WAL mode and applies its migrations. */
export function openSqliteDb(file: string, migrations: string[]): MetadataDb {
  const existing = open.get(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  // Gateway and worker open the file at the same moment on start-up: wait for locks, do not fail.
  db.pragma('busy_timeout = 10000');
  retryWhileLocked(() => db.pragma('journal_mode = WAL'));
  for (const sql of migrations) retryWhileLocked(() => db.exec(sql));
  open.set(file, db);
  return db;
}

/** The metadata database of a data directory. */
export function metadataDbPath(dataDir: string): string {
  return path.join(dataDir, 'metadata', 'plat.db');
}

/** Switching to WAL needs a moment of exclusive access, which busy_timeout does not cover. */
function retryWhileLocked<T>(fn: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if (attempt >= 50 || !/locked|busy/i.test((err as Error).message)) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
