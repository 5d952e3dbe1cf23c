/**
 * A DWD table that reads a family of source tables as one (docs/offline-analyst.md#table-families):
 * its `union` is held to the PRD's rules, and the SQL written for it reads every member, tags each row
 * with its part as data (a part or a table name made of quotes and statements stays a value), and runs
 * as DuckDB parses it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { tableSelect } from '../../../domain/warehouse/model-sql';
import { prdSchema, type Prd } from '../../../shared/prd-schema';
import type { SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { withMemoryDuckDb } from '../../harness/memory-duckdb';

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

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** An ODS table copying `columns` ([name, type]) of the source table `source`. */
const odsOf = (name: string, source: string, columns: [string, string][]) => ({
  name,
  description: '',
  source_tables: [source],
  grain: '',
  fields: columns.map(([c, type]) => ({ name: c, type, source: `${quoted(source)}.${c}`, description: '' })),
  partition_by: [],
});
const saleColumns: [string, string][] = [
  ['sale_id', 'INTEGER'],
  ['amount', 'DECIMAL(10,2)'],
];

/** A valid PRD over `source`'s tables whose one DWD table is `dwd`, the first of `ods` its fact. */
function familyPrd(
  source: { table_count: number; total_rows: number },
  ods: ReturnType<typeof odsOf>[],
  dwd: Record<string, unknown>,
): Prd {
  return prdSchema.parse({
    version: 1,
    title: 't',
    summary: 's',
    analyst: { kind: 'offline_schema_analyst', model: 'test' },
    source: { database: 'src', ...source },
    industry: { name: 'General business', confidence: 0 },
    fact_tables: ods[0].source_tables,
    dimension_tables: [],
    layers: { ods, dwd: [dwd], dws: [], ads: [] },
    quality_rules: [],
    metrics: [],
    dashboards: [],
  });
}

/** The rule messages of the PRD `base` builds after `edit`, or [] when it is valid. */
function problemsAfter(edit: (prd: Prd) => void, base: () => Prd = unionPrd): string[] {
  const prd = structuredClone(base());
  edit(prd);
  const checked = prdSchema.safeParse(prd);
  return checked.success ? [] : checked.error.issues.map((i) => i.message);
}
const joinedProblemsAfter = (edit: (prd: Prd) => void) => problemsAfter(edit, joinedPrd);

const rowsOf = async (conn: DuckDBConnection, sql: string) =>
  (await conn.runAndReadAll(sql)).getRowObjectsJson();

/**
 * Runs `body` on a DuckDB holding the project's ODS schema and a `victim` table, and checks after it
 * that no statement smuggled in a hostile part or name dropped or filled that table.
 */
async function inProjectDuckDb(body: (conn: DuckDBConnection) => Promise<void>): Promise<void> {
  await withMemoryDuckDb(async (conn) => {
    await conn.run("ATTACH ':memory:' AS plat_p1_ods");
    await conn.run('CREATE TABLE victim (x INTEGER)');
    await body(conn);
    expect(await rowsOf(conn, 'SELECT COUNT(*) AS n FROM victim')).toEqual([{ n: '0' }]);
  });
}

function unionPrd(): Prd {
  return familyPrd(
    { table_count: 2, total_rows: 4 },
    [odsOf('ods_a', A, saleColumns), odsOf('ods_b', B, saleColumns)],
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
  );
}

