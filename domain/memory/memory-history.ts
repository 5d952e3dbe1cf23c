/**
 * Every change of a memory (ADD, UPDATE, DELETE), for /memory/history/{id}, and add results by
 * idempotency key. Two homes: the embedded memory database (these classes), or the shared
 * PostgreSQL of a fleet (shared/shared-history.ts), so every instance answers the same.
 */
import { randomUUID } from 'node:crypto';
import type { MemoryEvent, MemoryHistoryEntry } from '../../shared/memory-model';
import type { MemoryDb } from './store/memory-db';

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

export class MemoryHistory implements HistoryLog {
  private seq: number;

  constructor(private readonly db: MemoryDb) {
    this.seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM memory_history').get() as { n: number }).n;
  }

  async record(
    memoryId: string,
    event: MemoryEvent,
    oldMemory: string | null,
    newMemory: string | null,
    at: string,
  ): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO memory_history (id, memory_id, event, old_memory, new_memory, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(randomUUID(), memoryId, event, oldMemory, newMemory, at, ++this.seq);
  }

  async of(memoryId: string): Promise<MemoryHistoryEntry[]> {
    return this.db
      .prepare(
        'SELECT id, memory_id, event, old_memory, new_memory, created_at FROM memory_history WHERE memory_id = ? ORDER BY seq',
      )
      .all(memoryId) as MemoryHistoryEntry[];
  }
}

/**
 * Idempotency keys in the embedded memory database. Its process is the only writer, and the
 * service runs a user's adds one at a time (the keys hold the user), so a retry under way behind
 * the first run finds its result: no claim is needed.
 */
export class IdempotencyKeys implements IdempotencyStore {
  constructor(private readonly db: MemoryDb) {}

  async once<T>(key: string, add: () => Promise<T>): Promise<{ result: T; replay: boolean }> {
    const row = this.db.prepare('SELECT result_json FROM memory_idempotency WHERE key = ?').get(key) as
      { result_json: string } | undefined;
    if (row) return { result: JSON.parse(row.result_json) as T, replay: true };
    const result = await add();
    this.db
      .prepare('INSERT OR IGNORE INTO memory_idempotency (key, result_json, created_at) VALUES (?, ?, ?)')
      .run(key, JSON.stringify(result), new Date().toISOString());
    return { result, replay: false };
  }
}
