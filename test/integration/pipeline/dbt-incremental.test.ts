/**
 * The exported dbt project keeps plat's incremental semantics (docs/dbt-export.md#incremental-models):
 * a project built on a small source of the harness's MariaDB, exported and built by dbt; then the
 * source changed (amounts updated, a sale moved to another day, a late sale months back, sales
 * deleted, a store moved to another city), plat's refresh run, and `dbt build` again: every table
 * equals plat's refreshed one, row for row, and the incremental models recomputed only the days
 * the changes touch. A backfill range given as vars, and a change log trimmed past the last build
 * (refused, naming --full-refresh), too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatePipelineTemplates } from '../../../domain/pipeline/pipeline-templates';
import { layerSelects, MODELED_LAYERS } from '../../../domain/warehouse/model-sql';
import { readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { clearDeltas } from '../../../domain/warehouse/refresh/ods-delta';
import { refreshOds } from '../../../domain/warehouse/refresh/ods-refresh';
import type { TableScope } from '../../../domain/warehouse/warehouse-engine';
import { layerDir } from '../../../domain/warehouse/warehouse-layout';
import { runDbt, writeDbtProject } from '../../harness/dbt';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource } from '../../harness/sakila';
import { connectMariaDb, createStoreSales, duckRows } from '../warehouse/ods-fixtures';
import { buildProject, type BuiltProject } from '../warehouse/zoo-project-checks';

const DB = 'dbt_incremental';
const PROJECT = 'proj-20261201-dbtincr';

/**
 * A project built by plat on `db` (made by `create`), exported as a dbt project, with what the tests
 * do with it: dbt run, dbt's tables against plat's, plat's refresh, the days dbt recomputed.
 */
function exportedProject(db: string, project: string, description: string, create: () => Promise<void>) {
  let built: BuiltProject;
  let root: string;
  let dir: string;
  let dbtDb: string;
  const dbt = (...args: string[]) =>
    runDbt(dir, args, { PLAT_ODS_DIR: layerDir(root, project, 'ods'), PLAT_DBT_DATABASE: dbtDb });

  /**
   * Runs `dbt <command>` with `args` and fails with its output unless every node passed: `build`
   * (models and their tests) where the tests matter, `run` (models only, a few seconds less) after.
   */
  async function dbtOk(command: 'build' | 'run', ...args: string[]): Promise<void> {
    const run = await dbt(command, ...args);
    if (run.code !== 0) throw new Error(run.output.slice(-4000));
  }

  /** What dbt's database answers to `sql`. */
  const dbtRows = (sql: string) => duckRows(dbtDb, sql);

  /** Every modeled table: its rows in dbt's database and in plat's warehouse, as sorted text. */
  async function expectDbtEqualsPlat(): Promise<void> {
    for (const layer of MODELED_LAYERS)
      for (const t of built.prd.layers[layer]) {
        const rowsSql = (from: string) => `SELECT CAST(COLUMNS(*) AS VARCHAR) FROM ${from} ORDER BY ALL`;
        const plat = (await built.engine.query(project, rowsSql(`"${t.name}"`), 100_000, layer)).rows;
        const got = await dbtRows(rowsSql(`main."${t.name}"`));
        expect({ table: `${layer}.${t.name}`, rows: got }).toEqual({
          table: `${layer}.${t.name}`,
          rows: plat.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? null]))),
        });
      }
  }

  /** A refresh as the refresh workflow runs it: the ODS from the source, then each layer by day. */
  async function refresh(): Promise<Record<string, TableScope>> {
    await refreshOds({ warehouseRoot: root, projectId: project, source: harnessSource(db), prd: built.prd });
    const source = readSourceSchema(root, project);
    const below: Record<string, TableScope> = {};
    for (const layer of MODELED_LAYERS) {
      const specs = layerSelects(built.prd, layer, project, source);
      for (const t of await built.engine.refreshLayer!(project, layer, specs, below))
        below[`${layer}.${t.name}`] = t.scope;
    }
    clearDeltas(root, project);
    return below;
  }

  /** The days each incremental model recomputed in dbt's last run. */
  const recomputed = async () =>
    Object.fromEntries(
      (
        await dbtRows(
          `SELECT model, list(CAST(d AS VARCHAR) ORDER BY d) AS days FROM plat_changed_days GROUP BY model`,
        )
      ).map((r) => [String(r.model), r.days as string[]]),
    );

  let incremental: string[];

  beforeAll(async () => {
    await create();
    root = newTestDataDir();
    const mysql = await connectMariaDb({ database: db });
    try {
      built = await buildProject(mysql, harnessSource(db), db, description, root, project);
    } finally {
      await mysql.end();
    }
    const source = readSourceSchema(root, project);
    const templates = await generatePipelineTemplates({
      projectId: project,
      prd: built.prd,
      source,
      layers: MODELED_LAYERS.map((layer) => ({
        layer,
        tables: layerSelects(built.prd, layer, project, source),
      })),
    });
    dir = writeDbtProject(templates.files, 'plat-dbt-incremental-');
    incremental = templates.files
      .filter((f) => f.path.startsWith('dbt/models/') && f.content.includes("materialized='incremental'"))
      .map((f) => path.basename(f.path, '.sql'));
    dbtDb = path.join(dir, 'warehouse.duckdb');
  }, 300_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  return {
    dbt,
    dbtOk,
    dbtRows,
    expectDbtEqualsPlat,
    refresh,
    recomputed,
    get built() {
      return built;
    },
    get root() {
      return root;
    },
    get incremental() {
      return incremental;
    },
  };
}

