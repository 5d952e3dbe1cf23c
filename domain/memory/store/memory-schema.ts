/**
 * The memory service's tables, in the embedded SQLite-format file of one instance or the shared
 * PostgreSQL of a fleet (docs/fleet.md#memory): rows with their vectors, history, idempotency keys,
 * audit entries and the change feed a fleet's instances follow. One set of versioned migrations for
 * both, recorded in `memory_migration`; where the two dialects differ, each step says how.
 */
import { sql, type ColumnDataType, type Generated, type Kysely, type Migration } from 'kysely';
import type { MetadataDialect } from '../../metadata-store/metadata-db';
import type { MemoryRow } from './memory-row';

/** A memory row (memory-row.ts) with its vector: Float32 little-endian. */
export type SharedMemoriesTable = MemoryRow & { vector: Buffer };

export interface SharedMemoryHistoryTable {
  id: string;
  memory_id: string;
  event: string;
  old_memory: string | null;
  new_memory: string | null;
  created_at: string;
  seq: Generated<number>;
}

/**
 * An add's idempotency key: claimed (no result yet, `claim_owner` running it until
 * `claim_expires_at`, the database's clock) before the add runs, its response once it answered.
 */
export interface SharedIdempotencyTable {
  key: string;
  result_json: string | null;
  created_at: string;
  claim_owner: string | null;
  /** A timestamp on PostgreSQL; ISO-8601 text (UTC) on SQLite, which compares the same way. */
  claim_expires_at: Date | string | null;
}

export interface SharedAuditTable {
  seq: Generated<number>;
  timestamp: string;
  entry_json: string;
}

/**
 * One row per change of a memory, numbered in commit order (writers number them under one
 * transaction lock), with the texts the change replaced and wrote, so an instance can replay it
 * on its in-process indexes exactly.
 */
export interface SharedMemoryChangesTable {
  seq: Generated<number>;
  user_id: string;
  memory_id: string;
  op: 'ADD' | 'UPDATE' | 'DELETE';
  old_memory: string | null;
  new_memory: string | null;
  at: string;
}

/** One row (id 1): the newest change number pruning deleted (memory-change-pruning.ts). */
export interface SharedMemoryChangesPrunedTable {
  id: number;
  through_seq: number;
}

