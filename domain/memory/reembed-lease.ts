/**
 * One re-embedding at a time (docs/fleet.md#memory): after a model change every instance of a fleet
 * finds the same stale memories, and without a lease each would embed all of them. Outside a fleet
 * the only instance always runs it; a fleet's lease is shared/shared-reembed-lease.ts.
 */

/** Runs `work` if no other instance is running it: `{ ran: false }` when one is. */
export type ReembedLease = <T>(work: () => Promise<T>) => Promise<{ ran: true; result: T } | { ran: false }>;

/** Outside a fleet: this instance is the only one, and always runs the work. */
export const soleReembedLease: ReembedLease = async (work) => ({ ran: true, result: await work() });
