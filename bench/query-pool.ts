/**
 * `npm run bench:query-pool`: what running `/query`'s DuckDB work in a child process costs
 * (docs/security.md#warehouse-processes). The same small queries on the same built layer go through
 * `PooledDuckDbWarehouse` (a warm pool: the child is started before timing) and, as the baseline in
 * the same run, through `DuckDbWarehouse` in this process, alternating so both see the same load.
 * Measured at `engine.query`, which is all `/query` adds the child to: HTTP, sign-in and slots are
 * the same on both paths. Target: pool p50 at most 1.3x the in-process p50.
 *
 * BENCH_QUERIES=150 (per path), BENCH_ROWS=50000.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDbWarehouse } from '../domain/warehouse/duckdb-warehouse';
import { hostWarehousePool } from '../domain/warehouse/process-pool/host-warehouse-pool';
import { PooledDuckDbWarehouse } from '../domain/warehouse/process-pool/pooled-duckdb-warehouse';
import type { WarehouseEngine } from '../domain/warehouse/warehouse-engine';
import { machineLine, ms, ratio, summarize, table, timed } from './lib/bench-stats';
import { runBench } from './lib/bench-stats';

const QUERIES = Number(process.env.BENCH_QUERIES ?? 150);
const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const PROJECT = 'proj-20261128-benchpool';

/** Small queries a dashboard or a person sends: a count, a grouped sum, a filtered page of rows. */
const STATEMENTS = [
  'SELECT COUNT(*) AS n FROM payments',
  'SELECT customer_id % 10 AS bucket, SUM(amount) AS total FROM payments GROUP BY 1 ORDER BY 1',
  'SELECT * FROM payments WHERE customer_id = 42 ORDER BY paid_at LIMIT 20',
];

async function main(): Promise<void> {
  console.log(machineLine());
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-pool-'));
  const pool = hostWarehousePool({});
  try {
    const inProcess = new DuckDbWarehouse(root);
    const pooled = new PooledDuckDbWarehouse(root, pool);
    await inProcess.buildLayer(PROJECT, 'dwd', [
      {
        name: 'payments',
        select: `SELECT i AS payment_id, i % 599 AS customer_id, CAST((i % 1000) / 100.0 AS DECIMAL(6,2)) AS amount,
          TIMESTAMP '2005-05-24' + INTERVAL (i) MINUTE AS paid_at FROM range(${ROWS}) t(i)`,
        partition_by: [],
      },
    ]);
    const engines: [string, WarehouseEngine][] = [
      ['in process (baseline)', inProcess],
      ['child process pool', pooled],
    ];
    // Warm: the pool's child started and DuckDB loaded in both processes.
    for (const [, engine] of engines)
      for (const sql of STATEMENTS) await engine.query(PROJECT, sql, 100, 'dwd');
    const samples = new Map<string, number[]>(engines.map(([name]) => [name, []]));
    for (let i = 0; i < QUERIES; i++)
      for (const [name, engine] of i % 2 ? [...engines].reverse() : engines) {
        const [took] = await timed(() =>
          engine.query(PROJECT, STATEMENTS[i % STATEMENTS.length], 100, 'dwd'),
        );
        samples.get(name)!.push(took);
      }
    const stats = engines.map(([name]) => [name, summarize(samples.get(name)!)] as const);
    console.log(`${QUERIES} queries per path over ${ROWS} rows, milliseconds per query:`);
    console.log(
      table(
        ['path', 'p50', 'p99', 'mean'],
        stats.map(([name, s]) => [name, ms(s.p50), ms(s.p99), ms(s.mean)]),
      ),
    );
    const [base, pooledStats] = [stats[0][1], stats[1][1]];
    console.log(`ratio pool / in process at p50: ${ratio(pooledStats.p50, base.p50)} (target at most 1.30x)`);
    console.log(`ratio pool / in process at p99: ${ratio(pooledStats.p99, base.p99)}`);
  } finally {
    pool.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
