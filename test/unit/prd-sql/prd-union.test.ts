/**
 * A DWD table that reads a family of source tables as one (docs/offline-analyst.md#table-families):
 * its `union` is held to the PRD's rules, and the SQL written for it reads every member, tags each row
 * with its part as data (a part or a table name made of quotes and statements stays a value), and runs
 * as DuckDB parses it.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { tableSelect } from '../../../domain/warehouse/model-sql';
import { prdSchema, type Prd } from '../../../shared/prd-schema';
import type { SourceSnapshot, SourceTable } from '../../../shared/source-schema';

const HOSTILE_PART = "x'); DROP TABLE victim; --";
const A = 'sales 2019';
const B = 'sales"2020';

const sourceTable = (name: string, amount = 'amount'): SourceTable => ({
  name,
  row_count: 2,
  columns: [
    { name: 'sale_id', type: 'int', data_type: 'int', nullable: false, key: 'PRI' },
    { name: amount, type: 'decimal(10,2)', data_type: 'decimal', nullable: false, key: '' },
  ],
  primary_key: ['sale_id'],
  foreign_keys: [],
  sample_rows: [],
});

const snapshot: SourceSnapshot = {
  database: 'src',
  server_version: 'test',
  tables: [sourceTable(A), sourceTable(B, 'AMOUNT')],
  views: [],
};

const odsTable = (name: string, source: string) => ({
  name,
  description: '',
  source_tables: [source],
  grain: '',
  fields: [
    { name: 'sale_id', type: 'INTEGER', source: `"${source.replace(/"/g, '""')}".sale_id`, description: '' },
    {
      name: 'amount',
      type: 'DECIMAL(10,2)',
      source: `"${source.replace(/"/g, '""')}".amount`,
      description: '',
    },
  ],
  partition_by: [],
});

function unionPrd(): Prd {
  return prdSchema.parse({
    version: 1,
    title: 't',
    summary: 's',
    analyst: { kind: 'offline_schema_analyst', model: 'test' },
    source: { database: 'src', table_count: 2, total_rows: 4 },
    industry: { name: 'General business', confidence: 0 },
    fact_tables: [A],
    dimension_tables: [],
    layers: {
      ods: [odsTable('ods_a', A), odsTable('ods_b', B)],
      dwd: [
        {
          name: 'dwd_sales_detail',
          source_tables: [A, B],
          fields: [
            { name: 'sale_id', type: 'INTEGER', source: '"sales 2019".sale_id' },
            { name: 'amount', type: 'DECIMAL(10,2)', source: '"sales 2019".amount' },
            { name: 'source_year', type: 'VARCHAR', source: '"sales 2019".source_year' },
          ],
          union: {
            part_columns: ['source_year'],
            members: [
              { table: A, parts: [HOSTILE_PART] },
              { table: B, parts: ['2020'] },
            ],
          },
        },
      ],
      dws: [],
      ads: [],
    },
    quality_rules: [],
    metrics: [],
    dashboards: [],
  });
}

/** The PRD's rule messages after `edit`, or [] when it is valid. */
function problemsAfter(edit: (prd: Prd) => void): string[] {
  const prd = structuredClone(unionPrd());
  edit(prd);
  const checked = prdSchema.safeParse(prd);
  return checked.success ? [] : checked.error.issues.map((i) => i.message);
}

describe('a DWD table over a family of tables', () => {
  it('reads every member once, each row tagged with its part as a value, as DuckDB runs it', async () => {
    const prd = unionPrd();
    const sql = tableSelect(prd, 'dwd', prd.layers.dwd[0], 'p1', snapshot);
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      await conn.run("ATTACH ':memory:' AS plat_p1_ods");
      await conn.run('CREATE TABLE victim (x INTEGER)');
      await conn.run(
        'CREATE TABLE plat_p1_ods.ods_a AS SELECT * FROM (VALUES (1, 10.50), (2, 4.25)) t(sale_id, amount)',
      );
      // The second member spells its column otherwise; the union reads it by name.
      await conn.run(
        'CREATE TABLE plat_p1_ods.ods_b AS SELECT * FROM (VALUES (3, 7.00)) t(sale_id, "AMOUNT")',
      );
      const rows = (await conn.runAndReadAll(`SELECT * FROM (${sql}) ORDER BY sale_id`)).getRowObjectsJson();
      expect(rows).toEqual([
        { sale_id: 1, amount: '10.50', source_year: HOSTILE_PART },
        { sale_id: 2, amount: '4.25', source_year: HOSTILE_PART },
        { sale_id: 3, amount: '7.00', source_year: '2020' },
      ]);
      expect((await conn.runAndReadAll('SELECT COUNT(*) AS n FROM victim')).getRowObjectsJson()).toEqual([
        { n: '0' },
      ]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('is refused when a member has no such column', () => {
    const prd = unionPrd();
    const broken: SourceSnapshot = { ...snapshot, tables: [sourceTable(A), sourceTable(B, 'total')] };
    expect(() => tableSelect(prd, 'dwd', prd.layers.dwd[0], 'p1', broken)).toThrow(/has no column amount/);
  });

  it('holds the union to the PRD rules', () => {
    expect(problemsAfter(() => {})).toEqual([]);
    expect(problemsAfter((p) => p.layers.dwd[0].union!.members[1].parts.push('extra'))).toEqual([
      expect.stringMatching(/has 2 parts for 1 part columns/),
    ]);
    expect(problemsAfter((p) => (p.layers.dwd[0].source_tables = [A]))).toEqual([
      expect.stringMatching(/union member sales"2020 is not in source_tables/),
    ]);
    expect(problemsAfter((p) => p.layers.dwd[0].union!.members.reverse())).toEqual(
      expect.arrayContaining([expect.stringMatching(/must be the first of source_tables/)]),
    );
    expect(problemsAfter((p) => (p.layers.dwd[0].fields[1].source = '"sales""2020".amount'))).toEqual([
      expect.stringMatching(/read through the union: name it sales 2019/),
    ]);
    expect(
      problemsAfter((p) =>
        p.layers.dwd[0].fields.push({
          name: 'x',
          type: 'VARCHAR',
          source: '"sales 2019".part',
          description: '',
        }),
      ),
    ).toEqual([expect.stringMatching(/has no column part/)]);
  });
});
