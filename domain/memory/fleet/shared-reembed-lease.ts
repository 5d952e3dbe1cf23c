/**
 * The fleet's re-embedding lease (docs/fleet.md#memory): the instance that takes PostgreSQL's
 * session-level advisory lock re-embeds; the others serve and try again later. PostgreSQL releases
 * the lock when the holder's connection ends, so an instance that dies mid-run hands the work on.
 */
import { sql, type Kysely } from 'kysely';
import type { ReembedLease } from '../reembed-lease';

/** The lock's key: two-key advisory locks never meet the one-key locks of other writers. */
const LEASE = ['plat-memory', 'reembed'] as const;

/** The fleet's lease, on one connection of `db`'s pool held for as long as the work runs. */
export function sharedReembedLease<DB>(db: Kysely<DB>): ReembedLease {
  return (work) =>
    db.connection().execute(async (conn) => {
      const { rows } = await sql<{ taken: boolean }>`
        SELECT pg_try_advisory_lock(hashtext(${LEASE[0]}), hashtext(${LEASE[1]})) AS taken`.execute(conn);
      if (!rows[0]?.taken) return { ran: false };
      try {
        return { ran: true, result: await work() };
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${LEASE[0]}), hashtext(${LEASE[1]}))`.execute(conn);
      }
    });
}