describe('the dbt project after a refresh', () => {
  const p = exportedProject(DB, PROJECT, 'store sales', () => createStoreSales(DB));
  const { dbt, dbtOk, dbtRows, expectDbtEqualsPlat, refresh, recomputed } = p;

  it("builds whole the first time, equal to plat's warehouse", async () => {
    // The sales fact by day, and what sums it by day, are incremental; not every model is.
    expect(p.incremental.length).toBeGreaterThan(1);
    const models = MODELED_LAYERS.flatMap((l) => p.built.prd.layers[l].map((t) => t.name));
    expect(p.incremental.length).toBeLessThanOrEqual(models.length);
    await dbtOk('build');
    await expectDbtEqualsPlat();
  }, 300_000);

  it('recomputes only the days the changes touch, and ends equal to plat after its refresh', async () => {
    const db = await connectMariaDb({ database: DB, multipleStatements: true });
    try {
      // Amounts updated on two days, a sale moved 20 days on, a late sale dated months back, two
      // sales deleted, and store 4 moved to another city (every day it sold on changes).
      await db.query(`UPDATE sales SET amount = amount + 1 WHERE sale_id IN (10, 11);
        UPDATE sales SET sold_at = sold_at + INTERVAL 20 DAY WHERE sale_id = 300;
        INSERT INTO sales (store_id, amount, sold_at) VALUES (3, 55.50, '2024-11-15 12:00:00');
        DELETE FROM sales WHERE sale_id IN (500, 501);
        UPDATE stores SET city = 'Lima' WHERE store_id = 4;`);
    } finally {
      await db.end();
    }
    const scopes = await refresh();
    await dbtOk('build');
    await expectDbtEqualsPlat();
    const days = await recomputed();
    // Each incremental model recomputed some days, not all, and the late sale's day among them
    // where it sums by day.
    for (const model of p.incremental) {
      const layer = MODELED_LAYERS.find((l) => p.built.prd.layers[l].some((t) => t.name === model))!;
      const all = await dbtRows(`SELECT COUNT(*) AS n FROM main."${model}"`);
      expect({ model, recomputed: (days[model] ?? []).length > 0 }).toEqual({ model, recomputed: true });
      expect((days[model] ?? []).length).toBeLessThan(Number(all[0].n));
      const plat = scopes[`${layer}.${model}`];
      if (plat?.kind === 'days') expect(days[model]).toEqual(expect.arrayContaining(plat.days));
    }
  }, 300_000);

  it('recomputes nothing else when nothing changed, and the days of a backfill range given as vars', async () => {
    await refresh();
    await dbtOk('run', '--vars', '{plat_from: "2025-03-02", plat_to: "2025-03-03"}');
    const days = await recomputed();
    // The range in each model over the ODS and what they give above; no day more.
    expect(Object.keys(days).sort()).toEqual([...p.incremental].sort());
    for (const model of p.incremental)
      expect({ model, days: days[model] }).toEqual({ model, days: ['2025-03-02', '2025-03-03'] });
    await expectDbtEqualsPlat();
  }, 300_000);

  it('refuses to go on from a change log trimmed past its last build, naming --full-refresh', async () => {
    const log = path.join(layerDir(p.root, PROJECT, 'ods'), 'change-log');
    fs.writeFileSync(path.join(log, 'trimmed-through'), String(Date.now() + 60_000));
    const run = await dbt('run');
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('run dbt build --full-refresh');
    await dbtOk('run', '--full-refresh');
    await expectDbtEqualsPlat();
  }, 300_000);
});

