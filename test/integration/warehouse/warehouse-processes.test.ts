/**
 * The host's warehouse processes (docs/security.md#warehouse-processes): work runs in a child under
 * an OS memory limit, a child is reused while it is healthy and replaced when it dies, times out or
 * runs out of memory, and a session of statements moves to a new child when its own is lost.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PooledDuckDbWarehouse } from '../../../domain/warehouse/process-pool/pooled-duckdb-warehouse';
import { WarehouseProcessPool } from '../../../domain/warehouse/process-pool/warehouse-process-pool';
import { sizeInBytes } from '../../../domain/warehouse/process-pool/host-warehouse-pool';
import { WarehouseQueryError } from '../../../domain/warehouse/warehouse-engine';
import { harness } from '../../harness/harness-state';
import { isAlive } from '../../harness/process-lookup';

const PROJECT = 'proj-20261128-pool0001';
const CROSS = 'SELECT COUNT(*) AS n FROM range(10000000) a, range(10000000) b';

describe('warehouse processes', () => {
  let root: string;
  const pools: WarehouseProcessPool[] = [];
  const poolOf = (opts: Partial<ConstructorParameters<typeof WarehouseProcessPool>[0]> = {}) => {
    const pool = new WarehouseProcessPool({
      child: { limits: { memoryLimit: '256MB' } },
      memoryBytes: sizeInBytes('768MB'),
      niceness: 10,
      max: 2,
      warm: 1,
      ...opts,
    });
    pools.push(pool);
    return { pool, warehouse: new PooledDuckDbWarehouse(root, pool) };
  };

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(harness().runDir, 'pool-'));
    const { pool, warehouse } = poolOf();
    await warehouse.buildLayer(PROJECT, 'dwd', [
      { name: 'numbers', select: 'SELECT range AS x FROM range(1000)', partition_by: [] },
    ]);
    pool.close();
  });
  afterAll(() => pools.forEach((p) => p.close()));

  it('reuses one healthy child for work after work, and answers as DuckDB does', async () => {
    const { pool, warehouse } = poolOf();
    const sum = () => warehouse.query(PROJECT, 'SELECT SUM(x) AS s FROM numbers', 10, 'dwd');
    expect((await sum()).rows).toEqual([{ s: '499500' }]);
    const first = pool.pids();
    for (let i = 0; i < 5; i++) await sum();
    expect(pool.pids()).toEqual(first);
    // The sandbox's refusals come back as the same errors.
    await expect(warehouse.query(PROJECT, 'SELECT nope FROM numbers', 10, 'dwd')).rejects.toMatchObject({
      reason: 'invalid_sql',
    });
    await expect(warehouse.query(PROJECT, 'SELECT * FROM enable_logging()', 10, 'dwd')).rejects.toMatchObject(
      {
        reason: 'not_allowed',
      },
    );
    await expect(warehouse.query(PROJECT, 'SELECT 1', 10, 'ads')).rejects.toMatchObject({
      reason: 'layer_not_built',
    });
    expect(pool.pids()).toEqual(first);
  });

  it('stops a child at its memory limit: that statement fails, the child is replaced, the parent stays', async () => {
    // Not niced: filling 768 MB takes several CPU-seconds, and a niced child among a full run's busy
    // processes gets a twentieth of a core, which stretched it past the 60 s deadline once.
    const { pool, warehouse } = poolOf({ niceness: 0 });
    await warehouse.query(PROJECT, 'SELECT 1 AS one', 1, 'dwd');
    const [child] = pool.pids();
    const rss = process.memoryUsage().rss;
    const err = await warehouse
      .query(PROJECT, 'SELECT len(list_transform(range(10000), x -> range(10000))) AS n', 1, 'dwd')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WarehouseQueryError);
    expect((err as Error).message).toMatch(/out of memory/i);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 ** 2);
    // Retired: killed, and gone once the OS has reaped it.
    for (let i = 0; i < 100 && isAlive(child); i++) await new Promise((r) => setTimeout(r, 50));
    expect(isAlive(child)).toBe(false);
    expect((await warehouse.query(PROJECT, 'SELECT COUNT(*) AS n FROM numbers', 1, 'dwd')).rows).toEqual([
      { n: '1000' },
    ]);
  });

  it('kills a child past its deadline, and fails only the work of a child that died', async () => {
    const { pool, warehouse } = poolOf({ warm: 0 });
    const late = warehouse.query(PROJECT, CROSS, 1, 'dwd', 500).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    const [running] = pool.pids();
    expect(await late).toMatchObject({ reason: 'timeout' });
    await ((await late) as WarehouseQueryError).stillRunning;
    expect(isAlive(running)).toBe(false);

    const doomed = warehouse.query(PROJECT, CROSS, 1, 'dwd', 30_000).catch((e: unknown) => e);
    for (let i = 0; i < 100 && pool.pids().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pool.pids()[0], 'SIGABRT');
    const died = (await doomed) as Error;
    expect(died.message).toContain('aborted');
    expect((await warehouse.query(PROJECT, 'SELECT 2 AS two', 1, 'dwd')).rows).toEqual([{ two: 2 }]);
  });

  it('moves a session of statements to a new child when a statement cost it its own', async () => {
    const { pool, warehouse } = poolOf();
    const answers = await warehouse.withQuerySession(PROJECT, async (query) => {
      const first = await query('SELECT COUNT(*) AS n FROM numbers', 1, 'dwd');
      const pid = pool.pids();
      const late = await query(CROSS, 1, 'dwd', 300).catch((e: unknown) => (e as WarehouseQueryError).reason);
      const after = await query('SELECT MAX(x) AS m FROM numbers', 1, 'dwd');
      return {
        first: first.rows,
        late,
        after: after.rows,
        moved: !pid.every((p) => pool.pids().includes(p)),
      };
    });
    expect(answers).toEqual({ first: [{ n: '1000' }], late: 'timeout', after: [{ m: '999' }], moved: true });
  });

  it('holds work beyond its processes until one is free', async () => {
    const { pool, warehouse } = poolOf({ max: 1, warm: 0 });
    const order: string[] = [];
    const slow = warehouse.query(PROJECT, CROSS, 1, 'dwd', 400).catch(() => order.push('slow ended'));
    const quick = warehouse.query(PROJECT, 'SELECT 1 AS one', 1, 'dwd').then(() => order.push('quick'));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['slow ended', 'quick']);
    expect(pool.pids().length).toBeLessThanOrEqual(1);
  });

  it('says so when a child cannot start under its memory limit, backs off, and its children leave when closed', async () => {
    const { pool: failing, warehouse } = poolOf({ memoryBytes: 1024 ** 2 });
    await expect(warehouse.query(PROJECT, 'SELECT 1', 1, 'dwd')).rejects.toThrow(/warehouse process/);
    // A child that cannot start is not started again in a loop: the warm starts back off.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(failing.starts).toBeLessThan(8);
    failing.close();
    const { pool, warehouse: ok } = poolOf();
    await ok.query(PROJECT, 'SELECT 1', 1, 'dwd');
    const pids = pool.pids();
    pool.close();
    for (let i = 0; i < 40 && pids.some(isAlive); i++) await new Promise((r) => setTimeout(r, 50));
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('retires a child given back while a statement still ran on it, and gives children none of its secrets', async () => {
    process.env.PLAT_TEST_PARENT_SECRET = 'parent-secret-value';
    try {
      const { pool } = poolOf({ warm: 0 });
      const lease = await pool.lease();
      const environ = fs.readFileSync(`/proc/${lease.process.pid}/environ`, 'utf8');
      expect(environ).not.toContain('parent-secret-value');
      expect(environ).toContain('PATH=');
      lease.release();
      // The statement that was still running reports it cost the child: it is not reused.
      lease.release(false);
      for (let i = 0; i < 40 && isAlive(lease.process.pid); i++) await new Promise((r) => setTimeout(r, 50));
      expect(isAlive(lease.process.pid)).toBe(false);
      const next = await pool.lease();
      expect(next.process.pid).not.toBe(lease.process.pid);
      next.release();
    } finally {
      delete process.env.PLAT_TEST_PARENT_SECRET;
    }
  });

  it('stops waiting for a free child at a query’s time limit', async () => {
    const { warehouse } = poolOf({ max: 1, warm: 0 });
    const busy = warehouse.query(PROJECT, CROSS, 1, 'dwd', 3_000).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    await expect(warehouse.query(PROJECT, 'SELECT 1 AS one', 1, 'dwd', 300)).rejects.toMatchObject({
      reason: 'timeout',
      message: expect.stringContaining('no warehouse process was free'),
    });
    expect(await busy).toMatchObject({ reason: 'timeout' });
  });
});
