/**
 * A backfilled `created_at` (docs/memory-search.md#entities-and-times): when the remembered thing
 * happened, which may be long ago but not yet to come. A memory dated in the future would rank first
 * under time decay for months and answer "last week" questions it has nothing to do with.
 */

/** How far ahead of the service's clock a `created_at` may be: another machine's clock may run fast. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** A `created_at` the service refuses (422 `created_at_in_future`). */
export class FutureCreatedAtError extends Error {
  constructor(
    readonly createdAt: string,
    readonly now: Date,
  ) {
    super(
      `created_at ${createdAt} is in the future (the service's clock says ${now.toISOString()}); a backfill dates what already happened`,
    );
    this.name = 'FutureCreatedAtError';
  }
}

/** Throws {@link FutureCreatedAtError} when `createdAt` lies more than the allowed skew after `now`. */
export function refuseFutureCreatedAt(createdAt: string | undefined, now: Date): void {
  if (createdAt !== undefined && Date.parse(createdAt) > now.getTime() + CLOCK_SKEW_MS)
    throw new FutureCreatedAtError(createdAt, now);
}
