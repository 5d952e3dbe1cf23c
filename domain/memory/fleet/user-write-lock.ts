/**
 * The per-user write lock of a fleet's memory instances (docs/fleet.md#memory): an add's duplicate
 * check and its insert run under it, so two instances adding one fact for one user at the same
 * moment store it once. A transaction-scoped advisory lock: held only for the check and the insert
 * (milliseconds), released by the commit or the rollback, and by PostgreSQL when the instance dies.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { UserWrites } from '../store/user-writes';

/**
 * The lock's namespace (the first of its two keys): two-key advisory locks never meet the
 * one-key locks other writers take (the change feed's, memory-change-feed.ts).
 */
const USER_WRITES = 'plat-memory-user-writes';

/** Waits for, then holds until `tx` ends, the write lock of `userId`'s memories. */
export async function lockUserWrites<DB>(tx: Transaction<DB>, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${USER_WRITES}), hashtext(${userId}))`.execute(tx);
}

/**
 * The same lock around writes a store makes elsewhere (Qdrant's check and insert): a transaction
 * holds the user's lock while `write` runs and ends when it does, so every instance of the fleet
 * waits its turn. The transaction writes nothing.
 */
export function sharedUserWrites<DB>(db: Kysely<DB>): UserWrites {
  return <T>(userId: string, write: () => Promise<T>): Promise<T> =>
    db.transaction().execute(async (tx) => {
      await lockUserWrites(tx, userId);
      return write();
    });
}
