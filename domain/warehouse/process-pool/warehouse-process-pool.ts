/**
 * The warehouse processes of one parent (the gateway or a worker; docs/security.md#warehouse-processes):
 * up to `max` children, each leased to one piece of work at a time, `warm` of them started ahead so
 * a lease rarely waits for a start. A child that died, ran past a deadline or served many leases is
 * not reused; its place is taken by a new one.
 */
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

  constructor(private readonly opts: WarehousePoolOptions) {}

  /** Children alive now, leased or idle (pids), for health and tests. */
  pids(): number[] {
    return [...this.all].map((p) => p.pid);
  }

  /** A child for one piece of work: an idle one, a new one while under `max`, or the next one freed. */
  async lease(): Promise<WarehouseLease> {
    for (;;) {
      if (this.closed) throw new Error('the warehouse process pool is closed');
      const idle = this.idle.pop();
      if (idle && !idle.dead) return this.leased(idle);
      if (this.all.size < this.opts.max) {
        const started = this.start();
        try {
          await started.ready;
        } catch (err) {
          this.forget(started);
          throw err;
        }
        return this.leased(started);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Stops every child; leases under way fail as their process ends. */
  close(): void {
    this.closed = true;
    for (const p of this.all) p.kill();
    for (const wake of this.waiting.splice(0)) wake();
  }

  private leased(p: WarehouseProcess): WarehouseLease {
    p.hold(true);
    let released = false;
    return {
      process: p,
      release: (reusable = true) => {
        if (released) return;
        released = true;
        const limit = this.opts.leasesPerProcess ?? DEFAULT_LEASES_PER_PROCESS;
        if (reusable && !p.dead && !this.closed && p.calls < limit) {
          p.hold(false);
          this.idle.push(p);
        } else {
          p.kill();
          this.forget(p);
        }
        this.wakeOne();
        this.keepWarm();
      },
    };
  }

  private start(): WarehouseProcess {
    const p = new WarehouseProcess(this.opts);
    this.all.add(p);
    void p.exited.then(() => {
      // Dead while idle (killed from outside, or its parent's pool closed): out of the pool.
      const at = this.idle.indexOf(p);
      if (at >= 0) this.idle.splice(at, 1);
      this.forget(p);
      this.wakeOne();
      this.keepWarm();
    });
    return p;
  }

  private forget(p: WarehouseProcess) {
    this.all.delete(p);
  }

  private wakeOne() {
    this.waiting.shift()?.();
  }

  /** Starts children until `warm` are idle or starting (within `max`), in the background. */
  keepWarm(): void {
    while (
      !this.closed &&
      this.idle.length + this.warming < this.opts.warm &&
      this.all.size < this.opts.max
    ) {
      this.warming++;
      const p = this.start();
      p.ready.then(
        () => {
          this.warming--;
          if (this.closed || p.dead) return;
          // Idle, it does not keep its parent running.
          p.hold(false);
          this.idle.push(p);
          this.wakeOne();
        },
        () => {
          this.warming--;
          this.forget(p);
        },
      );
    }
  }
}
