/**
 * Counters of time windows in the metadata store, for limits that must hold across gateways
 * (sign-in attempts per address and per user name): every gateway of a fleet counts in the same
 * row, and one statement adds a hit and reads the total, so two gateways never both see room for
 * the last attempt. A key's window starts at its first hit and lasts its length; the first hit after
 * it ended starts the next. Rows of ended windows are deleted now and then by whoever counts.
 */
import { sql } from 'kysely';
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

  /** Counts one hit of `key` in its window of `windowMs`; answers the window's hits so far. */
  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const t = this.now();
    if (t - this.lastPrune >= PRUNE_EVERY_MS) await this.prune();
    const now = iso(t);
    const end = iso(t + windowMs);
    // Times are ISO 8601 UTC text in both dialects, so text order is time order.
    const ended = sql<boolean>`attempt_counters.expires_at <= ${now}`;
    const row = await this.metadata.db
      .insertInto('attempt_counters')
      .values({ key, hits: 1, expires_at: end })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          hits: sql<number>`CASE WHEN ${ended} THEN 1 ELSE attempt_counters.hits + 1 END`,
          expires_at: sql<string>`CASE WHEN ${ended} THEN ${end} ELSE attempt_counters.expires_at END`,
        }),
      )
      .returning(['hits', 'expires_at'])
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), resetsAt: Date.parse(row.expires_at) };
  }

  /** Forgets the window of `key` (a success that clears earlier failures). */
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