describe('the dbt project of order lines dated by their order, after a refresh', () => {
  const LINES_DB = 'dbt_incremental_lines';
  const p = exportedProject(LINES_DB, 'proj-20261202-dbtlines', 'an online shop', async () => {
    const conn = await connectMariaDb({ multipleStatements: true });
    try {
      // Orders and their lines; a line has no date of its own.
      await conn.query(`DROP DATABASE IF EXISTS ${LINES_DB}; CREATE DATABASE ${LINES_DB}; USE ${LINES_DB};
        CREATE TABLE orders (order_id INT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(20) NOT NULL,
          ordered_at DATETIME NOT NULL,
          changed_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP);
        CREATE TABLE order_lines (line_id INT AUTO_INCREMENT PRIMARY KEY, order_id INT NOT NULL,
          quantity INT NOT NULL, unit_price DECIMAL(10,2) NOT NULL,
          changed_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
          FOREIGN KEY (order_id) REFERENCES orders (order_id));
        INSERT INTO orders (customer, ordered_at, changed_at)
          SELECT CONCAT('c', seq % 23), TIMESTAMP('2025-03-01') + INTERVAL (seq * 7) HOUR,
                 TIMESTAMP('2025-09-01') + INTERVAL seq HOUR FROM seq_1_to_400;
        INSERT INTO order_lines (order_id, quantity, unit_price, changed_at)
          SELECT 1 + seq % 400, 1 + seq % 5, 2 + (seq * 17 % 500) / 10,
                 TIMESTAMP('2025-09-01') + INTERVAL seq HOUR FROM seq_1_to_1200;
        ANALYZE TABLE orders, order_lines;`);
    } finally {
      await conn.end();
    }
  });

  it('keeps the lines incremental, recomputes the days an order moved from and to, and ends equal to plat', async () => {
    await p.dbtOk('build');
    const lines = p.built.prd.layers.dwd.find((t) => t.source_tables?.includes('order_lines'))?.name;
    expect(lines).toBeDefined();
    // plat rebuilds the lines by the day of their order; so does dbt.
    expect(p.incremental).toContain(lines);
    const db = await connectMariaDb({ database: LINES_DB, multipleStatements: true });
    try {
      // Order 40 (2025-03-12) moved to 2025-05-01 (its lines untouched); a line of order 100
      // (2025-03-30) repriced.
      await db.query(`UPDATE orders SET ordered_at = '2025-05-01 10:00:00' WHERE order_id = 40;
        UPDATE order_lines SET unit_price = unit_price + 1 WHERE line_id = 99;`);
    } finally {
      await db.end();
    }
    const scopes = await p.refresh();
    expect(scopes[`dwd.${lines}`]).toMatchObject({ kind: 'days' });
    await p.dbtOk('build');
    await p.expectDbtEqualsPlat();
    expect((await p.recomputed())[lines!]).toEqual(['2025-03-12', '2025-03-30', '2025-05-01']);
  }, 300_000);
});
