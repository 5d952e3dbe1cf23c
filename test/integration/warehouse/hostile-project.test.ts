/**
 * A source whose names are paths and SQL still completes: a real MariaDB source whose table and
 * column names are paths, globs, quotes and statements goes through every stage of an analysis
 * project as the activities run them (offline PRD → checks → ODS → DWD/DWS/ADS → quality rules and
 * catalog → metrics → dashboards → profile → pipeline templates). Every stage succeeds, every file
 * stays inside the project's directory, and the copied rows are there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { prdProblems } from '../../../domain/agents/prd-checks';
import { buildDataProfile } from '../../../domain/advisor/data-profile';
import { buildCatalog } from '../../../domain/governance/catalog';
import { evaluateQualityRules } from '../../../domain/governance/quality-checks';
import { generatePipelineTemplates } from '../../../domain/pipeline/pipeline-templates';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { buildDashboardSpec } from '../../../domain/visualization/dashboard-spec';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import { validateMetrics } from '../../../domain/warehouse/metric-validation';
import { layerSelects, MODELED_LAYERS } from '../../../domain/warehouse/model-sql';
import { ingestOds, readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import type { LayerTableSpec } from '../../../domain/warehouse/warehouse-engine';
import { prdSchema, type Prd } from '../../../shared/prd-schema';
import { fileNameFor } from '../../../shared/safe-file-name';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource } from '../../harness/sakila';
import {
  ALL_TABLES,
  FACT,
  LINES,
  LOOKUPS,
  connectHostile as connect,
  createHostileSource,
} from '../../harness/hostile-source';

const DB = 'hostile_project';
const PROJECT = 'proj-20261202-hostile';

/** Every file and folder below `dir` (absolute paths). */
function everything(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f));
}

