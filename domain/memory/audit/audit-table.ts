/** Audit lines as rows of `memory_audit` (a fleet's shared PostgreSQL): every instance's in one place. */
import type { Kysely } from 'kysely';
import type { MemoryTables } from '../store/memory-schema';
import type { AuditLines } from './audit-log';

export function auditTable(db: Kysely<MemoryTables>): AuditLines {
  return {
    async write(at, line) {
      await db.insertInto('memory_audit').values({ timestamp: at.toISOString(), entry_json: line }).execute();
    },
    async close() {},
  };
}
