/**
 * How many warehouse queries run at once (docs/security.md#cost-limits): a few per user across every
 * gateway (slots leased in the metadata store), refused with 429 beyond that, and a cap for the whole gateway below libuv's thread pool, which DuckDB's calls
 * share with password hashing and file I/O, so a burst of heavy queries never makes a sign-in wait.
 * Queries past the gateway's cap wait their turn in order, for at most their own time limit (then 503
 * `busy`); a user's own cap is never queued.
 */
import { HttpError } from '../http-errors';
import type { LeasedSlot, LeaseSlots } from '../../domain/metadata-store/lease-slots';
import { WarehouseQueryError } from '../../domain/warehouse/warehouse-engine';

/** The limits of {@link QuerySlots}. */
export interface QuerySlotLimits {
  /** Queries one user may have running at once on this gateway (default 2). */
  perUser?: number;
  /** Queries the gateway runs at once, all users together (default: the thread pool's size less two). */
  total?: number;
  /**
   * Where a user's slots are held so the cap holds across every gateway of a fleet (the metadata
   * store); without it, in this process only.
   */
  shared?: LeaseSlots;
}

/** How much longer than its timeout a query's shared slot is leased (a gateway that died frees it then). */
const LEASE_MARGIN_MS = 30_000;

/** libuv's pool size as this process was started with it (4 unless UV_THREADPOOL_SIZE says otherwise). */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

export class QuerySlots {
  private readonly perUser: number;
  private readonly total: number;
  private readonly shared?: LeaseSlots;
  private readonly byUser = new Map<string, number>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(limits: QuerySlotLimits = {}) {
    this.perUser = limits.perUser ?? 2;
    // Two threads stay free for hashing and file I/O.
    this.total = limits.total ?? Math.max(1, threadPoolSize() - 2);
    this.shared = limits.shared;
  }

  /**
   * Runs `work` (which ends within `timeoutMs`) in one of `user`'s slots; 429 at once when none is
   * free. A query refused at its deadline while the engine still works on it keeps its slots until
   * that work ends: what runs is what counts.
   */
  async run<T>(user: string, timeoutMs: number, work: () => Promise<T>): Promise<T> {
    const mine = this.byUser.get(user) ?? 0;
    if (mine >= this.perUser) throw this.refusal();
    this.byUser.set(user, mine + 1);
    let ended: Promise<unknown> = Promise.resolve();
    let held: LeasedSlot | undefined;
    let turn = false;
    try {
      held = await this.shared?.take(`query:${user}`, this.perUser, timeoutMs + LEASE_MARGIN_MS);
      if (this.shared && !held) throw this.refusal();
      await this.turn(timeoutMs);
      turn = true;
      return await work();
    } catch (err) {
      if (err instanceof WarehouseQueryError && err.stillRunning) ended = err.stillRunning;
      throw err;
    } finally {
      void ended.then(() => this.free(user, turn, held));
    }
  }

  /** Gives back what one query held: its turn on the gateway, its shared slot, its count for the user. */
  private async free(user: string, turn: boolean, held: LeasedSlot | undefined): Promise<void> {
    if (turn) {
      const next = this.waiting.shift();
      // A waiting query takes this turn over; with none waiting, the turn is free.
      if (next) next();
      else this.running--;
    }
    const left = (this.byUser.get(user) ?? 1) - 1;
    if (left) this.byUser.set(user, left);
    else this.byUser.delete(user);
    await held?.release().catch(() => undefined);
  }

  private refusal(): HttpError {
    return new HttpError(
      429,
      'too_many_queries',
      `at most ${this.perUser} queries at once per user: wait for one to finish`,
    );
  }

  /**
   * Waits for a turn on the gateway, at most `timeoutMs` (the query's own limit): a query that could
   * not even start in that time is answered 503 `busy` rather than left waiting behind others.
   */
  private async turn(timeoutMs: number): Promise<void> {
    if (this.running < this.total) {
      this.running++;
      return;
    }
    // The slot is handed over by the query that ends: `running` stays counted for this one.
    await new Promise<void>((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(
          new HttpError(
            503,
            'busy',
            `the warehouse is busy: this query waited ${timeoutMs} ms for a turn; try again shortly`,
          ),
        );
      }, timeoutMs);
      this.waiting.push(take);
    });
  }
}
