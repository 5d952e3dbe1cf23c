/**
 * Idempotency keys of the memory service, in the embedded file or a fleet's PostgreSQL
 * (docs/fleet.md#memory). An add claims its key before it runs: a retry arriving on another instance meanwhile finds the claim, waits for the
 * first add's response and answers it, so nothing is added twice (after 30 s of waiting it answers
 * that the add is still running instead). The owner renews its claim while
 * its add runs; a claim whose owner died expires and is taken over by the next retry.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { MetadataDialect } from '../metadata-store/metadata-db';
import { IdempotencyKeyBusyError, type IdempotencyStore } from './memory-history';
import type { MemoryTables } from './store/memory-schema';

/** PostgreSQL text holds no NUL, which the service's keys use as a separator: stored JSON-escaped. */
const storedKey = (key: string) => JSON.stringify(key);

export interface ClaimTiming {
  /** How long a claim holds without renewal: the time a dead owner blocks its key. */
  claimTtlMs: number;
  /** How often a retry looks again at a key another instance holds. */
  pollMs: number;
  /**
   * How long a retry waits for the add that holds its key before it answers that the add is still
   * running ({@link IdempotencyKeyBusyError}): the owner renews its claim while it runs, so a hung
   * add would otherwise hold every retry for as long as it hangs.
   */
  maxWaitMs: number;
}

const DEFAULT_TIMING: ClaimTiming = { claimTtlMs: 30_000, pollMs: 25, maxWaitMs: 30_000 };

/** What a key holds for an add that wants to run. */
type Claim<T> = { state: 'claimed' } | { state: 'answered'; result: T } | { state: 'held' };

export class IdempotencyKeys implements IdempotencyStore {
  private readonly timing: ClaimTiming;

  constructor(
    private readonly db: Kysely<MemoryTables>,
    private readonly dialect: MetadataDialect,
    timing: Partial<ClaimTiming> = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
  }

  async once<T>(key: string, add: () => Promise<T>): Promise<{ result: T; replay: boolean }> {
    const k = storedKey(key);
    const owner = randomUUID();
    const started = Date.now();
    for (;;) {
      const claim = await this.claim<T>(k, owner);
      if (claim.state === 'answered') return { result: claim.result, replay: true };
      if (claim.state === 'claimed') break;
      const waited = Date.now() - started;
      if (waited >= this.timing.maxWaitMs) throw new IdempotencyKeyBusyError(waited);
      await new Promise((resolve) => setTimeout(resolve, this.timing.pollMs));
    }
    const renewal = setInterval(() => void this.renew(k, owner).catch(() => {}), this.timing.claimTtlMs / 3);
    renewal.unref();
    let result: T;
    try {
      result = await add();
    } catch (err) {
      clearInterval(renewal);
      // A failed add leaves nothing to replay: the next retry runs at once.
      await this.release(k, owner).catch(() => {});
      throw err;
    }
    clearInterval(renewal);
    await this.answer(k, result);
    return { result, replay: false };
  }

  /**
   * Claims the key in one statement: a new key, or one whose claim expired (its owner died), is
   * this add's; otherwise answers the stored response, or that another add holds it.
   */
  private async claim<T>(k: string, owner: string): Promise<Claim<T>> {
    const claimed = await this.db
      .insertInto('memory_idempotency')
      .values({
        key: k,
        result_json: null,
        created_at: new Date().toISOString(),
        claim_owner: owner,
        claim_expires_at: this.expiry(),
      })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            claim_owner: (eb) => eb.ref('excluded.claim_owner'),
            claim_expires_at: (eb) => eb.ref('excluded.claim_expires_at'),
          })
          .where('memory_idempotency.result_json', 'is', null)
          .where((eb) =>
            eb.or([
              eb('memory_idempotency.claim_expires_at', 'is', null),
              eb('memory_idempotency.claim_expires_at', '<', this.clock()),
            ]),
          ),
      )
      .returning('claim_owner')
      .executeTakeFirst();
    if (claimed) return { state: 'claimed' };
    const row = await this.db
      .selectFrom('memory_idempotency')
      .select('result_json')
      .where('key', '=', k)
      .executeTakeFirst();
    return row?.result_json
      ? { state: 'answered', result: JSON.parse(row.result_json) as T }
      : { state: 'held' };
  }

  /** The claim's end on the database's clock, so instances' clocks need not agree. */
  private expiry() {
    return this.clock(this.timing.claimTtlMs / 1000);
  }

  /** The database's time, `seconds` ahead: a timestamp on PostgreSQL, ISO-8601 text on SQLite. */
  private clock(seconds = 0) {
    return this.dialect === 'postgres'
      ? sql<Date>`now() + make_interval(secs => ${seconds})`
      : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`+${seconds} seconds`})`;
  }

  private async renew(k: string, owner: string): Promise<void> {
    await this.db
      .updateTable('memory_idempotency')
      .set({ claim_expires_at: this.expiry() })
      .where('key', '=', k)
      .where('claim_owner', '=', owner)
      .where('result_json', 'is', null)
      .execute();
  }

  private async release(k: string, owner: string): Promise<void> {
    await this.db
      .deleteFrom('memory_idempotency')
      .where('key', '=', k)
      .where('claim_owner', '=', owner)
      .where('result_json', 'is', null)
      .execute();
  }

  /** Stores the response; the first one stored is kept (an add that took over an expired claim). */
  private async answer(k: string, result: unknown): Promise<void> {
    await this.db
      .updateTable('memory_idempotency')
      .set({ result_json: JSON.stringify(result), claim_owner: null, claim_expires_at: null })
      .where('key', '=', k)
      .where('result_json', 'is', null)
      .execute();
  }
}