describe('an analysis project on a source whose names are paths and SQL', () => {
  let snapshot: SourceSnapshot;
  let prd: Prd;
  let sandbox: string;
  let root: string;
  let engine: DuckDbWarehouse;
  const selects: Partial<Record<'dwd' | 'dws' | 'ads', LayerTableSpec[]>> = {};

  beforeAll(async () => {
    await createHostileSource(DB);
    const db = await connect(DB);
    try {
      snapshot = await exploreSource(db, DB);
    } finally {
      await db.end();
    }
    sandbox = newTestDataDir();
    // Two levels below the test's folder, so an escaping name would land in sight.
    root = path.join(sandbox, 'data', 'warehouse');
    fs.mkdirSync(root, { recursive: true });
    engine = new DuckDbWarehouse(root);
  });

  it('gets a PRD from the offline analyst that meets its own rules, with distinct names and one ODS copy per table', () => {
    prd = buildOfflinePrd(snapshot, 'orders');
    expect(prdSchema.safeParse(prd).success).toBe(true);
    expect(prdProblems(prd, snapshot)).toEqual([]);
    expect(prd.layers.ods.map((t) => t.source_tables[0]).sort()).toEqual([...ALL_TABLES].sort());
    for (const layer of ['ods', 'dwd', 'dws', 'ads'] as const) {
      const names = prd.layers[layer].map((t) => t.name);
      expect(new Set(names).size).toBe(names.length);
      for (const t of prd.layers[layer]) {
        const fields = t.fields.map((f) => f.name);
        expect([t.name, new Set(fields).size]).toEqual([t.name, fields.length]);
      }
    }
    expect(prd.fact_tables).toContain(FACT);
    expect(prd.metrics.length).toBeGreaterThan(0);
  });

  it('copies every table inside the project under its encoded name, rows as in the source', async () => {
    const result = await ingestOds({
      projectId: PROJECT,
      warehouseRoot: root,
      source: harnessSource(DB),
      snapshot,
      prd,
      done: [],
      onTable: () => {},
    });
    for (const t of result.tables) expect([t.table, t.ods_rows]).toEqual([t.table, t.source_rows]);
    const odsDir = path.join(root, PROJECT, 'ods');
    expect(
      fs
        .readdirSync(odsDir)
        .filter((f) => f.endsWith('.parquet'))
        .sort(),
    ).toEqual(ALL_TABLES.map((t) => `${fileNameFor(t)}.parquet`).sort());
    const ods = (source: string) => prd.layers.ods.find((t) => t.source_tables[0] === source)!.name;
    const { rows } = await engine.query(
      PROJECT,
      `SELECT COUNT(*) AS n, SUM("price $") AS price FROM ${ods(FACT)}`,
      1,
      'ods',
    );
    expect(Number(rows[0].n)).toBe(LINES);
    const price = Array.from({ length: LINES }, (_, i) => ((i + 1) % 7) + 0.25).reduce((a, b) => a + b, 0);
    expect(Number(rows[0].price)).toBeCloseTo(price, 2);
    for (const t of LOOKUPS) {
      const counted = await engine.query(PROJECT, `SELECT COUNT(*) AS n FROM ${ods(t.name)}`, 1, 'ods');
      expect([t.name, Number(counted.rows[0].n)]).toEqual([t.name, t.rows]);
    }
  });

  it('builds DWD, DWS and ADS', async () => {
    const source = readSourceSchema(root, PROJECT);
    for (const layer of MODELED_LAYERS) {
      selects[layer] = layerSelects(prd, layer, PROJECT, source);
      const built = await engine.buildLayer(PROJECT, layer, selects[layer]);
      expect(built.map((t) => t.name)).toEqual(prd.layers[layer].map((t) => t.name));
    }
    const fact = prd.facts.find((f) => f.table === FACT)!;
    const { rows } = await engine.query(
      PROJECT,
      `SELECT COUNT(DISTINCT stat_date) AS days FROM ${fact.ads_table}`,
      1,
      'ads',
    );
    expect(Number(rows[0].days)).toBe(40);
  });

  it('evaluates every quality rule on columns that exist, and catalogs every table', async () => {
    const report = await evaluateQualityRules(engine, PROJECT, prd);
    expect(report.results.filter((r) => r.status === 'error').map((r) => `${r.name}: ${r.message}`)).toEqual(
      [],
    );
    expect(report.blocking_failed).toEqual([]);
    // The hostile enum and key columns are checked, not skipped.
    const checked = report.results.map((r) => r.name);
    expect(checked).toEqual(
      expect.arrayContaining([`${FACT}.../status in its enum values`, `${FACT}.a/b id references a/b`]),
    );
    expect(report.results.find((r) => r.name === `${FACT}.../status in its enum values`)?.status).toBe(
      'passed',
    );
    const catalog = await buildCatalog(engine, PROJECT, prd, selects);
    expect(catalog.tables.length).toBe(
      prd.layers.ods.length + prd.layers.dwd.length + prd.layers.dws.length + prd.layers.ads.length,
    );
  });

  it('validates every metric, builds dashboards and profiles the data', async () => {
    const metrics = await validateMetrics(engine, PROJECT, prd);
    expect(metrics.results.filter((r) => !r.valid).map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
    const spec = buildDashboardSpec(prd, metrics, 'http://plat.test');
    expect(spec.dashboards.length).toBeGreaterThan(0);
    const profile = await buildDataProfile({ warehouseRoot: root, projectId: PROJECT, prd });
    expect(profile.tables.map((t) => t.table).sort()).toEqual(prd.layers.ods.map((t) => t.name).sort());
    expect(Number.isFinite(profile.overall_score)).toBe(true);
  });

  it('writes pipeline templates, and nothing outside the project', async () => {
    const templates = await generatePipelineTemplates({
      projectId: PROJECT,
      prd,
      source: snapshot,
      layers: MODELED_LAYERS.map((layer) => ({
        layer,
        database: `plat_${PROJECT}_${layer}`,
        script: '',
        tables: selects[layer] ?? [],
      })),
    });
    // dbt tests the columns the ODS really has: its freshness reads the quoted source name.
    const sources = templates.files.find((f) => f.path === 'dbt/models/sources.yml')!.content;
    expect(sources).toContain(`loaded_at_field: '"ordered at"'`);
    expect(sources).toContain('- name: a/b id');
    // Below the warehouse root only the project's folder and the sessions' spill root, emptied
    // as each session closed; nothing beside the root.
    expect(fs.readdirSync(root).sort()).toEqual(['.spill', PROJECT]);
    const spill = path.join(root, '.spill');
    const stray = everything(sandbox).filter(
      (f) =>
        ![path.join(sandbox, 'data'), root, spill, path.join(root, PROJECT)].includes(f) &&
        !f.startsWith(path.join(root, PROJECT) + path.sep),
    );
    expect(stray).toEqual([]);
    expect(fs.existsSync('/tmp/plat-escape.parquet')).toBe(false);
  });
});
