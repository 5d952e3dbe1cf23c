/**
 * The memory service's own database (SQLite format through libsql, `.data/memory/memory.db`):
 * memories with their vectors (embedded store), the change history, and idempotency keys. History
 * and keys live here whichever store holds the vectors.
 */
import * as path from 'node:path';
import { openSqliteFile, type SqliteFile } from '../../metadata-store/sqlite-file';

export type MemoryDb = SqliteFile;

const MIGRATIONS = [
  `CREATE TABLE IF NOT EXISTS memories (
     id TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     agent_id TEXT,
     run_id TEXT,
     memory TEXT NOT NULL,
     hash TEXT NOT NULL,
     metadata_json TEXT NOT NULL,
     category TEXT,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     embedder TEXT NOT NULL,
     vector BLOB NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS memories_user ON memories (user_id, created_at)`,
  `CREATE INDEX IF NOT EXISTS memories_hash ON memories (user_id, hash)`,
  // Start-up asks for memories another embedder made: without this, a scan of every row.
  `CREATE INDEX IF NOT EXISTS memories_embedder ON memories (embedder)`,
  `CREATE TABLE IF NOT EXISTS memory_history (
     id TEXT PRIMARY KEY,
     memory_id TEXT NOT NULL,
     event TEXT NOT NULL,
     old_memory TEXT,
     new_memory TEXT,
     created_at TEXT NOT NULL,
     seq INTEGER NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS memory_history_memory ON memory_history (memory_id, seq)`,
  `CREATE TABLE IF NOT EXISTS memory_idempotency (
     key TEXT PRIMARY KEY,
     result_json TEXT NOT NULL,
     created_at TEXT NOT NULL
   )`,
];

/** Opens (once per process) the memory database of a data directory. */
export function openMemoryDb(dataDir: string): MemoryDb {
  return openSqliteFile(path.join(dataDir, 'memory', 'memory.db'), MIGRATIONS);
}
