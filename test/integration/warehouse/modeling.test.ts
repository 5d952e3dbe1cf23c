/** Data modeling on Sakila: DWD/DWS/ADS built from the offline PRD into DuckDB over Parquet. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { openDuckDb } from '../../../domain/warehouse/duckdb-module';
import { layerSelects, layerScript, MODELED_LAYERS } from '../../../domain/warehouse/model-sql';
import { readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { LayerBuildError } from '../../../domain/warehouse/warehouse-engine';
import { layerDatabaseFile, layerDir } from '../../../domain/warehouse/warehouse-layout';
import type { Prd } from '../../../shared/prd-schema';
import { newTestDataDir } from '../../harness/platform-gateway';
import { ingestSakilaOds } from '../../harness/sakila';

const projectId = 'proj-20261122-model01';

describe('data modeling on Sakila', () => {
  let root: string;
  let prd: Prd;
  let engine: DuckDbWarehouse;

  beforeAll(async () => {
    root = newTestDataDir();
    prd = await ingestSakilaOds(root, projectId);
    engine = new DuckDbWarehouse(root);
    const source = readSourceSchema(root, projectId);
    for (const layer of MODELED_LAYERS)
      await engine.buildLayer(projectId, layer, layerSelects(prd, layer, projectId, source));
  });

  const one = async (sql: string) => (await engine.query(projectId, sql, 10)).rows[0];

  it('builds DWD detail tables with one row per fact row, joined with dimension labels', async () => {
    const dwd = 'plat_proj_20261122_model01_dwd';
    expect(await one(`SELECT COUNT(*) AS n FROM ${dwd}.dwd_rental_detail`)).toEqual({ n: '16044' });
    expect(await one(`SELECT COUNT(*) AS n FROM ${dwd}.dwd_payment_detail`)).toEqual({ n: '16044' });
    const film = await one(
      `SELECT film_title, customer_first_name FROM ${dwd}.dwd_rental_detail WHERE rental_id = 1`,
    );
    expect(film).toEqual({ film_title: 'BLANKET BEVERLY', customer_first_name: 'CHARLOTTE' });
  });

  it('aggregates by day in DWS and serves ADS partitioned by stat_date with exact sums', async () => {
    const ads = 'plat_proj_20261122_model01_ads';
    expect(
      await one(`SELECT CAST(SUM(total_amount) AS VARCHAR) AS s FROM ${ads}.ads_payment_kpi_daily`),
    ).toEqual({ s: '67406.56' });
    expect(await one(`SELECT SUM(rental_count) AS n FROM ${ads}.ads_rental_kpi_daily`)).toEqual({
      n: '16044',
    });
    const partitions = fs.readdirSync(
      path.join(
        layerDir(root, projectId, 'ads'),
        fs.readdirSync(layerDir(root, projectId, 'ads')).find((d) => d.startsWith('data-'))!,
        'ads_rental_kpi_daily',
      ),
    );
    expect(partitions).toContain('stat_date=2005-05-24');
    // Unqualified names resolve in the layer asked for, as metric SQL expects.
    const metric = await engine.query(projectId, prd.metrics[0].sql, 1000, 'ads');
    expect(metric.columns).toEqual(['stat_date', 'value']);
    expect(metric.rows.length).toBeGreaterThan(30);
  });

  it("keeps each ADS table's rows in the catalog, the same as its partition files", async () => {
    // Statements read the catalog's copy (a file a day is slow to read); the Parquet tree stays the
    // layer's files, partitioned by stat_date. Both must hold the very same rows.
    const instance = await openDuckDb(':memory:');
    const conn = await instance.connect();
    try {
      const db = 'plat_proj_20261122_model01_ads';
      await conn.run(`ATTACH '${layerDatabaseFile(root, projectId, 'ads')}' AS ${db} (READ_ONLY)`);
      for (const t of await engine.describeLayer(projectId, 'ads')) {
        const kind = await conn.runAndReadAll(
          `SELECT COUNT(*) AS n FROM duckdb_tables() WHERE database_name = '${db}' AND table_name = '${t.name}'`,
        );
        expect([t.name, Number(kind.getRowObjectsJS()[0].n)]).toEqual([t.name, 1]);
        const files = `read_parquet('${t.location}/*/*.parquet', hive_partitioning = true)`;
        const cols = t.columns.map((c) => `"${c.name}"`).join(', ');
        const differing = await conn.runAndReadAll(
          `SELECT COUNT(*) AS n FROM ((SELECT ${cols} FROM ${db}."${t.name}" EXCEPT ALL SELECT ${cols} FROM ${files})
           UNION ALL (SELECT ${cols} FROM ${files} EXCEPT ALL SELECT ${cols} FROM ${db}."${t.name}"))`,
        );
        expect([t.name, Number(differing.getRowObjectsJS()[0].n)]).toEqual([t.name, 0]);
        // Typed alike too: a sum the build computes as HUGEINT is a DOUBLE in the files.
        const types = async (relation: string) =>
          (await conn.runAndReadAll(`DESCRIBE SELECT ${cols} FROM ${relation}`))
            .getRowObjectsJS()
            .map((r) => `${String(r.column_name)} ${String(r.column_type)}`);
        expect(await types(`${db}."${t.name}"`)).toEqual(await types(files));
        expect(t.row_count).toBeGreaterThan(0);
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('describes each layer and writes a readable script', async () => {
    const tables = await engine.describeLayer(projectId, 'ads');
    expect(tables.map((t) => t.name).sort()).toEqual(prd.layers.ads.map((t) => t.name).sort());
    expect(tables[0].partition_by).toEqual(['stat_date']);
    const script = layerScript(
      projectId,
      'dwd',
      layerSelects(prd, 'dwd', projectId, readSourceSchema(root, projectId)),
    );
    expect(script).toContain('CREATE TABLE plat_proj_20261122_model01_dwd."dwd_rental_detail"');
    expect(script).toContain('LEFT JOIN plat_proj_20261122_model01_ods."ods_inventory" AS "inventory"');
  });

  it('reports a failing statement and leaves the layer as it was', async () => {
    const before = fs.statSync(layerDatabaseFile(root, projectId, 'dws')).mtimeMs;
    const broken = structuredClone(prd);
    broken.layers.dws[0].fields.push({
      name: 'oops',
      type: 'BIGINT',
      source: 'SUM(no_such_column)',
      description: '',
    });
    const source = readSourceSchema(root, projectId);
    const err = await engine
      .buildLayer(projectId, 'dws', layerSelects(broken, 'dws', projectId, source))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LayerBuildError);
    expect(err).toMatchObject({ layer: 'dws', table: broken.layers.dws[0].name });
    expect((err as LayerBuildError).statement).toContain('no_such_column');
    expect((err as LayerBuildError).reason).toMatch(/no_such_column/);
    expect(fs.statSync(layerDatabaseFile(root, projectId, 'dws')).mtimeMs).toBe(before);
    expect(fs.readdirSync(layerDir(root, projectId, 'dws')).filter((d) => d.startsWith('.building'))).toEqual(
      [],
    );
    expect(
      await one(`SELECT COUNT(*) AS n FROM plat_proj_20261122_model01_dws.${prd.layers.dws[0].name}`),
    ).toBeDefined();
  });
});

