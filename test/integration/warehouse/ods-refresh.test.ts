/**
 * Refreshing an ODS on the harness's MariaDB: a source copied once, then changed (amounts updated,
 * rows deleted, new rows, late rows dated months back, a keyless table grown), then refreshed under
 * the plan the analyst proposes for it. After each refresh every table equals a fresh copy of the
 * changed source, row for row, while the tables with a way to tell changes read only those.
 */
import * as fs from 'node:fs';
import type { RowDataPacket } from 'mysql2/promise';
import { refreshPlan } from '../../../domain/agents/offline-analyst/refresh-plan';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { copyOdsTables, writeSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { refreshOds, type OdsRefreshResult } from '../../../domain/warehouse/refresh/ods-refresh';
import { layerDatabaseFile, layerDir, odsTableFile } from '../../../domain/warehouse/warehouse-layout';
import type { PrdRefresh } from '../../../shared/prd-refresh';
import type { Prd } from '../../../shared/prd-schema';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource } from '../../harness/sakila';
import { DuckDBInstance } from '@duckdb/node-api';
import { connectMariaDb, duckRows } from './ods-fixtures';

const DB = 'ods_refresh';
const ORDERS = 3_000;
const VISITS = 2_000;

async function createSource(): Promise<void> {
  const db = await connectMariaDb({ multipleStatements: true });
  try {
    // Stamps of the first rows lie in the past, an hour apart: a refresh's look back finds the last only.
    await db.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB};
      CREATE TABLE customers (customer_id INT PRIMARY KEY, name VARCHAR(40) NOT NULL);
      CREATE TABLE orders (
        order_id INT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL,
        amount DECIMAL(10,2) NOT NULL, ordered_on DATE NOT NULL,
        changed_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
        FOREIGN KEY (customer_id) REFERENCES customers (customer_id));
      CREATE TABLE visits (visit_id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, seen_on DATE NOT NULL);
      CREATE TABLE tags (label VARCHAR(20) NOT NULL, weight INT NOT NULL);
      INSERT INTO customers SELECT seq, CONCAT('customer ', seq) FROM seq_1_to_40;
      INSERT INTO orders (customer_id, amount, ordered_on, changed_at)
        SELECT 1 + seq % 40, (seq % 500) / 4, DATE('2025-01-01') + INTERVAL seq % 300 DAY,
               TIMESTAMP('2025-06-01') + INTERVAL seq HOUR FROM seq_1_to_${ORDERS};
      INSERT INTO visits (customer_id, seen_on) SELECT 1 + seq % 40, DATE('2025-01-01') + INTERVAL seq % 300 DAY
        FROM seq_1_to_${VISITS};
      INSERT INTO tags SELECT CONCAT('t', seq), seq FROM seq_1_to_12;
      ANALYZE TABLE customers, orders, visits, tags;`);
  } finally {
    await db.end();
  }
}

/** Writes to the source between two refreshes. */
async function change(sql: string): Promise<void> {
  const db = await connectMariaDb({ multipleStatements: true, database: DB });
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}

/** One value the source answers, as text. */
async function sourceValue(sql: string): Promise<string> {
  const db = await connectMariaDb({ database: DB });
  try {
    const [rows] = await db.query<RowDataPacket[]>(sql);
    return String(rows[0].v);
  } finally {
    await db.end();
  }
}

/** The source's tables copied whole into a new ODS directory (as data integration does). */
async function copyWhole(schema: SourceSnapshot) {
  const warehouseRoot = newTestDataDir();
  const projectId = `proj-20261201-${Math.random().toString(36).slice(2, 8)}`;
  const { tables } = await copyOdsTables({
    dir: layerDir(warehouseRoot, projectId, 'ods'),
    source: harnessSource(DB),
    tables: schema.tables,
    done: [],
    onTable: () => {},
  });
  writeSourceSchema(warehouseRoot, projectId, schema, tables);
  return { warehouseRoot, projectId };
}

/** Rows of one table in one ODS and not in the other, both ways (none when they are equal). */
async function differences(a: { warehouseRoot: string; projectId: string }, b: typeof a, table: string) {
  const file = (x: typeof a) =>
    `read_parquet('${odsTableFile(layerDir(x.warehouseRoot, x.projectId, 'ods'), table)}')`;
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const [row] = (
    await conn.runAndReadAll(`SELECT (SELECT COUNT(*) FROM (SELECT * FROM ${file(a)} EXCEPT ALL SELECT * FROM ${file(b)})) AS only_a,
            (SELECT COUNT(*) FROM (SELECT * FROM ${file(b)} EXCEPT ALL SELECT * FROM ${file(a)})) AS only_b,
            (SELECT COUNT(*) FROM ${file(a)}) AS n`)
  ).getRowObjectsJS();
  conn.closeSync();
  instance.closeSync();
  return { only_refreshed: Number(row.only_a), only_fresh: Number(row.only_b), rows: Number(row.n) };
}

describe('refreshing an ODS from a changed source (harness MariaDB)', () => {
  let schema: SourceSnapshot;
  let plan: PrdRefresh[];
  let ods: { warehouseRoot: string; projectId: string };
  const prd = (refresh: PrdRefresh[]): Prd => ({ ...buildOfflinePrd(schema), refresh });
  const refresh = () => refreshOds({ ...ods, source: harnessSource(DB), prd: prd(plan) });
  const byTable = (r: OdsRefreshResult) => Object.fromEntries(r.tables.map((t) => [t.table, t]));
  async function expectEqualToAFreshCopy() {
    const fresh = await copyWhole(schema);
    for (const table of ['customers', 'orders', 'visits', 'tags'])
      expect({ table, ...(await differences(ods, fresh, table)) }).toMatchObject({
        table,
        only_refreshed: 0,
        only_fresh: 0,
      });
  }

  beforeAll(async () => {
    await createSource();
    const db = await harnessSource(DB).connect();
    try {
      schema = await exploreSource(db, DB, { sampleRows: 0, countRows: true });
    } finally {
      await db.end();
    }
    plan = refreshPlan(schema, ['customers', 'orders', 'visits', 'tags']);
    ods = await copyWhole(schema);
  }, 120_000);

  it('proposes the stamp, the counter and a whole read, as the source declares them', () => {
    expect(plan.map((p) => [p.table, p.detect, p.column, p.deletes])).toEqual([
      ['customers', 'full', undefined, 'reread'],
      ['orders', 'updated_at', 'changed_at', 'key_set'],
      ['visits', 'key', 'visit_id', 'key_set'],
      ['tags', 'full', undefined, 'reread'],
    ]);
  });

  it('reads only the changed rows of stamped and counted tables, and ends equal to a fresh copy', async () => {
    await change(`
      UPDATE orders SET amount = amount + 1.25 WHERE order_id % 100 = 0;
      DELETE FROM orders WHERE order_id % 250 = 7;
      INSERT INTO orders (customer_id, amount, ordered_on) SELECT 1 + seq % 40, seq, DATE('2024-03-01') + INTERVAL seq DAY FROM seq_1_to_25;
      DELETE FROM visits WHERE visit_id % 500 = 3;
      INSERT INTO visits (customer_id, seen_on) SELECT 1 + seq % 40, DATE('2024-02-01') FROM seq_1_to_15;
      UPDATE customers SET name = 'renamed' WHERE customer_id = 5;
      INSERT INTO customers VALUES (41, 'customer 41');
      INSERT INTO tags VALUES ('t13', 13);`);
    const result = byTable(await refresh());
    expect(result.orders).toMatchObject({
      read: 'changes',
      // 30 updated and 25 new rows; deletes found by counting keys per bucket, no key read.
      rows_read: 30 + 25,
      rows_before: ORDERS,
      rows_deleted: 12,
      rows_after: ORDERS - 12 + 25,
    });
    expect(result.visits).toMatchObject({
      read: 'changes',
      rows_read: 15,
      rows_deleted: 4,
      rows_after: VISITS - 4 + 15,
      watermark: await sourceValue('SELECT MAX(visit_id) AS v FROM visits'),
    });
    expect(result.customers).toMatchObject({ read: 'whole', rows_after: 41 });
    expect(result.tags).toMatchObject({ read: 'whole', rows_before: 12, rows_after: 13 });
    await expectEqualToAFreshCopy();
    // The work files are gone.
    expect(fs.readdirSync(layerDir(ods.warehouseRoot, ods.projectId, 'ods'))).not.toContain('refresh');
  }, 120_000);

  it('refreshes again after more changes, and once more with none, still equal to a fresh copy', async () => {
    await change(`
      UPDATE orders SET amount = 0 WHERE order_id BETWEEN 10 AND 14;
      DELETE FROM orders ORDER BY order_id DESC LIMIT 1;
      INSERT INTO visits (customer_id, seen_on) VALUES (1, '2023-12-31');`);
    const second = byTable(await refresh());
    expect(second.visits).toMatchObject({ rows_deleted: 0, rows_after: VISITS - 4 + 16 });
    expect(second.orders).toMatchObject({ rows_deleted: 1, rows_after: ORDERS - 12 + 24 });
    await expectEqualToAFreshCopy();
    const third = byTable(await refresh());
    expect(third.visits.rows_read).toBe(0);
    await expectEqualToAFreshCopy();
  }, 120_000);

  it('reads a table whole when its plan has no key to merge by, and says why', async () => {
    const keyless = [
      { table: 'tags', detect: 'key', column: 'weight', deletes: 'not_seen', evidence: '' },
    ] as PrdRefresh[];
    const result = await refreshOds({ ...ods, source: harnessSource(DB), prd: prd(keyless) });
    expect(byTable(result).tags).toMatchObject({ read: 'whole', detail: 'no key to merge changed rows by' });
    expect(byTable(result).orders).toMatchObject({
      read: 'whole',
      detail: 'the refresh plan does not name it',
    });
    await expectEqualToAFreshCopy();
  }, 120_000);

  it('reads every table whole after retention removed the ODS files, and registers the views again', async () => {
    const dir = layerDir(ods.warehouseRoot, ods.projectId, 'ods');
    // As retention does: every file but the saved schema, in sub-folders too (the pending changes).
    for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }))
      if (name !== 'source-schema.json' && fs.statSync(`${dir}/${name}`).isFile())
        fs.rmSync(`${dir}/${name}`);
    const result = byTable(await refresh());
    expect(
      Object.values(result)
        .map((t) => [t.table, t.read, t.detail])
        .sort(),
    ).toEqual([
      ['customers', 'whole', 'its ODS file is missing'],
      ['orders', 'whole', 'its ODS file is missing'],
      ['tags', 'whole', 'its ODS file is missing'],
      ['visits', 'whole', 'its ODS file is missing'],
    ]);
    await expectEqualToAFreshCopy();
    const views = prd(plan).layers.ods.map((t) => t.name);
    const catalog = layerDatabaseFile(ods.warehouseRoot, ods.projectId, 'ods');
    expect(
      (await duckRows(catalog, 'SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1')).map(
        (r) => r.view_name,
      ),
    ).toEqual([...views].sort());
  }, 120_000);
});
