/**
 * The embedded warehouse as plat's processes use it: DuckDB's work runs in a child process of the
 * host's warehouse pool (docs/security.md#warehouse-processes), never in the gateway or a worker.
 * Each piece of work leases a child; a session (query or read) keeps its child across statements and
 * moves to a new one when a statement killed the old. What a child answers is what `DuckDbWarehouse`
 * answers: the same refusals, caps and errors.
 */
import type { LayerName, Prd } from '../../../shared/prd-schema';
import type { ReadSessionLimits, WarehouseReadSession } from '../duckdb-read-query';
import { DEFAULT_QUERY_TIMEOUT_MS } from '../duckdb-warehouse';
import {
  WarehouseQueryError,
  type BuiltTable,
  type LayerTableSpec,
  type LocalOds,
  type ProjectQuery,
  type QueryRows,
  type RefreshedTable,
  type TableScope,
  type DayRange,
  type WarehouseEngine,
} from '../warehouse-engine';
import type { WarehouseChildOp, WarehouseChildOps } from './warehouse-child-protocol';
import { WarehouseProcessEnded } from './warehouse-process';
import type { WarehouseLease, WarehouseProcessPool } from './warehouse-process-pool';

/**
 * How long past a statement's own timeout its child is killed: DuckDB is interrupted at the timeout
 * and the child answers half a second later at most (duckdb-read-query.ts withDeadline); a child
 * that has not answered by then is stuck in work that notices no interrupt.
 */
const KILL_GRACE_MS = 1_500;

/** Longest opening or closing a session may take (attaching the layers): a child stuck there is killed. */
const SESSION_STEP_DEADLINE_MS = 60_000;

/** Longest a layer's build or description runs: the stages' own time limit (their options in shared/analysis-stages.ts). */
const BUILD_DEADLINE_MS = 2 * 3600_000;

/** A child that answered this may hold what it could not finish or free: not given to anyone else. */
function retires(err: unknown): boolean {
  if (err instanceof WarehouseProcessEnded) return true;
  if (err instanceof WarehouseQueryError && err.reason === 'timeout') return true;
  return err instanceof Error && /out of memory/i.test(err.message);
}

/** Runs one call on a leased child and gives the child back (or retires it). */
async function onLeasedChild<K extends WarehouseChildOp>(
  pool: WarehouseProcessPool,
  root: string,
  op: K,
  args: WarehouseChildOps[K],
  deadlineMs: number,
  /** How long it may wait for a free child (queries: their own time limit; builds: their turn). */
  maxWaitMs?: number,
): Promise<unknown> {
  const lease = await pool.lease(maxWaitMs);
  try {
    const value = await lease.process.call(root, op, args, deadlineMs);
    lease.release();
    return value;
  } catch (err) {
    const retired = retires(err);
    lease.release(!retired);
    // The work ends when its child does (retired: killed now); whoever counts it counts it until then.
    if (retired && err instanceof WarehouseQueryError && err.reason === 'timeout' && !err.stillRunning)
      throw new WarehouseQueryError('timeout', err.message, lease.process.exited);
    throw err;
  }
}

/**
 * A session of statements on one child, opened with `open` on whichever child it holds: when a
 * statement cost the child (killed at its deadline, out of memory), the next statement opens the
 * session again on another.
 */
class PooledSession {
  private lease: Promise<WarehouseLease> | undefined;

  constructor(
    private readonly pool: WarehouseProcessPool,
    private readonly root: string,
    private readonly open: [op: 'openQuerySession' | 'openReadSession', args: unknown[]],
  ) {}

  /** Leases a child and opens the session on it (once; again after a statement retired it). */
  held(): Promise<WarehouseLease> {
    this.lease ??= (async () => {
      const lease = await this.pool.lease();
      try {
        const [op, args] = this.open;
        await lease.process.call(this.root, op, args as never, SESSION_STEP_DEADLINE_MS);
        return lease;
      } catch (err) {
        lease.release(!retires(err));
        throw err;
      }
    })().catch((err: unknown) => {
      this.lease = undefined;
      throw err;
    });
    return this.lease;
  }

