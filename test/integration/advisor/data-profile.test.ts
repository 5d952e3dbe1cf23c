/**
 * The analytics advisor's data profile on Sakila, checked the way a data analyst would: against SQL
 * run on the MySQL source itself. Plus a small synthetic warehouse where a name-matched column's
 * values are mostly absent from the candidate key, so the inferred relation must not be reported.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { buildDataProfile } from '../../../domain/advisor/data-profile';
import type { DataProfileReport, TableProfileReport } from '../../../domain/advisor/data-profile-types';
import { openOdsCatalog } from '../../../domain/advisor/ods-catalog-reader';
import { renderProfileMarkdown } from '../../../domain/advisor/profile-markdown';
import { declaredConfidence, inferredConfidence } from '../../../domain/advisor/relation-detector';
import { FREQUENT_VALUES_SAMPLE_ROWS, profileTable } from '../../../domain/advisor/table-profiler';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { ingestOds } from '../../../domain/warehouse/ods-ingestion';
import { layerDatabaseFile, layerDir, sourceSchemaFile } from '../../../domain/warehouse/warehouse-layout';
import type { SourceColumn, SourceSnapshot } from '../../../shared/source-schema';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource, sakilaConnection } from '../../harness/sakila';

const PROJECT = 'proj-20261122-profile1';

describe('data profile on Sakila', () => {
  let mysql: Connection;
  let report: DataProfileReport;
  let buildMs: number;
  let warehouseRoot: string;
  let prd: ReturnType<typeof buildOfflinePrd>;

  const source = async (sql: string): Promise<RowDataPacket[]> =>
    (await mysql.query<RowDataPacket[]>(sql))[0];
  const table = (name: string): TableProfileReport => {
    const t = report.tables.find((x) => x.source_table === name);
    if (!t) throw new Error(`no profile of ${name}`);
    return t;
  };

  beforeAll(async () => {
    mysql = await sakilaConnection();
    const snapshot = await exploreSource(mysql, 'sakila', { sampleRows: 0 });
    prd = buildOfflinePrd(snapshot);
    warehouseRoot = newTestDataDir();
    await ingestOds({
      source: harnessSource(),
      projectId: PROJECT,
      warehouseRoot,
      snapshot,
      prd,
      done: [],
      onTable: () => {},
    });
    const started = performance.now();
    report = await buildDataProfile({ warehouseRoot, projectId: PROJECT, prd });
    buildMs = performance.now() - started;
    console.log(`buildDataProfile on Sakila: ${buildMs.toFixed(0)} ms, overall ${report.overall_score}`);
  });
  afterAll(async () => {
    await mysql?.end();
  });

  it('profiles every table with the source row counts', async () => {
    const counts = await source(
      `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'sakila' AND table_type = 'BASE TABLE'`,
    );
    expect(report.tables).toHaveLength(16);
    expect(report.tables.map((t) => t.source_table).sort()).toEqual(counts.map((r) => String(r.t)).sort());
    for (const t of report.tables) {
      const [row] = await source(`SELECT COUNT(*) AS n FROM \`${t.source_table}\``);
      expect({ table: t.table, rows: t.row_count }).toEqual({ table: t.table, rows: Number(row.n) });
      expect(t.layer).toBe('ods');
      expect(t.field_count).toBe(t.columns.length);
    }
    // This Sakila copy holds 16,044 payments (not the upstream 16,049): the source decides.
    expect(table('rental').row_count).toBe(16_044);
    expect(report.tables.reduce((n, t) => n + t.row_count, 0)).toBe(47_268);
    expect(report.project_id).toBe(PROJECT);
    expect(report.analyst.kind).toBe('offline_profile_analyst');
  });

  it('scores six dimensions and an overall score consistent with their weights', () => {
    expect(report.dimensions.map((d) => d.name)).toEqual([
      'data_quality',
      'completeness',
      'dimension_richness',
      'time_span',
      'relational_integrity',
      'volume',
    ]);
    for (const d of report.dimensions) {
      expect(Number.isInteger(d.score)).toBe(true);
      expect(d.score).toBeGreaterThanOrEqual(0);
      expect(d.score).toBeLessThanOrEqual(100);
      expect(d.explanation).toMatch(/\d/); // explanations carry the measured numbers
    }
    expect(report.dimensions.reduce((s, d) => s + d.weight, 0)).toBeCloseTo(1, 10);
    expect(report.overall_score).toBe(
      Math.round(report.dimensions.reduce((s, d) => s + d.weight * d.score, 0)),
    );
    expect(Number.isInteger(report.overall_score)).toBe(true);
    // Sakila's declared keys all resolve, and its rentals cover 267 days on which only some have rows.
    expect(report.dimensions.find((d) => d.name === 'relational_integrity')!.score).toBe(100);
    expect(report.dimensions.find((d) => d.name === 'volume')!.explanation).toContain('16,044');
  });

  it('finds the rental and payment date ranges as the source has them', async () => {
    for (const [t, col] of [
      ['rental', 'rental_date'],
      ['payment', 'payment_date'],
    ]) {
      const [src] = await source(
        `SELECT CAST(MIN(${col}) AS CHAR) AS mn, CAST(MAX(${col}) AS CHAR) AS mx,
          DATEDIFF(MAX(${col}), MIN(${col})) + 1 AS days, COUNT(DISTINCT DATE(${col})) AS active FROM ${t}`,
      );
      expect(table(t).time_range).toMatchObject({
        column: col,
        min: src.mn,
        max: src.mx,
        days: Number(src.days),
        active_days: Number(src.active),
      });
    }
    const rental = table('rental').time_range!;
    expect(rental.min.startsWith('2005-05-24')).toBe(true);
    expect(rental.max.startsWith('2006-02-14')).toBe(true);
    expect(
      report.key_insights.some((s) => s.includes('ods_rental.rental_date') && s.includes('2005-05-24')),
    ).toBe(true);
  });

  it('reports every declared foreign key with its measured match rate, and nothing below 0.5', async () => {
    const fks = await source(
      `SELECT table_name AS t, column_name AS c, referenced_table_name AS rt, referenced_column_name AS rc
       FROM information_schema.key_column_usage
       WHERE table_schema = 'sakila' AND referenced_table_name IS NOT NULL`,
    );
    expect(fks.length).toBeGreaterThan(15);
    for (const fk of fks) {
      const r = report.relations.find(
        (x) => x.from_table === `ods_${fk.t}` && x.from_column === fk.c && x.to_table === `ods_${fk.rt}`,
      );
      expect(r).toMatchObject({ evidence: 'foreign_key', to_column: fk.rc });
      expect(r!.confidence).toBeGreaterThanOrEqual(0.5);
    }
    for (const r of report.relations) expect(r.confidence).toBeGreaterThanOrEqual(0.5);
    const [pay] = await source(
      `SELECT COUNT(p.rental_id) AS checked, COUNT(r.rental_id) AS matched
       FROM payment p LEFT JOIN rental r ON r.rental_id = p.rental_id`,
    );
    expect(
      report.relations.find((r) => r.from_table === 'ods_payment' && r.from_column === 'rental_id'),
    ).toMatchObject({
      checked_rows: Number(pay.checked),
      match_rate: Number(pay.matched) / Number(pay.checked),
    });
    // film_text declares no key, but its film_id is every film's id.
    expect(report.relations).toContainEqual(
      expect.objectContaining({
        from_table: 'ods_film_text',
        from_column: 'film_id',
        to_table: 'ods_film',
        evidence: 'name_match+containment',
        confidence: 1,
      }),
    );
  });

  it('counts frequent values and NULLs exactly as the source does', async () => {
    const rating = table('film').columns.find((c) => c.name === 'rating')!;
    const src = await source(
      'SELECT rating AS v, COUNT(*) AS n FROM film GROUP BY rating ORDER BY n DESC, rating',
    );
    expect(rating.frequent_values).toContainEqual({
      value: 'PG-13',
      count: Number(src.find((r) => r.v === 'PG-13')!.n),
    });
    expect(rating.frequent_values[0]).toEqual({ value: src[0].v, count: Number(src[0].n) });
    expect(rating.distinct_count).toBe(src.length);

    const [ret] = await source('SELECT COUNT(*) AS n, SUM(return_date IS NULL) AS nulls FROM rental');
    const returnDate = table('rental').columns.find((c) => c.name === 'return_date')!;
    expect(Number(ret.nulls)).toBe(183);
    expect(returnDate.null_count).toBe(183);
    expect(returnDate.null_rate).toBeCloseTo(183 / Number(ret.n), 12);
    expect(table('staff').columns.find((c) => c.name === 'picture')!.frequent_values).toEqual([]);
    expect(table('staff').columns.find((c) => c.name === 'password')!.frequent_values).toEqual([]);
  });

  it('suggests DWS and ADS tables built on real tables', () => {
    expect(report.suggestions.length).toBeGreaterThan(0);
    const names = report.tables.map((t) => t.table);
    for (const s of report.suggestions) {
      expect(names.some((n) => `${s.title} ${s.rationale}`.includes(n))).toBe(true);
    }
    expect(report.suggestions.some((s) => s.layer === 'dws')).toBe(true);
    // 267 days of rentals: more than 90, so a monthly rollup.
    expect(report.suggestions).toContainEqual(
      expect.objectContaining({ layer: 'ads', title: expect.stringContaining('ads_rental_monthly') }),
    );
  });

  it('scores data quality from the governance results when they exist', async () => {
    const withRules = await buildDataProfile({
      warehouseRoot,
      projectId: PROJECT,
      prd,
      quality: { rules_total: 10, rules_passed: 8, rules_failed: 2, blocking_failed: 1 },
    });
    const dq = withRules.dimensions.find((d) => d.name === 'data_quality')!;
    expect(dq.score).toBe(70); // 100 × 8/10 − 10 × 1 blocking failure
    expect(dq.explanation).toContain('8 of 10');
  });

  // Its speed is measured by `npm run bench:project` (the analytics_advisor phase), not asserted here.
  it('renders as Markdown', () => {
    const md = renderProfileMarkdown(report);
    expect(md).toContain(`**${report.overall_score}/100**`);
    for (const t of report.tables) expect(md).toContain(`### ${t.table}`);
    expect(md).toContain('PG-13');
  });
});

describe('profile rules on small synthetic warehouses', () => {
  const PROJ = 'proj-20261122-profile2';
  const col = (name: string, data_type: string, key: SourceColumn['key'] = ''): SourceColumn => ({
    name,
    type: data_type,
    data_type,
    nullable: key !== 'PRI',
    key,
  });
  const snapshot: SourceSnapshot = {
    database: 'shop',
    server_version: 'synthetic',
    views: [],
    tables: [
      {
        name: 'customer',
        row_count: 50,
        columns: [col('customer_id', 'int', 'PRI'), col('segment', 'varchar')],
        primary_key: ['customer_id'],
        foreign_keys: [],
        sample_rows: [],
      },
      {
        name: 'coupon',
        row_count: 20,
        columns: [col('coupon_id', 'int', 'PRI'), col('code', 'varchar')],
        primary_key: ['coupon_id'],
        foreign_keys: [],
        sample_rows: [],
      },
      {
        name: 'orders',
        row_count: 500,
        columns: [
          col('order_id', 'int', 'PRI'),
          col('customer_id', 'int'),
          col('coupon_id', 'int'),
          col('amount', 'decimal'),
          col('order_date', 'date'),
        ],
        primary_key: ['order_id'],
        foreign_keys: [],
        sample_rows: [],
      },
    ],
  };

  it('keeps a name match whose values are all present and drops one whose values mostly are not', async () => {
    const root = newTestDataDir();
    fs.mkdirSync(layerDir(root, PROJ, 'ods'), { recursive: true });
    fs.writeFileSync(sourceSchemaFile(root, PROJ), JSON.stringify(snapshot));
    const instance = await DuckDBInstance.create(layerDatabaseFile(root, PROJ, 'ods'));
    const conn = await instance.connect();
    await conn.run(
      `CREATE TABLE ods_customer AS SELECT CAST(range AS INTEGER) AS customer_id, ['a','b','c'][range % 3 + 1] AS segment FROM range(1, 51)`,
    );
    await conn.run(
      `CREATE TABLE ods_coupon AS SELECT CAST(range AS INTEGER) AS coupon_id, 'C' || range AS code FROM range(1, 21)`,
    );
    // coupon_id takes 100 values 15..114, of which only 15..20 (6) exist in ods_coupon.
    await conn.run(
      `CREATE TABLE ods_orders AS SELECT CAST(range AS INTEGER) AS order_id, CAST(1 + range % 50 AS INTEGER) AS customer_id,
         CAST(15 + range % 100 AS INTEGER) AS coupon_id, CAST(range AS DECIMAL(10,2)) AS amount,
         DATE '2024-01-01' + CAST(range % 200 AS INTEGER) AS order_date FROM range(500)`,
    );
    conn.closeSync();
    instance.closeSync();

    const report = await buildDataProfile({
      warehouseRoot: root,
      projectId: PROJ,
      prd: buildOfflinePrd(snapshot),
    });
    expect(report.relations).toContainEqual(
      expect.objectContaining({
        from_table: 'ods_orders',
        from_column: 'customer_id',
        to_table: 'ods_customer',
        evidence: 'name_match+containment',
        confidence: 1,
        match_rate: 1,
      }),
    );
    expect(report.relations.some((r) => r.from_column === 'coupon_id')).toBe(false);
    expect(report.relations.every((r) => r.confidence >= 0.5)).toBe(true);
    expect(report.tables.find((t) => t.table === 'ods_orders')!.time_range).toMatchObject({
      min: '2024-01-01',
      max: '2024-07-18',
      days: 200,
      active_days: 200,
    });
  });

  it('samples large tables for frequent values, deterministically, and keeps NULL counts exact', async () => {
    const root = newTestDataDir();
    const proj = 'proj-20261122-profile3';
    fs.mkdirSync(layerDir(root, proj, 'ods'), { recursive: true });
    const instance = await DuckDBInstance.create(layerDatabaseFile(root, proj, 'ods'));
    const conn = await instance.connect();
    // 250,000 rows: status 'open' on 50%, 'closed' 30%, 'void' 20%; code NULL on every 7th row.
    await conn.run(
      `CREATE TABLE ods_events AS SELECT range AS event_id,
         CASE WHEN range % 10 < 5 THEN 'open' WHEN range % 10 < 8 THEN 'closed' ELSE 'void' END AS status,
         NULLIF(range % 7, 0) AS code FROM range(250000)`,
    );
    conn.closeSync();
    instance.closeSync();
    const columns = [
      { name: 'event_id', type: 'BIGINT' },
      { name: 'status', type: 'VARCHAR' },
      { name: 'code', type: 'BIGINT' },
    ];
    const profile = async () => {
      const catalog = await openOdsCatalog(root, proj);
      try {
        return await profileTable(catalog, {
          table: 'ods_events',
          source_table: 'events',
          role: 'fact',
          columns,
          rows: 250_000,
        });
      } finally {
        catalog.close();
      }
    };
    const first = await profile();
    expect(first.sampled_rows).toBe(FREQUENT_VALUES_SAMPLE_ROWS);
    expect(await profile()).toEqual(first);
    const status = first.columns[1].frequent_values;
    expect(status.map((v) => v.value)).toEqual(['open', 'closed', 'void']);
    expect(status[0].count).toBeGreaterThan(125_000 * 0.95);
    expect(status[0].count).toBeLessThan(125_000 * 1.05);
    expect(first.columns[2].null_count).toBe(Math.ceil(250_000 / 7));
    expect(first.columns[0].frequent_values).toEqual([]);
  });

  it('scores confidence from containment, name and support', () => {
    const m = (distinct: number, contained: number) => ({
      checked_rows: distinct * 5,
      matched_rows: contained * 5,
      distinct_values: distinct,
      contained_values: contained,
    });
    expect(inferredConfidence(m(100, 6), 1)).toBeLessThan(0.5);
    expect(inferredConfidence(m(100, 100), 1)).toBe(1);
    expect(inferredConfidence(m(1, 1), 1)).toBeLessThan(1); // one value proves little
    expect(inferredConfidence(m(0, 0), 1)).toBe(0);
    expect(declaredConfidence(m(10, 5))).toBe(0.75);
    expect(declaredConfidence(m(0, 0))).toBe(0.5);
  });
});