export interface MemoryTables {
  memories: SharedMemoriesTable;
  memory_history: SharedMemoryHistoryTable;
  memory_idempotency: SharedIdempotencyTable;
  memory_audit: SharedAuditTable;
  memory_changes: SharedMemoryChangesTable;
  memory_changes_pruned: SharedMemoryChangesPrunedTable;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its day
type AnyDb = Kysely<any>;

/** The schema's migrations for a dialect: the same names and tables, each dialect's own column types. */
// A list of released schema steps, one per version, read top to bottom and never edited once
// released (docs/architecture.md#function-size): it and its first step stay whole.
/* eslint-disable max-lines-per-function */
export function memoryMigrations(dialect: MetadataDialect): Record<string, Migration> {
  const pg = dialect === 'postgres';
  const bytes: ColumnDataType = pg ? 'bytea' : 'blob';
  /** A row number the database assigns: a sequence on PostgreSQL, the rowid on SQLite. */
  const serialKey = (table: ReturnType<AnyDb['schema']['createTable']>, column: string) =>
    pg
      ? table.addColumn(column, 'bigserial', (c) => c.primaryKey())
      : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
  /** A history entry's columns after its id and number (the same in 0001 and the rebuild of 0004). */
  const historyColumns = (table: ReturnType<AnyDb['schema']['createTable']>) =>
    table
      .addColumn('memory_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('old_memory', 'text')
      .addColumn('new_memory', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull());
  return {
    '0001-memories': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('memories')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('agent_id', 'text')
          .addColumn('run_id', 'text')
          .addColumn('memory', 'text', (c) => c.notNull())
          .addColumn('hash', 'text', (c) => c.notNull())
          .addColumn('metadata_json', 'text', (c) => c.notNull())
          .addColumn('category', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('embedder', 'text', (c) => c.notNull())
          .addColumn('vector', bytes, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('memories_user')
          .ifNotExists()
          .on('memories')
          .columns(['user_id', 'created_at', 'id'])
          .execute();
        await db.schema
          .createIndex('memories_hash')
          .ifNotExists()
          .on('memories')
          .columns(['user_id', 'hash'])
          .execute();
        // Start-up asks for memories another embedder made: without this, a scan of every row.
        await db.schema
          .createIndex('memories_embedder')
          .ifNotExists()
          .on('memories')
          .column('embedder')
          .execute();
        // As shipped on PostgreSQL: the sequence last. On SQLite the rowid numbers the history (0004
        // brings a file of an older version to this shape).
        await (
          pg
            ? historyColumns(
                db.schema
                  .createTable('memory_history')
                  .ifNotExists()
                  .addColumn('id', 'text', (c) => c.primaryKey()),
              ).addColumn('seq', 'bigserial', (c) => c.notNull())
            : historyColumns(
                serialKey(db.schema.createTable('memory_history').ifNotExists(), 'seq').addColumn(
                  'id',
                  'text',
                  (c) => c.notNull().unique(),
                ),
              )
        ).execute();
        await db.schema
          .createIndex('memory_history_memory')
          .ifNotExists()
          .on('memory_history')
          .columns(['memory_id', 'seq'])
          .execute();
        await db.schema
          .createTable('memory_idempotency')
          .ifNotExists()
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('result_json', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await serialKey(db.schema.createTable('memory_audit').ifNotExists(), 'seq')
          .addColumn('timestamp', 'text', (c) => c.notNull())
          .addColumn('entry_json', 'text', (c) => c.notNull())
          .execute();
        await serialKey(db.schema.createTable('memory_changes').ifNotExists(), 'seq')
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('memory_id', 'text', (c) => c.notNull())
          .addColumn('op', 'text', (c) => c.notNull())
          .addColumn('old_memory', 'text')
          .addColumn('new_memory', 'text')
          .addColumn('at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('memory_changes_user')
          .ifNotExists()
          .on('memory_changes')
          .columns(['user_id', 'seq'])
          .execute();
      },
    },
    '0002-idempotency-claims': {
      async up(db: AnyDb) {
        if (pg) {
          // Existing keys all hold a result: they stay as they are.
          await db.schema
            .alterTable('memory_idempotency')
            .alterColumn('result_json', (c) => c.dropNotNull())
            .execute();
          await db.schema.alterTable('memory_idempotency').addColumn('claim_owner', 'text').execute();
          await db.schema
            .alterTable('memory_idempotency')
            .addColumn('claim_expires_at', 'timestamptz')
            .execute();
          return;
        }
        // SQLite cannot drop a NOT NULL: the table is rebuilt. Keys are stored JSON-escaped as on
        // PostgreSQL (idempotency-keys.ts); an older file's keys were stored as they came.
        await db.schema
          .createTable('memory_idempotency_claims')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('result_json', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('claim_owner', 'text')
          .addColumn('claim_expires_at', 'text')
          .execute();
        // Escaped here as JSON.stringify does, from the key's bytes: the service's keys hold NUL
        // separators, and SQLite's text functions (json_quote, even a plain read) stop at a NUL.
        // A page at a time by rowid: every stored response is read once, never all at once.
        for (let after = 0; ;) {
          const page = await sql<{ id: number; raw: Uint8Array; result_json: string; created_at: string }>`
            SELECT rowid AS id, CAST(key AS BLOB) AS raw, result_json, created_at FROM memory_idempotency
            WHERE rowid > ${after} ORDER BY rowid LIMIT 500`.execute(db);
          if (!page.rows.length) break;
          await db
            .insertInto('memory_idempotency_claims')
            .values(
              page.rows.map(({ raw, result_json, created_at }) => ({
                key: JSON.stringify(Buffer.from(raw).toString('utf8')),
                result_json,
                created_at,
              })),
            )
            .execute();
          after = page.rows[page.rows.length - 1].id;
        }
        await db.schema.dropTable('memory_idempotency').execute();
        await db.schema.alterTable('memory_idempotency_claims').renameTo('memory_idempotency').execute();
      },
    },
    '0003-changes-pruned-mark': {
      async up(db: AnyDb) {
        await db.schema
          .createTable('memory_changes_pruned')
          .ifNotExists()
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('through_seq', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    '0004-history-numbered-by-the-database': {
      async up(db: AnyDb) {
        if (pg) return; // a sequence from the start
        // A file of an older version numbered its history in the process (`seq` a plain column):
        // rebuilt with the rowid as `seq`, keeping every entry's number and order.
        const columns = await sql<{ name: string; pk: number }>`PRAGMA table_info(memory_history)`.execute(
          db,
        );
        if (columns.rows.some((c) => c.name === 'seq' && c.pk === 1)) return;
        await historyColumns(
          serialKey(db.schema.createTable('memory_history_numbered'), 'seq').addColumn('id', 'text', (c) =>
            c.notNull().unique(),
          ),
        ).execute();
        await sql`INSERT INTO memory_history_numbered (seq, id, memory_id, event, old_memory, new_memory, created_at)
                  SELECT seq, id, memory_id, event, old_memory, new_memory, created_at
                  FROM memory_history ORDER BY seq`.execute(db);
        await db.schema.dropTable('memory_history').execute();
        await db.schema.alterTable('memory_history_numbered').renameTo('memory_history').execute();
        await db.schema
          .createIndex('memory_history_memory')
          .on('memory_history')
          .columns(['memory_id', 'seq'])
          .execute();
      },
    },
    // Validity in time (docs/memory-validity.md): since when a memory holds, until when an earlier
    // version held, and whose version it is. A memory stored before holds since it was stated.
    '0005-validity': {
      async up(db: AnyDb) {
        await db.schema.alterTable('memories').addColumn('valid_from', 'text').execute();
        await db.schema.alterTable('memories').addColumn('valid_to', 'text').execute();
        await db.schema.alterTable('memories').addColumn('version_of', 'text').execute();
        await db
          .updateTable('memories')
          .set({ valid_from: sql`created_at` })
          .execute();
        await db.schema
          .createIndex('memories_version_of')
          .ifNotExists()
          .on('memories')
          .column('version_of')
          .execute();
      },
    },
  };
}
/* eslint-enable max-lines-per-function */
