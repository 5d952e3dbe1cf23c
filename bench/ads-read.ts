/**
 * `npm run bench:ads-read`: what one statement on an ADS table costs in the embedded warehouse when
 * the table covers years of days. The layer is built by `DuckDbWarehouse.buildLayer` (a Hive
 * partition a day on disk, the rows also in the layer's catalog) and read with `engine.query`.
 * Baseline in the same run: the same statement over the partition files themselves, as the catalog's
 * views read them before (`read_parquet` of the tree, Hive partitioning), on one open connection.
 *
 * BENCH_DAYS=1100 (three years), BENCH_STATEMENTS=30.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openDuckDb } from '../domain/warehouse/duckdb-module';
import { DuckDbWarehouse } from '../domain/warehouse/duckdb-warehouse';
import { ms, ratio, runBench } from './lib/bench-stats';

const DAYS = Number(process.env.BENCH_DAYS ?? 1100);
const STATEMENTS = Number(process.env.BENCH_STATEMENTS ?? 30);
const PROJECT = 'proj-20261127-benchads';
const STATEMENT = (table: string) =>
  `SELECT COUNT(*) AS days, SUM(revenue) AS revenue FROM ${table} WHERE stat_date >= DATE '2021-06-01'`;

/** CPU milliseconds (this process, every thread) per call of `fn`, over `STATEMENTS` calls. */
async function cpuPerCall(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const before = process.cpuUsage();
  for (let i = 0; i < STATEMENTS; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / STATEMENTS;
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-ads-'));
  try {
    const engine = new DuckDbWarehouse(root);
    const select = `SELECT DATE '2021-01-01' + CAST(i AS INTEGER) AS stat_date, i % 97 AS orders,
      CAST(i * 1.25 AS DECIMAL(14,2)) AS revenue FROM range(${DAYS}) t(i)`;
    const [built] = await engine.buildLayer(PROJECT, 'ads', [
      { name: 'ads_orders_kpi_daily', select, partition_by: ['stat_date'] },
    ]);
    const files = fs.readdirSync(built.location).length;
    console.log(`ads_orders_kpi_daily: ${built.row_count} rows in ${files} partition directories`);

    const catalog = await cpuPerCall(() =>
      engine.query(PROJECT, STATEMENT('ads_orders_kpi_daily'), 10, 'ads'),
    );
    const instance = await openDuckDb(':memory:');
    const conn = await instance.connect();
    const tree = `read_parquet('${built.location}/**/*.parquet', hive_partitioning = true, hive_types = {'stat_date': 'DATE'})`;
    const filesBaseline = await cpuPerCall(() => conn.runAndReadAll(STATEMENT(tree)));
    conn.closeSync();
    instance.closeSync();

    console.log(`CPU per statement, ${STATEMENTS} statements each:`);
    console.log(`  engine.query (catalog rows, a fresh in-memory DuckDB each): ${ms(catalog)} ms`);
    console.log(`  baseline, the partition files on one open connection:      ${ms(filesBaseline)} ms`);
    console.log(`  ratio baseline / engine.query: ${ratio(filesBaseline, catalog)}`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