describe('a DWD table over a family of tables', () => {
  it('reads every member once, each row tagged with its part as a value, as DuckDB runs it', async () => {
    const prd = unionPrd();
    const sql = tableSelect(prd, 'dwd', prd.layers.dwd[0], 'p1', snapshot);
    await inProjectDuckDb(async (conn) => {
      await conn.run(
        'CREATE TABLE plat_p1_ods.ods_a AS SELECT * FROM (VALUES (1, 10.50), (2, 4.25)) t(sale_id, amount)',
      );
      // The second member spells its column otherwise; the union reads it by name.
      await conn.run(
        'CREATE TABLE plat_p1_ods.ods_b AS SELECT * FROM (VALUES (3, 7.00)) t(sale_id, "AMOUNT")',
      );
      const rows = await rowsOf(conn, `SELECT * FROM (${sql}) ORDER BY sale_id`);
      expect(rows).toEqual([
        { sale_id: 1, amount: '10.50', source_year: HOSTILE_PART },
        { sale_id: 2, amount: '4.25', source_year: HOSTILE_PART },
        { sale_id: 3, amount: '7.00', source_year: '2020' },
      ]);
    });
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

/** Lines of two years joined to the headers of two years, ids restarting each year. */
const L1 = 'lines 2019';
const L2 = 'lines"2020';
const H1 = 'orders 2019';
const H2 = "orders'2020";

const lineTable = (name: string, header: string): SourceTable => ({
  name,
  row_count: 2,
  columns: [
    { name: 'order_id', type: 'int', data_type: 'int', nullable: false, key: 'PRI' },
    { name: 'line_no', type: 'int', data_type: 'int', nullable: false, key: 'PRI' },
    { name: 'quantity', type: 'int', data_type: 'int', nullable: false, key: '' },
  ],
  primary_key: ['order_id', 'line_no'],
  foreign_keys: [{ columns: ['order_id'], references_table: header, references_columns: ['order_id'] }],
  sample_rows: [],
});
const headerTable = (name: string): SourceTable => ({
  name,
  row_count: 2,
  columns: [
    { name: 'order_id', type: 'int', data_type: 'int', nullable: false, key: 'PRI' },
    { name: 'order_date', type: 'date', data_type: 'date', nullable: false, key: '' },
  ],
  primary_key: ['order_id'],
  foreign_keys: [],
  sample_rows: [],
});
const joinedSnapshot: SourceSnapshot = {
  database: 'src',
  server_version: 'test',
  tables: [lineTable(L1, H1), lineTable(L2, H2), headerTable(H1), headerTable(H2)],
  views: [],
};

function joinedPrd(): Prd {
  const lineColumns: [string, string][] = [
    ['order_id', 'INTEGER'],
    ['line_no', 'INTEGER'],
    ['quantity', 'INTEGER'],
  ];
  const headerColumns: [string, string][] = [
    ['order_id', 'INTEGER'],
    ['order_date', 'DATE'],
  ];
  return familyPrd(
    { table_count: 4, total_rows: 8 },
    [
      odsOf('ods_l1', L1, lineColumns),
      odsOf('ods_l2', L2, lineColumns),
      odsOf('ods_h1', H1, headerColumns),
      odsOf('ods_h2', H2, headerColumns),
    ],
    {
      name: 'dwd_lines_detail',
      source_tables: [L1, L2, H1, H2],
      fields: [
        { name: 'order_id', type: 'INTEGER', source: `${quoted(L1)}.order_id` },
        { name: 'line_no', type: 'INTEGER', source: `${quoted(L1)}.line_no` },
        { name: 'event_date', type: 'DATE', source: `CAST(${quoted(H1)}.order_date AS DATE)` },
        { name: 'source_year', type: 'VARCHAR', source: `${quoted(L1)}.source_year` },
        { name: 'header_year', type: 'VARCHAR', source: `${quoted(H1)}.source_year` },
      ],
      union: {
        part_columns: ['source_year'],
        members: [
          { table: L1, parts: [HOSTILE_PART] },
          { table: L2, parts: ['2020'] },
        ],
      },
      joined_unions: [
        {
          part_columns: ['source_year'],
          members: [
            { table: H1, parts: [HOSTILE_PART] },
            { table: H2, parts: ['2020'] },
          ],
        },
      ],
    },
  );
}

describe('a DWD union of lines joined to the union of their headers', () => {
  it('matches each line to the header of its own part, whatever the parts and names hold', async () => {
    const prd = joinedPrd();
    const sql = tableSelect(prd, 'dwd', prd.layers.dwd[0], 'p1', joinedSnapshot);
    await inProjectDuckDb(async (conn) => {
      // Order 1 exists in both years: a join on the id alone would give each line two dates.
      const lines = 'SELECT * FROM (VALUES (1, 1, 5), (1, 2, 6)) t(order_id, line_no, quantity)';
      await conn.run(`CREATE TABLE plat_p1_ods.ods_l1 AS ${lines}`);
      await conn.run(`CREATE TABLE plat_p1_ods.ods_l2 AS ${lines}`);
      await conn.run(
        "CREATE TABLE plat_p1_ods.ods_h1 AS SELECT * FROM (VALUES (1, DATE '2019-03-01')) t(order_id, order_date)",
      );
      await conn.run(
        "CREATE TABLE plat_p1_ods.ods_h2 AS SELECT * FROM (VALUES (1, DATE '2020-07-09')) t(order_id, order_date)",
      );
      const rows = (
        await conn.runAndReadAll(
          `SELECT line_no, CAST(event_date AS VARCHAR) AS d, source_year, header_year FROM (${sql}) ORDER BY d, line_no`,
        )
      ).getRowObjectsJson();
      expect(rows).toEqual([
        { line_no: 1, d: '2019-03-01', source_year: HOSTILE_PART, header_year: HOSTILE_PART },
        { line_no: 2, d: '2019-03-01', source_year: HOSTILE_PART, header_year: HOSTILE_PART },
        { line_no: 1, d: '2020-07-09', source_year: '2020', header_year: '2020' },
        { line_no: 2, d: '2020-07-09', source_year: '2020', header_year: '2020' },
      ]);
    });
  });

  it('is refused when the joined union is reached from a table that carries no parts', () => {
    const prd = joinedPrd();
    // Lines read from their first table alone carry no part to match the headers' with.
    const table = { ...prd.layers.dwd[0], union: undefined };
    expect(() => tableSelect(prd, 'dwd', table, 'p1', joinedSnapshot)).toThrow(/carries no parts to match/);
  });

  it('holds the joined union to the PRD rules', () => {
    expect(joinedProblemsAfter(() => {})).toEqual([]);
    expect(joinedProblemsAfter((p) => (p.layers.dwd[0].union = undefined))).toEqual(
      expect.arrayContaining([expect.stringMatching(/joined_unions join a union: the table has none/)]),
    );
    expect(
      joinedProblemsAfter((p) => {
        p.layers.dwd[0].joined_unions![0].part_columns.push('source_region');
        for (const m of p.layers.dwd[0].joined_unions![0].members) m.parts.push('eu');
      }),
    ).toEqual([expect.stringMatching(/has 2 part columns for the union's 1/)]);
    expect(
      joinedProblemsAfter((p) => (p.layers.dwd[0].source_tables = p.layers.dwd[0].source_tables.slice(0, 3))),
    ).toEqual([expect.stringMatching(/joined union member orders'2020 is not in source_tables/)]);
    expect(joinedProblemsAfter((p) => (p.layers.dwd[0].joined_unions![0].members[1].table = L2))).toEqual(
      expect.arrayContaining([expect.stringMatching(/a table is in the union twice/)]),
    );
    expect(
      joinedProblemsAfter(
        (p) => (p.layers.dwd[0].fields[2].source = `CAST(${quoted(H2)}.order_date AS DATE)`),
      ),
    ).toEqual([expect.stringMatching(/read through the union: name it orders 2019/)]);
    // An existing union without joined_unions still parses (the older PRDs).
    expect(problemsAfter(() => {})).toEqual([]);
  });
});
