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
