/**
 * The warehouse processes of one parent (the gateway or a worker; docs/security.md#warehouse-processes):
 * up to `max` children, each leased to one piece of work at a time, `warm` of them started ahead so
 * a lease rarely waits for a start. A child that died, ran past a deadline or served many leases is
 * not reused; its place is taken by a new one.
 */
import { WarehouseQueryError } from '../warehouse-engine';
import { WarehouseProcess, type WarehouseProcessOptions } from './warehouse-process';

export interface WarehousePoolOptions extends WarehouseProcessOptions {
  /** Children at once, leased or idle: what work beyond them waits for. */
  max: number;
  /** Idle children kept started, ready for the next lease. */
  warm: number;
  /** Leases a child serves before it is replaced (what DuckDB's allocator keeps is given back). */
  leasesPerProcess?: number;
}

/** A child leased to one piece of work; `release` gives it back (or retires it). */
export interface WarehouseLease {
  process: WarehouseProcess;
  /** Gives the child back; `reusable: false` retires it (it timed out, or its state is unknown). */
  release(reusable?: boolean): void;
}

const DEFAULT_LEASES_PER_PROCESS = 500;

export class WarehouseProcessPool {
  private readonly idle: WarehouseProcess[] = [];
  private readonly all = new Set<WarehouseProcess>();
  private readonly waiting: (() => void)[] = [];
  private closed = false;
  /** Children started ahead and not ready yet. */
  private warming = 0;
  /** Children that died before they were ready, in a row: starts back off while it grows. */
  private failedStarts = 0;
  /** When a warm start may be tried again after failed ones. */
  private nextWarmStart = 0;
  private warmTimer: NodeJS.Timeout | undefined;
  /** Children started since the pool was made (for health and tests). */
  starts = 0;

  constructor(private readonly opts: WarehousePoolOptions) {}

  /** Children alive now, leased, idle or dying (pids), for health and tests. */
  pids(): number[] {
    return [...this.all].map((p) => p.pid);
  }

  /**
   * A child for one piece of work: an idle one, a new one while under `max`, or the next one freed.
   * With `maxWaitMs`, a lease that found no child in that time fails `timeout` and stops waiting.
   */
  async lease(maxWaitMs?: number): Promise<WarehouseLease> {
    const giveUpAt = maxWaitMs === undefined ? Infinity : Date.now() + maxWaitMs;
    for (;;) {
      if (this.closed) throw new Error('the warehouse process pool is closed');
      const idle = this.idle.pop();
      if (idle && !idle.dead) return this.leased(idle);
      if (this.all.size < this.opts.max) {
        const started = this.start();
        try {
          await started.ready;
        } catch (err) {
          // It failed for this caller, who hears why; whoever waits may try its own start.
          this.startFailed();
          this.wakeOne();
          throw err;
        }
        this.failedStarts = 0;
        return this.leased(started);
      }
      await this.waitTurn(giveUpAt);
    }
  }

  /** Waits until a child may be free, or throws `timeout` at `giveUpAt` (leaving the queue). */
  private async waitTurn(giveUpAt: number): Promise<void> {
    let wake = () => {};
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.waiting.push(wake);
    if (giveUpAt === Infinity) return woken;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(
            new WarehouseQueryError('timeout', 'no warehouse process was free in time: the host is busy'),
          );
        },
        Math.max(0, giveUpAt - Date.now()),
      );
    });
    try {
      await Promise.race([woken, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stops every child; leases under way fail as their process ends. */
  close(): void {
    this.closed = true;
    clearTimeout(this.warmTimer);
    for (const p of this.all) p.kill();
    for (const wake of this.waiting.splice(0)) wake();
  }

  private leased(p: WarehouseProcess): WarehouseLease {
    p.hold(true);
    p.leases++;
    let released: 'reused' | 'retired' | undefined;
    return {
      process: p,
      release: (reusable = true) => {
        // A late "not reusable" (a statement that was still running when its session closed)
        // still retires a child given back as reusable.
        if (released === 'retired' || (released === 'reused' && reusable)) return;
        if (released === 'reused') {
          const at = this.idle.indexOf(p);
          if (at >= 0) this.idle.splice(at, 1);
        }
        const limit = this.opts.leasesPerProcess ?? DEFAULT_LEASES_PER_PROCESS;
        if (reusable && !p.dead && !this.closed && p.leases < limit) {
          released = 'reused';
          p.hold(false);
          this.idle.push(p);
        } else {
          released = 'retired';
          // Counted against `max` until it has exited: its memory is not free before that.
          p.kill();
        }
        this.wakeOne();
        this.keepWarm();
      },
    };
  }

  /** A child, counted until it has exited; its exit frees its place and wakes a waiter. */
  private start(): WarehouseProcess {
    const p = new WarehouseProcess(this.opts);
    this.starts++;
    this.all.add(p);
    void p.exited
      .then(() => {
        const at = this.idle.indexOf(p);
        if (at >= 0) this.idle.splice(at, 1);
        this.all.delete(p);
        this.wakeOne();
        this.keepWarm();
      })
      // Nothing a child does may end its parent (docs/security.md#warehouse-processes).
      .catch(() => undefined);
    return p;
  }

  /** A start failed: the next warm start waits, doubling up to a minute while they keep failing. */
  private startFailed() {
    this.failedStarts++;
    this.nextWarmStart = Date.now() + Math.min(60_000, 100 * 2 ** Math.min(this.failedStarts, 10));
  }

  private wakeOne() {
    this.waiting.shift()?.();
  }

  /**
   * Starts children until `warm` are idle or starting (within `max`), in the background; after a
   * child failed to start, not before its back-off has passed (a child that cannot start must not be
   * restarted in a loop).
   */
  keepWarm(): void {
    if (this.closed || this.warmTimer) return;
    const wait = this.nextWarmStart - Date.now();
    if (wait > 0) {
      this.warmTimer = setTimeout(() => {
        this.warmTimer = undefined;
        this.keepWarm();
      }, wait);
      this.warmTimer.unref();
      return;
    }
    while (this.idle.length + this.warming < this.opts.warm && this.all.size < this.opts.max) {
      let p: WarehouseProcess;
      try {
        p = this.start();
      } catch {
        // The OS refused a process (out of memory, too many): try again after the back-off.
        this.startFailed();
        return this.keepWarm();
      }
      this.warming++;
      p.ready.then(
        () => {
          this.warming--;
          this.failedStarts = 0;
          if (this.closed || p.dead) return;
          // Idle, it does not keep its parent running.
          p.hold(false);
          this.idle.push(p);
          this.wakeOne();
        },
        () => {
          this.warming--;
          this.startFailed();
        },
      );
    }
  }
}
