/**
 * How many warehouse queries run at once (docs/security.md#cost-limits): a few per user, refused with
 * 429 beyond that, and a cap for the whole gateway below libuv's thread pool, which DuckDB's calls
 * share with password hashing and file I/O, so a burst of heavy queries never makes a sign-in wait.
 * Queries past the gateway's cap wait their turn in order; a user's own cap is never queued.
 */
import { HttpError } from '../http-errors';

/** The limits of {@link QuerySlots}. */
export interface QuerySlotLimits {
  /** Queries one user may have running at once on this gateway (default 2). */
  perUser?: number;
  /** Queries the gateway runs at once, all users together (default: the thread pool's size less two). */
  total?: number;
}

/** libuv's pool size as this process was started with it (4 unless UV_THREADPOOL_SIZE says otherwise). */
export function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

export class QuerySlots {
  private readonly perUser: number;
  private readonly total: number;
  private readonly byUser = new Map<string, number>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(limits: QuerySlotLimits = {}) {
    this.perUser = limits.perUser ?? 2;
    // Two threads stay free for hashing and file I/O.
    this.total = limits.total ?? Math.max(1, threadPoolSize() - 2);
  }

  /** Runs `work` in one of `user`'s slots; 429 at once when the user has none free. */
  async run<T>(user: string, work: () => Promise<T>): Promise<T> {
    const mine = this.byUser.get(user) ?? 0;
    if (mine >= this.perUser)
      throw new HttpError(
        429,
        'too_many_queries',
        `at most ${this.perUser} queries at once per user: wait for one to finish`,
      );
    this.byUser.set(user, mine + 1);
    try {
      await this.turn();
      try {
        return await work();
      } finally {
        const next = this.waiting.shift();
        // A waiting query takes this slot over; with none waiting, the slot is free.
        if (next) next();
        else this.running--;
      }
    } finally {
      const left = (this.byUser.get(user) ?? 1) - 1;
      if (left) this.byUser.set(user, left);
      else this.byUser.delete(user);
    }
  }

  private async turn(): Promise<void> {
    if (this.running < this.total) {
      this.running++;
      return;
    }
    // The slot is handed over by the query that ends: `running` stays counted for this one.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}
