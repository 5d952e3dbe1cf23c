/**
 * Every change of a memory (ADD, UPDATE, DELETE), for /memory/history/{id}, and what adds by
 * idempotency key need. One implementation over the memory tables, in the embedded file or the
 * shared PostgreSQL of a fleet (store/memory-schema.ts), so every instance answers the same.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MemoryEvent, MemoryHistoryEntry } from '../../shared/memory-model';
import type { MemoryTables } from './store/memory-schema';

/** Where the changes of memories are recorded. */
export interface HistoryLog {
  record(
    memoryId: string,
    event: MemoryEvent,
    oldMemory: string | null,
    newMemory: string | null,
    at: string,
  ): Promise<void>;
  /** The memory's changes, oldest first. */
  of(memoryId: string): Promise<MemoryHistoryEntry[]>;
}

/** Adds by idempotency key, so a retried write adds nothing twice. */
export interface IdempotencyStore {
  /**
   * Runs `add` once for `key`: answers the result an earlier run stored under it (`replay`), else
   * runs `add` and stores its result. A shared store first claims the key, so a retry arriving on
   * another instance while the first run is under way waits for that run's result.
   */
  once<T>(key: string, add: () => Promise<T>): Promise<{ result: T; replay: boolean }>;
}

/**
 * A retry gave up waiting for the add that holds its idempotency key (still running on another
 * instance): answered 409 `idempotency_key_in_progress`, and a later retry gets that add's response.
 */
export class IdempotencyKeyBusyError extends Error {
  constructor(readonly waitedMs: number) {
    super(
      `an add with this idempotency_key is still running (waited ${Math.round(waitedMs / 1000)} s); retry later to get its response`,
    );
    this.name = 'IdempotencyKeyBusyError';
  }
}

/** The history in the memory tables (embedded file or a fleet's PostgreSQL), numbered by the database. */
export class MemoryHistory implements HistoryLog {
  constructor(private readonly db: Kysely<MemoryTables>) {}

  async record(
    memoryId: string,
    event: MemoryEvent,
    oldMemory: string | null,
    newMemory: string | null,
    at: string,
  ): Promise<void> {
    await this.db
      .insertInto('memory_history')
      .values({
        id: randomUUID(),
        memory_id: memoryId,
        event,
        old_memory: oldMemory,
        new_memory: newMemory,
        created_at: at,
      })
      .execute();
  }

  async of(memoryId: string): Promise<MemoryHistoryEntry[]> {
    return (await this.db
      .selectFrom('memory_history')
      .select(['id', 'memory_id', 'event', 'old_memory', 'new_memory', 'created_at'])
      .where('memory_id', '=', memoryId)
      .orderBy('seq')
      .execute()) as MemoryHistoryEntry[];
  }
}
