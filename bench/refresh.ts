/**
 * `npm run bench:refresh`: a refresh of a warehouse after 1% of its source's rows changed, against a
 * full rebuild of the same source in the same run (target: the refresh takes at most 0.1× as long).
 *
 * The source (a private MariaDB under .data/bench/, kept between runs, its tables in a 2 GB buffer
 * pool as a production server keeps its hot tables): `orders`, BENCH_ROWS rows (default 5,000,000)
 * stamped on change, the stamp indexed as a shop that syncs by it indexes it, with `customers` and
 * `products`. Each round changes 1% of
 * the orders the way a shop does: amounts and statuses of recent orders updated (0.8%), new orders
 * today (0.18%), late orders dated months back (0.01%) and cancelled orders deleted (0.01%). Then it
 * times the refresh of the warehouse built before (the source's changes merged into the ODS, the
 * layers rebuilt) and a full rebuild of a new warehouse on the changed source (the copy, the layers),
 * and checks the two ADS agree to the cent. BENCH_ROUNDS rounds (default 3); medians compared.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildOfflinePrd } from '../domain/agents/offline-analyst/prd-builder';
import { withRefreshPlan } from '../domain/agents/offline-analyst/refresh-plan';
import { exploreSource } from '../domain/sources/source-explorer';
import { sourceConnector } from '../domain/sources/mysql-connection';
import { warehouseEngine } from '../domain/warehouse/engine-factory';
import { countedSourceSchema, ingestOds } from '../domain/warehouse/ods-ingestion';
import { layerSelects, MODELED_LAYERS } from '../domain/warehouse/model-sql';
import { refreshOds } from '../domain/warehouse/refresh/ods-refresh';
import type { TableScope, WarehouseEngine } from '../domain/warehouse/warehouse-engine';
import { clearDeltas } from '../domain/warehouse/refresh/ods-delta';
import type { Prd } from '../shared/prd-schema';
import type { SourceSnapshot } from '../shared/source-schema';
import { machineLine, ms, ratio, table, timed } from './lib/bench-stats';
import { startBenchMariaDb } from './ingest-source';
import type { MariaDbInstance } from '../scripts/lib/mariadb-instance';

const DATABASE = 'bench_refresh';
const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 0.1;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Creates the source unless it holds `ROWS` orders already (earlier runs' changes are kept). */
async function ensureSource(db: MariaDbInstance, log: (l: string) => void): Promise<void> {
  await db.sql(`CREATE DATABASE IF NOT EXISTS ${DATABASE}`);
  const exists = (await db.sql("SHOW TABLES LIKE 'orders'", DATABASE)).trim() === 'orders';
  if (exists && Number((await db.sql('SELECT COUNT(*) FROM orders', DATABASE)).trim()) >= ROWS * 0.99) {
    // Sources made before the stamp was indexed get the index once.
    await db.sql('CREATE INDEX IF NOT EXISTS orders_updated_at ON orders (updated_at)', DATABASE);
    return;
  }
  log(`  creating ${DATABASE}.orders with ${ROWS} rows (once; later runs reuse it)`);
  await db.sql(
    `DROP TABLE IF EXISTS orders, customers, products;
     CREATE TABLE customers (customer_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, country VARCHAR(20) NOT NULL);
     CREATE TABLE products (product_id INT PRIMARY KEY, title VARCHAR(40) NOT NULL, category VARCHAR(20) NOT NULL);
     CREATE TABLE orders (
       order_id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, product_id INT NOT NULL,
       quantity INT NOT NULL, amount DECIMAL(12,2) NOT NULL,
       status ENUM('new','paid','shipped','cancelled') NOT NULL, ordered_at DATETIME NOT NULL,
       updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
       KEY orders_updated_at (updated_at),
       FOREIGN KEY (customer_id) REFERENCES customers (customer_id),
       FOREIGN KEY (product_id) REFERENCES products (product_id));
     INSERT INTO customers SELECT seq, CONCAT('customer ', seq), ELT(1 + seq % 6, 'NO', 'SE', 'DK', 'FI', 'DE', 'NL') FROM seq_1_to_50000;
     INSERT INTO products SELECT seq, CONCAT('product ', seq), ELT(1 + seq % 5, 'tools', 'books', 'games', 'garden', 'food') FROM seq_1_to_2000;`,
    DATABASE,
  );
  const chunk = 250_000;
  for (let from = 1; from <= ROWS; from += chunk) {
    const to = Math.min(ROWS, from + chunk - 1);
    // Two years of orders in key order, stamped when they were last changed (long ago).
    await db.sql(
      `INSERT INTO orders (order_id, customer_id, product_id, quantity, amount, status, ordered_at, updated_at)
       SELECT seq, 1 + seq * 7 % 50000, 1 + seq * 13 % 2000, 1 + seq % 4, 2 + (seq * 7919 % 50000) / 100,
              ELT(1 + seq % 4, 'new', 'paid', 'shipped', 'cancelled'),
              TIMESTAMP('2024-01-01') + INTERVAL FLOOR(seq * (730 * 86400 / ${ROWS})) SECOND,
              TIMESTAMP('2024-01-01') + INTERVAL FLOOR(seq * (730 * 86400 / ${ROWS})) SECOND + INTERVAL 1 DAY
       FROM seq_${from}_to_${to}`,
      DATABASE,
    );
  }
  await db.sql('ANALYZE TABLE customers, products, orders', DATABASE);
}

