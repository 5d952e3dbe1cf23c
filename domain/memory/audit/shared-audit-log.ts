/** Audit entries of a fleet's memory instances as rows of the shared PostgreSQL (one place for every instance). */
import type { Kysely } from 'kysely';
import type { MemoryTables } from '../store/memory-schema';
import type { AuditEntry, AuditSink } from './audit-log';

/** Audit entries as rows, so every instance's writes land in one place. */
export class SharedAuditLog implements AuditSink {
  constructor(
    private readonly db: Kysely<MemoryTables>,
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