  async run<K extends 'sessionQuery' | 'readQuery'>(
    op: K,
    args: WarehouseChildOps[K],
    deadlineMs: number,
  ): Promise<unknown> {
    const holding = this.held();
    const lease = await holding;
    try {
      return await lease.process.call(this.root, op, args, deadlineMs);
    } catch (err) {
      if (retires(err)) {
        if (this.lease === holding) this.lease = undefined;
        lease.release(false);
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    const pending = this.lease;
    this.lease = undefined;
    if (!pending) return;
    const lease = await pending.catch(() => undefined);
    if (!lease) return;
    try {
      await lease.process.call(this.root, 'closeSession', [], SESSION_STEP_DEADLINE_MS);
      lease.release();
    } catch {
      lease.release(false);
    }
  }
}

export class PooledDuckDbWarehouse implements WarehouseEngine {
  readonly kind = 'duckdb' as const;

  constructor(
    private readonly warehouseRoot: string,
    private readonly pool: WarehouseProcessPool,
  ) {}

  async buildLayer(projectId: string, layer: LayerName, tables: LayerTableSpec[]): Promise<BuiltTable[]> {
    return (await onLeasedChild(
      this.pool,
      this.warehouseRoot,
      'buildLayer',
      [projectId, layer, tables],
      BUILD_DEADLINE_MS,
    )) as BuiltTable[];
  }

  async refreshLayer(
    projectId: string,
    layer: LayerName,
    tables: LayerTableSpec[],
    below: Record<string, TableScope>,
    force?: DayRange,
  ): Promise<RefreshedTable[]> {
    return (await onLeasedChild(
      this.pool,
      this.warehouseRoot,
      'refreshLayer',
      [projectId, layer, tables, below, force],
      BUILD_DEADLINE_MS,
    )) as RefreshedTable[];
  }

  async query(
    projectId: string,
    sql: string,
    maxRows: number,
    defaultLayer?: LayerName,
    timeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
  ): Promise<QueryRows> {
    return (await onLeasedChild(
      this.pool,
      this.warehouseRoot,
      'query',
      [projectId, sql, maxRows, defaultLayer, timeoutMs],
      timeoutMs + KILL_GRACE_MS,
      timeoutMs,
    )) as QueryRows;
  }

  async withQuerySession<T>(projectId: string, work: (query: ProjectQuery) => Promise<T>): Promise<T> {
    const session = new PooledSession(this.pool, this.warehouseRoot, ['openQuerySession', [projectId]]);
    try {
      await session.held();
      return await work(
        async (sql, maxRows, defaultLayer, timeoutMs = DEFAULT_QUERY_TIMEOUT_MS) =>
          (await session.run(
            'sessionQuery',
            [sql, maxRows, defaultLayer, timeoutMs],
            timeoutMs + KILL_GRACE_MS,
          )) as QueryRows,
      );
    } finally {
      await session.close();
    }
  }

  /** A read session on one layer (the advisor's profiling), in a child: see `pooledReadSession`. */
  openReadSession(projectId: string, layer: LayerName, limits: ReadSessionLimits = {}) {
    return pooledReadSession(this.pool, this.warehouseRoot, projectId, layer, limits);
  }

  async publishOds(_projectId: string, _prd: Prd): Promise<void> {}

  async localOds(): Promise<LocalOds> {
    return { warehouseRoot: this.warehouseRoot, release: () => {} };
  }

  async describeLayer(projectId: string, layer: LayerName): Promise<BuiltTable[]> {
    return (await onLeasedChild(
      this.pool,
      this.warehouseRoot,
      'describeLayer',
      [projectId, layer],
      BUILD_DEADLINE_MS,
    )) as BuiltTable[];
  }
}

/**
 * `DuckDbWarehouse.openReadSession` in a child of `pool`, on the warehouse at `root`: the same
 * checks and caps, its statements on one child until one costs it.
 */
export async function pooledReadSession(
  pool: WarehouseProcessPool,
  root: string,
  projectId: string,
  layer: LayerName,
  limits: ReadSessionLimits = {},
): Promise<WarehouseReadSession> {
  const session = new PooledSession(pool, root, ['openReadSession', [projectId, layer, limits]]);
  await session.held();
  const deadline = (limits.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS) + KILL_GRACE_MS;
  return {
    async query(sql, options = {}) {
      return (await session.run('readQuery', [sql, options], deadline)) as QueryRows;
    },
    close() {
      void session.close();
    },
  };
}
