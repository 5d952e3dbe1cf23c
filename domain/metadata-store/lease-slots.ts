/**
 * Numbered slots in the metadata store, leased for a while, for caps that must hold across gateways
 * (a user's warehouse queries at once: docs/security.md#cost-limits). A key has slots 0 … n-1; taking
 * one is one upsert that succeeds only where the slot is free or its lease has ended, so two gateways
 * never hold the same slot, and a gateway that died holding one loses it when its lease ends.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { MetadataDb } from './metadata-db';

/** A slot held: `release()` frees it (once; later calls do nothing). */
export interface LeasedSlot {
  slot: number;
  release(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class LeaseSlots {
  constructor(
    private readonly metadata: MetadataDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** One of `key`'s `count` slots for `leaseMs`, or undefined when all are held. */
  async take(key: string, count: number, leaseMs: number): Promise<LeasedSlot | undefined> {
    const lease = randomUUID();
    const t = this.now();
    // Times are ISO 8601 UTC text in both dialects, so text order is time order.
    const ended = sql<boolean>`lease_slots.expires_at <= ${iso(t)}`;
    for (let slot = 0; slot < count; slot++) {
      const row = await this.metadata.db
        .insertInto('lease_slots')
        .values({ key, slot, lease, expires_at: iso(t + leaseMs) })
        .onConflict((oc) =>
          oc
            .columns(['key', 'slot'])
            .doUpdateSet({ lease, expires_at: iso(t + leaseMs) })
            .where(ended),
        )
        .returning('lease')
        .executeTakeFirst();
      if (row?.lease === lease) return { slot, release: once(() => this.free(key, slot, lease)) };
    }
    return undefined;
  }

  private async free(key: string, slot: number, lease: string): Promise<void> {
    await this.metadata.db
      .deleteFrom('lease_slots')
      .where('key', '=', key)
      .where('slot', '=', slot)
      .where('lease', '=', lease)
      .execute();
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