describe('a partitioned table built by the embedded engine', () => {
  it('holds in its catalog the rows and types its files hold, and an empty one keeps its columns', async () => {
    const root = newTestDataDir();
    const engine = new DuckDbWarehouse(root);
    const days = `SELECT DATE '2024-01-01' + (i % 40)::INT AS stat_date, i % 3 AS shop, i AS units FROM range(1000) r(i)`;
    const built = await engine.buildLayer('proj-20261127-parts01', 'ads', [
      // SUM of a BIGINT is a HUGEINT in DuckDB, which Parquet stores as a DOUBLE.
      {
        name: 'ads_units_daily',
        select: `SELECT stat_date, shop, SUM(units) AS units, COUNT(*) AS n FROM (${days}) GROUP BY ALL`,
        partition_by: ['stat_date'],
      },
      {
        name: 'ads_nothing_daily',
        select: `SELECT * FROM (${days}) WHERE units < 0`,
        partition_by: ['stat_date'],
      },
      { name: 'ads_shops', select: `SELECT DISTINCT shop FROM (${days})`, partition_by: [] },
    ]);
    expect(built.map((t) => [t.name, t.row_count])).toEqual([
      ['ads_units_daily', 120],
      ['ads_nothing_daily', 0],
      ['ads_shops', 3],
    ]);
    const described = await engine.describeLayer('proj-20261127-parts01', 'ads');
    const typesOf = (name: string) =>
      Object.fromEntries(described.find((t) => t.name === name)!.columns.map((c) => [c.name, c.type]));
    expect(typesOf('ads_units_daily')).toEqual({
      stat_date: 'DATE',
      shop: 'BIGINT',
      units: 'DOUBLE',
      n: 'BIGINT',
    });
    expect(typesOf('ads_nothing_daily')).toEqual({ stat_date: 'DATE', shop: 'BIGINT', units: 'BIGINT' });
    expect(fs.readdirSync(built[0].location).length).toBe(40);
    const total = await engine.query(
      'proj-20261127-parts01',
      'SELECT CAST(SUM(units) AS BIGINT) AS units, MIN(stat_date) AS first FROM ads_units_daily',
      1,
      'ads',
    );
    expect(total.rows).toEqual([{ units: '499500', first: '2024-01-01' }]);
  });
});
