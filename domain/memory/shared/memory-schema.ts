/**
 * The memory service's tables in the shared PostgreSQL of a fleet (docs/fleet.md#memory): rows
 * with their vectors, history, idempotency keys, audit entries and the change feed the instances
 * follow. Versioned migrations, recorded in `memory_migration`.
 */
import type { Generated, Kysely, Migration } from 'kysely';
import type { MemoryRow } from '../store/memory-row';

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
  claim_expires_at: Date | null;
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

export interface SharedMemoryTables {
  memories: SharedMemoriesTable;
  memory_history: SharedMemoryHistoryTable;
  memory_idempotency: SharedIdempotencyTable;
  memory_audit: SharedAuditTable;
  memory_changes: SharedMemoryChangesTable;
  memory_changes_pruned: SharedMemoryChangesPrunedTable;
}

export const SHARED_MEMORY_MIGRATIONS: Record<string, Migration> = {
  '0001-memories': {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its day
    async up(db: Kysely<any>) {
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
        .addColumn('vector', 'bytea', (c) => c.notNull())
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
      await db.schema
        .createIndex('memories_embedder')
        .ifNotExists()
        .on('memories')
        .column('embedder')
        .execute();
      await db.schema
        .createTable('memory_history')
        .ifNotExists()
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('memory_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('old_memory', 'text')
        .addColumn('new_memory', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigserial', (c) => c.notNull())
        .execute();
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
      await db.schema
        .createTable('memory_audit')
        .ifNotExists()
        .addColumn('seq', 'bigserial', (c) => c.primaryKey())
        .addColumn('timestamp', 'text', (c) => c.notNull())
        .addColumn('entry_json', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('memory_changes')
        .ifNotExists()
        .addColumn('seq', 'bigserial', (c) => c.primaryKey())
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
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its day
    async up(db: Kysely<any>) {
      // Existing keys all hold a result: they stay as they are.
      await db.schema
        .alterTable('memory_idempotency')
        .alterColumn('result_json', (c) => c.dropNotNull())
        .execute();
      await db.schema.alterTable('memory_idempotency').addColumn('claim_owner', 'text').execute();
      await db.schema.alterTable('memory_idempotency').addColumn('claim_expires_at', 'timestamptz').execute();
    },
  },
  '0003-changes-pruned-mark': {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its day
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('memory_changes_pruned')
        .ifNotExists()
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('through_seq', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};
