/**
 * A source whose names are paths and SQL still completes: a real MariaDB source whose table and
 * column names are paths, globs, quotes and statements goes through every stage of an analysis
 * project as the activities run them (offline PRD → checks → ODS → DWD/DWS/ADS → quality rules and
 * catalog → metrics → dashboards → profile → pipeline templates). Every stage succeeds, every file
 * stays inside the project's directory, and the copied rows are there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import mysql, { type Connection } from 'mysql2/promise';
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
import { quoteMysqlIdent as mq } from '../../../shared/sql-quoting';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { harness } from '../../harness/harness-state';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource } from '../../harness/sakila';

const DB = 'hostile_project';
const PROJECT = 'proj-20261202-hostile';
const LINES = 400;

/** Lookup tables: names that are paths, globs, statements, or that collide once made identifiers. */
const LOOKUPS = [
  { name: '../../escape', rows: 3 },
  { name: '../../../../../../../../tmp/plat-escape', rows: 2 },
  { name: 'a/b', rows: 4 },
  { name: 'a_b', rows: 1 },
  { name: "x'; DROP TABLE y; --", rows: 2 },
  { name: '*', rows: 1 },
  { name: '..', rows: 1 },
  { name: 'y', rows: 1 },
];
/** The fact: lines that reference `a/b`, dated and priced in columns named like paths and SQL. */
const FACT = 'Order Lines';
const ALL_TABLES = [...LOOKUPS.map((t) => t.name), FACT];

function connect(database?: string): Promise<Connection> {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password, database, multipleStatements: true });
}

async function createSource(): Promise<void> {
  const db = await connect();
  try {
    await db.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB}`);
    for (const t of LOOKUPS) {
      await db.query(
        `CREATE TABLE ${mq(t.name)} (id INT NOT NULL PRIMARY KEY, ${mq('../c')} VARCHAR(100), ${mq('"q"')} INT, ${mq('a`b')} VARCHAR(10), ${mq('A/B')} VARCHAR(10))`,
      );
      await db.query(
        `INSERT INTO ${mq(t.name)} SELECT seq, CONCAT('row ', seq, ' of ', ?), seq * 10, 'bt', 'ab' FROM seq_1_to_${t.rows}`,
        [t.name],
      );
    }
    await db.query(
      `CREATE TABLE ${mq(FACT)} (
         id INT NOT NULL PRIMARY KEY,
         ${mq('a/b id')} INT NOT NULL,
         ${mq('ordered at')} DATETIME NOT NULL,
         ${mq('price $')} DECIMAL(10,2) NOT NULL,
         ${mq('qty; DROP TABLE y')} INT NOT NULL,
         ${mq('../status')} ENUM('open', 'it''s done', 'a/b') NOT NULL,
         ${mq('"q"')} VARCHAR(20),
         FOREIGN KEY (${mq('a/b id')}) REFERENCES ${mq('a/b')} (id)
       )`,
    );
    await db.query(
      `INSERT INTO ${mq(FACT)}
       SELECT seq, 1 + seq MOD 4, TIMESTAMP '2026-01-01 08:00:00' + INTERVAL (seq MOD 40) DAY,
              (seq MOD 7) + 0.25, 1 + seq MOD 3, ELT(1 + seq MOD 3, 'open', 'it''s done', 'a/b'), CONCAT('q', seq MOD 5)
       FROM seq_1_to_${LINES}`,
    );
    await db.query(`ANALYZE TABLE ${ALL_TABLES.map(mq).join(', ')}`);
  } finally {
    await db.end();
  }
}

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
    await createSource();
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

  it('writes pipeline templates, and nothing outside the project', () => {
    const templates = generatePipelineTemplates({
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
