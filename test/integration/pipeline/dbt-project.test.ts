/**
 * The warehouse exported as a dbt project builds with dbt-duckdb over the project's own ODS files
 * and gives plat's tables: the same row count in every DWD/DWS/ADS table and the same total of
 * every metric; its quality rules run as dbt tests and its metrics parse as a semantic layer.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generatePipelineTemplates } from '../../../domain/pipeline/pipeline-templates';
import { layerSelects, MODELED_LAYERS } from '../../../domain/warehouse/model-sql';
import { readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import { layerDir } from '../../../domain/warehouse/warehouse-layout';
import { ZOO } from '../../../scripts/demo-data/zoo';
import { runDbt, writeDbtProject } from '../../harness/dbt';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource } from '../../harness/sakila';
import { loadZooDatabase } from '../../harness/zoo';
import { buildProject, type BuiltProject } from '../warehouse/zoo-project-checks';

/**
 * Two schemas of different shapes: prefixed names, header and lines, sub-cent discounts; composite
 * keys, a snapshot, lookups and enums. Each build starts dbt's Python, so CI builds these two;
 * `PLAT_DBT_TEST_SCHEMAS=all` builds every zoo schema.
 */
const SCHEMAS =
  process.env.PLAT_DBT_TEST_SCHEMAS === 'all'
    ? ZOO.map((z) => z.name)
    : ['zoo_prefixed_sales', 'zoo_bike_shops'];

describe.each(SCHEMAS)('the warehouse of %s as a dbt project', (schema) => {
  const projectId = `proj-20261126-dbt${schema.replace(/^zoo_|_/g, '').slice(0, 10)}`;
  let built: BuiltProject;
  let dir: string;
  let build: { code: number; output: string };
  let dbtDb: string;

  beforeAll(async () => {
    const zoo = await loadZooDatabase(schema);
    const mysql = await zoo.connect();
    const root = newTestDataDir();
    try {
      built = await buildProject(mysql, harnessSource(zoo.name), zoo.name, zoo.description, root, projectId);
    } finally {
      await mysql.end();
    }
    const source = readSourceSchema(root, projectId);
    const templates = await generatePipelineTemplates({
      projectId,
      prd: built.prd,
      source,
      layers: MODELED_LAYERS.map((layer) => ({
        layer,
        tables: layerSelects(built.prd, layer, projectId, source),
      })),
    });
    dir = writeDbtProject(templates.files, 'plat-dbt-');
    dbtDb = path.join(dir, 'warehouse.duckdb');
    build = await runDbt(dir, ['build'], {
      PLAT_ODS_DIR: layerDir(root, projectId, 'ods'),
      PLAT_DBT_DATABASE: dbtDb,
    });
  }, 600_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('builds: every model, test and the semantic layer pass `dbt build`', () => {
    if (build.code !== 0) throw new Error(build.output.slice(-4000));
    const results = JSON.parse(fs.readFileSync(path.join(dir, 'target', 'run_results.json'), 'utf8')) as {
      results: { unique_id: string; status: string }[];
    };
    const kinds = (prefix: string) => results.results.filter((r) => r.unique_id.startsWith(prefix));
    const models = built.prd.layers.dwd.length + built.prd.layers.dws.length + built.prd.layers.ads.length;
    // Every PRD table and the time spine were built; the quality rules ran as tests.
    expect(kinds('model.').length).toBe(models + 1);
    expect(kinds('model.').every((r) => r.status === 'success')).toBe(true);
    expect(kinds('test.').length).toBeGreaterThanOrEqual(
      built.prd.quality_rules.filter((r) => r.kind !== 'freshness').length,
    );
    expect(kinds('test.').every((r) => ['pass', 'warn'].includes(r.status))).toBe(true);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(dir, 'target', 'semantic_manifest.json'), 'utf8'),
    ) as {
      metrics: { name: string }[];
      semantic_models: unknown[];
    };
    expect(manifest.metrics.map((m) => m.name).sort()).toEqual(built.prd.metrics.map((m) => m.name).sort());
    expect(manifest.semantic_models.length).toBe(built.prd.layers.ads.length);
  });

  it("gives plat's row counts and metric totals", async () => {
    if (build.code !== 0) throw new Error('dbt build failed (see the first test)');
    const instance = await DuckDBInstance.create(dbtDb, { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    const dbt = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson()[0];
    const plat = async (sql: string, layer: 'dwd' | 'dws' | 'ads') =>
      (await built.engine.query(projectId, sql, 1, layer)).rows[0] ?? {};
    const differences: string[] = [];
    try {
      for (const layer of MODELED_LAYERS)
        for (const t of built.prd.layers[layer]) {
          const want = Number((await plat(`SELECT COUNT(*) AS n FROM "${t.name}"`, layer)).n);
          const got = Number((await dbt(`SELECT COUNT(*) AS n FROM main."${t.name}"`)).n);
          if (want !== got) differences.push(`${t.name}: plat ${want} rows, dbt ${got}`);
        }
      for (const m of built.prd.metrics) {
        const column = /\b(?:SUM\s*\(\s*)?(\w+)\s*\)?\s+AS value\b/i.exec(m.sql)![1];
        const total = `SELECT CAST(ROUND(SUM(${column}), 4) AS VARCHAR) AS v FROM "${m.ads_table}"`;
        const want = String((await plat(total, 'ads')).v);
        const got = String((await dbt(total.replace(`"${m.ads_table}"`, `main."${m.ads_table}"`))).v);
        if (want !== got) differences.push(`${m.name}: plat ${want}, dbt ${got}`);
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    expect(differences).toEqual([]);
    expect(built.prd.metrics.length).toBeGreaterThan(3);
  });
});
