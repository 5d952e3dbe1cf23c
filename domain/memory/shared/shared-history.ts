/** History, idempotency keys and audit entries of the memory service in the shared PostgreSQL. */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MemoryEvent, MemoryHistoryEntry } from '../../../shared/memory-model';
import type { AuditEntry, AuditSink } from '../audit/audit-log';
import type { HistoryLog, IdempotencyStore } from '../memory-history';
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

/** PostgreSQL text holds no NUL, which the service's keys use as a separator: stored JSON-escaped. */
const storedKey = (key: string) => JSON.stringify(key);

export class SharedIdempotencyKeys implements IdempotencyStore {
  constructor(private readonly db: Kysely<SharedMemoryTables>) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db
      .selectFrom('memory_idempotency')
      .select('result_json')
      .where('key', '=', storedKey(key))
      .executeTakeFirst();
    return row ? (JSON.parse(row.result_json) as T) : undefined;
  }

  async put(key: string, result: unknown): Promise<void> {
    await this.db
      .insertInto('memory_idempotency')
      .values({
        key: storedKey(key),
        result_json: JSON.stringify(result),
        created_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
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