/** 1% of the orders changed, mostly recent ones, as round `round` of a shop's day. */
async function changeSource(db: MariaDbInstance, round: number): Promise<number> {
  const n = (share: number) => Math.max(1, Math.round(ROWS * share));
  const top = Number((await db.sql('SELECT MAX(order_id) FROM orders', DATABASE)).trim());
  const recent = Math.max(1, Math.round(ROWS * 0.05));
  const updates = n(0.008);
  // Every sixth order of the last 5%, a different sixth each round.
  await db.sql(
    `UPDATE orders SET amount = amount + 1.01, status = 'shipped'
      WHERE order_id > ${top - recent} AND order_id % 6 = ${round % 6} LIMIT ${updates}`,
    DATABASE,
  );
  await db.sql(
    `INSERT INTO orders (customer_id, product_id, quantity, amount, status, ordered_at)
     SELECT 1 + seq % 50000, 1 + seq % 2000, 1, 9.99, 'new', TIMESTAMP('2026-01-01') + INTERVAL ${round} DAY + INTERVAL seq SECOND
       FROM seq_1_to_${n(0.0018)};
     INSERT INTO orders (customer_id, product_id, quantity, amount, status, ordered_at)
     SELECT 1 + seq % 50000, 1 + seq % 2000, 2, 4.5, 'paid', TIMESTAMP('2024-06-01') + INTERVAL seq HOUR
       FROM seq_1_to_${n(0.0001)};
     DELETE FROM orders WHERE order_id > ${top - recent} AND order_id % 97 = ${round} LIMIT ${n(0.0001)};`,
    DATABASE,
  );
  return updates + n(0.0018) + n(0.0001) * 2;
}

interface Build {
  projectId: string;
  root: string;
}

/** A new warehouse on the source: every table copied to the ODS, then the layers built. */
async function fullBuild(engine: WarehouseEngine, root: string, ctx: Context, id: string): Promise<Build> {
  const projectId = `proj-20261201-bench${id}`;
  fs.rmSync(path.join(root, projectId), { recursive: true, force: true });
  const copied = await ingestOds({
    projectId,
    warehouseRoot: root,
    snapshot: ctx.schema,
    prd: ctx.prd,
    source: ctx.source,
    done: [],
    onTable: () => {},
  });
  await buildLayers(engine, projectId, ctx.prd, countedSourceSchema(ctx.schema, copied.tables));
  return { projectId, root };
}

async function buildLayers(engine: WarehouseEngine, projectId: string, prd: Prd, schema: SourceSnapshot) {
  for (const layer of MODELED_LAYERS)
    await engine.buildLayer(projectId, layer, layerSelects(prd, layer, projectId, schema));
}

