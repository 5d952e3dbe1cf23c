/**
 * Counters of fixed time windows in the metadata store, for limits that must hold across gateways
 * (sign-in attempts per address and per user name): every gateway of a fleet counts in the same
 * rows, and one statement adds a hit and reads the total, so two gateways never both see room for
 * the last attempt. Windows that ended are deleted now and then by whoever counts.
 */
import type { MetadataDb } from './metadata-db';

/** The hits of a key's current window, and when that window ends (ms since the epoch). */
export interface WindowCount {
  hits: number;
  resetsAt: number;
}

/** How often one process deletes the windows that ended. */
const PRUNE_EVERY_MS = 60_000;

const iso = (ms: number) => new Date(ms).toISOString();

export class AttemptCounters {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly metadata: MetadataDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit of `key` in its current window of `windowMs`; answers the window's hits so far. */
  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const t = this.now();
    const start = Math.floor(t / windowMs) * windowMs;
    const resetsAt = start + windowMs;
    if (t - this.lastPrune >= PRUNE_EVERY_MS) await this.prune();
    const row = await this.metadata.db
      .insertInto('attempt_counters')
      .values({ key, window_start: iso(start), hits: 1, expires_at: iso(resetsAt) })
      .onConflict((oc) =>
        oc
          .columns(['key', 'window_start'])
          .doUpdateSet((eb) => ({ hits: eb(eb.ref('attempt_counters.hits'), '+', 1) })),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), resetsAt };
  }

  /** Forgets every window of `key` (a success that clears earlier failures). */
  async clear(key: string): Promise<void> {
    await this.metadata.db.deleteFrom('attempt_counters').where('key', '=', key).execute();
  }

  /** Deletes the windows that have ended; answers how many. */
  async prune(): Promise<number> {
    this.lastPrune = this.now();
    const result = await this.metadata.db
      .deleteFrom('attempt_counters')
      .where('expires_at', '<=', iso(this.lastPrune))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
