/** Every change of a memory (ADD, UPDATE, DELETE), kept in the memory database for /memory/history/{id}. */
import { randomUUID } from 'node:crypto';
import type { MemoryEvent, MemoryHistoryEntry } from '../../shared/memory-model';
import type { MemoryDb } from './store/memory-db';

export class MemoryHistory {
  private seq: number;

  constructor(private readonly db: MemoryDb) {
    this.seq = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM memory_history').get() as { n: number }).n;
  }

  record(
    memoryId: string,
    event: MemoryEvent,
    oldMemory: string | null,
    newMemory: string | null,
    at: string,
  ): void {
    this.db
      .prepare(
        'INSERT INTO memory_history (id, memory_id, event, old_memory, new_memory, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(randomUUID(), memoryId, event, oldMemory, newMemory, at, ++this.seq);
  }

  of(memoryId: string): MemoryHistoryEntry[] {
    return this.db
      .prepare(
        'SELECT id, memory_id, event, old_memory, new_memory, created_at FROM memory_history WHERE memory_id = ? ORDER BY seq',
      )
      .all(memoryId) as MemoryHistoryEntry[];
  }
}

/** Add results by idempotency key, so a retried pipeline write adds nothing twice. */
export class IdempotencyKeys {
  constructor(private readonly db: MemoryDb) {}

  get<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT result_json FROM memory_idempotency WHERE key = ?').get(key) as
      { result_json: string } | undefined;
    return row ? (JSON.parse(row.result_json) as T) : undefined;
  }

  put(key: string, result: unknown): void {
    this.db
      .prepare('INSERT OR IGNORE INTO memory_idempotency (key, result_json, created_at) VALUES (?, ?, ?)')
      .run(key, JSON.stringify(result), new Date().toISOString());
  }
}
