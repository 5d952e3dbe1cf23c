/** History and audit entries of the memory service in the shared PostgreSQL. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MemoryEvent, MemoryHistoryEntry } from '../../../shared/memory-model';
import type { AuditEntry, AuditSink } from '../audit/audit-log';
import type { HistoryLog } from '../memory-history';
import type { SharedMemoryTables } from './memory-schema';

export class SharedHistory implements HistoryLog {
  constructor(private readonly db: Kysely<SharedMemoryTables>) {}

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

/** Audit entries as rows, so every instance's writes land in one place. */
export class SharedAuditLog implements AuditSink {
  constructor(
    private readonly db: Kysely<SharedMemoryTables>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async append(entry: AuditEntry): Promise<void> {
    const timestamp = this.now().toISOString();
    await this.db
      .insertInto('memory_audit')
      .values({ timestamp, entry_json: JSON.stringify({ timestamp, ...entry }) })
      .execute();
  }

  async close(): Promise<void> {}
}
