/**
 * The memory service's own database on one host (SQLite format through libsql,
 * `.data/memory/memory.db`): memories with their vectors (embedded store), the change history and
 * idempotency keys, on the same versioned migrations as a fleet's PostgreSQL (memory-schema.ts).
 * History and keys live here whichever store holds the vectors.
 */
import * as path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateSqlite } from '../../metadata-store/metadata-db';
import { forgetSqliteFile, openSqliteFile, type SqliteFile } from '../../metadata-store/sqlite-file';
import { memoryMigrations, type MemoryTables } from './memory-schema';

export interface MemoryDb {
  /** The file itself, for the embedded store's hot paths (prepared statements, no round trip). */
  file: SqliteFile;
  /** The same file through Kysely: history, idempotency keys, anything shared with PostgreSQL. */
  db: Kysely<MemoryTables>;
}

const opened = new Map<string, Promise<MemoryDb>>();

/** The memory database of a data directory, opened and migrated once per process. */
export function openMemoryDb(dataDir: string): Promise<MemoryDb> {
  const location = path.join(dataDir, 'memory', 'memory.db');
  let db = opened.get(location);
  if (!db) {
    db = open(location).catch((err) => {
      opened.delete(location);
      throw err;
    });
    opened.set(location, db);
  }
  return db;
}

/** Closes the memory database of a data directory (a benchmark's copy, a test's file) and forgets it. */
export async function closeMemoryDb(dataDir: string): Promise<void> {
  const location = path.join(dataDir, 'memory', 'memory.db');
  const db = opened.get(location);
  if (!db) return;
  opened.delete(location);
  forgetSqliteFile(location);
  await (await db).db.destroy();
}

/**
 * Bytes of the file read through a memory map rather than read calls: a search reads a hundred
 * rows or so at random, and each read call costs more than the row (80 rows by id: 2.4 ms read,
 * 1.4 ms mapped, at 100,000 memories). Address space only; the OS keeps what is used.
 */
const MAPPED_BYTES = 1 << 30;

async function open(location: string): Promise<MemoryDb> {
  const file = openSqliteFile(location);
  file.pragma(`mmap_size = ${MAPPED_BYTES}`);
  const db = new Kysely<MemoryTables>({ dialect: new SqliteDialect({ database: file }) });
  await migrateSqlite(db, 'memory', memoryMigrations('sqlite'));
  return { file, db };
}