/** The layers after a refresh, as the refresh workflow rebuilds them: only the days that changed. */
async function refreshLayers(
  engine: WarehouseEngine,
  root: string,
  projectId: string,
  prd: Prd,
  schema: SourceSnapshot,
) {
  const below: Record<string, TableScope> = {};
  for (const layer of MODELED_LAYERS)
    for (const t of await engine.refreshLayer!(
      projectId,
      layer,
      layerSelects(prd, layer, projectId, schema),
      below,
    ))
      below[`${layer}.${t.name}`] = t.scope;
  clearDeltas(root, projectId);
  return Object.entries(below).map(([name, s]) =>
    s.kind === 'days'
      ? `${name} ${s.days.length} days`
      : `${name} ${s.kind}${s.kind === 'whole' ? ` (${s.reason})` : ''}`,
  );
}

interface Context {
  source: ReturnType<typeof sourceConnector>;
  schema: SourceSnapshot;
  prd: Prd;
}

/** Every ADS table's rows as text, to compare two warehouses. */
async function adsText(engine: WarehouseEngine, projectId: string, prd: Prd): Promise<string> {
  const parts: string[] = [];
  for (const t of prd.layers.ads) {
    const { rows } = await engine.query(
      projectId,
      `SELECT * FROM "${t.name}" ORDER BY ALL`,
      10_000_000,
      'ads',
      600_000,
    );
    parts.push(`${t.name}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function main(): Promise<void> {
  const log = (line: string) => console.log(line);
  log('bench:refresh — a refresh after 1% of the rows changed, against a full rebuild');
  log(`  ${machineLine()}`);
  const db = await startBenchMariaDb();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-refresh-'));
  const engine = warehouseEngine(undefined, root);
  try {
    await ensureSource(db, log);
    const source = sourceConnector(
      { host: db.host, port: db.port, database: DATABASE, options: {} },
      db.user,
      db.password,
    );
    const conn = await source.connect();
    const schema = await exploreSource(conn, DATABASE).finally(() => conn.end());
    const prd = withRefreshPlan(buildOfflinePrd(schema, 'an online shop'), schema);
    log(
      `  plan: ${prd.refresh.map((r) => `${r.table} ${r.detect}${r.column ? ` (${r.column})` : ''}, deletes ${r.deletes}`).join('; ')}`,
    );
    const ctx: Context = { source, schema, prd };
    const [firstMs, kept] = await timed(() => fullBuild(engine, root, ctx, 'kept'));
    log(`  first build: ${ms(firstMs / 1000)} s`);
    const rows: string[][] = [];
    const refreshes: number[] = [];
    const rebuilds: number[] = [];
    let scopes: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const changed = await changeSource(db, round);
      const [refreshMs, [odsMs, odsResult]] = await timed(async () => {
        const ods = await timed(() =>
          refreshOds({ warehouseRoot: root, projectId: kept.projectId, source, prd }),
        );
        const counted = JSON.parse(
          fs.readFileSync(path.join(root, kept.projectId, 'ods', 'source-schema.json'), 'utf8'),
        ) as SourceSnapshot;
        scopes = await refreshLayers(engine, root, kept.projectId, prd, counted);
        return ods;
      });
      const [rebuildMs, fresh] = await timed(() => fullBuild(engine, root, ctx, `r${round}`));
      const equal =
        (await adsText(engine, kept.projectId, prd)) === (await adsText(engine, fresh.projectId, prd));
      if (!equal) throw new Error(`round ${round}: the refreshed ADS differs from the rebuilt one`);
      fs.rmSync(path.join(root, fresh.projectId), { recursive: true, force: true });
      log(`  round ${round}: ${scopes.join('; ')}`);
      refreshes.push(refreshMs);
      rebuilds.push(rebuildMs);
      rows.push([
        `round ${round}`,
        String(changed),
        String(odsResult.rows_read),
        ms(odsMs / 1000),
        ms(refreshMs / 1000),
        ms(rebuildMs / 1000),
        ratio(refreshMs, rebuildMs),
        'yes',
      ]);
    }
    log('');
    log(
      table(
        [
          '',
          'rows changed',
          'rows read',
          'ODS refresh s',
          'refresh s',
          'full rebuild s',
          'ratio',
          'ADS equal',
        ],
        rows,
      ),
    );
    const r = median(refreshes) / median(rebuilds);
    log('');
    log(
      `refresh ${ms(median(refreshes) / 1000)} s against a full rebuild ${ms(median(rebuilds) / 1000)} s (medians): ${r.toFixed(3)}x (target ≤ ${TARGET}x: ${r <= TARGET ? 'met' : 'not met'})`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    await db.service.stop();
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
