/**
 * How a store makes an add's duplicate check and its insert one step per user (docs/fleet.md#memory),
 * when the store itself cannot: Qdrant answers the check and takes the insert in two requests. The
 * embedded and the shared PostgreSQL stores lock inside their own transaction and need none of this.
 */

/** Runs `write` while no other write of `userId`'s memories runs (in this process, or in the fleet). */
export type UserWrites = <T>(userId: string, write: () => Promise<T>) => Promise<T>;

/**
 * One process's writes, one user at a time: each user's writes wait in a queue of their own, and
 * the queue is dropped when it empties, so idle users cost nothing.
 */
export function inProcessUserWrites(): UserWrites {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(userId: string, write: () => Promise<T>): Promise<T> => {
    const before = tails.get(userId) ?? Promise.resolve();
    const run = before.then(write, write);
    const tail = run.catch(() => undefined);
    tails.set(userId, tail);
    try {
      return await run;
    } finally {
      if (tails.get(userId) === tail) tails.delete(userId);
    }
  };
}
