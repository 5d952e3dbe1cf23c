/**
 * Table families (docs/offline-analyst.md#table-families): tables whose names differ by a year,
 * month or region and whose columns match are read as one fact; tables that only look alike (names
 * differing by another word, other columns, a fact word that differs) stay apart.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';

const column = (name: string, type: string, key: SourceColumn['key'] = ''): SourceColumn => ({
  name,
  type,
  data_type: type.replace(/\(.*$/, ''),
  nullable: false,
  key,
});

const customer: SourceTable = {
  name: 'customer',
  row_count: 20,
  columns: [column('customer_id', 'int', 'PRI'), column('name', 'varchar(40)')],
  primary_key: ['customer_id'],
  foreign_keys: [],
  sample_rows: [],
};

/** A fact table of sales: its own date, an amount and a declared key to customer. */
function facts(
  name: string,
  rows = 100,
  first = '2020-01-03',
  last = '2020-12-28',
  extra: SourceColumn[] = [],
) {
  return {
    name,
    row_count: rows,
    columns: [
      column('sale_id', 'int', 'PRI'),
      column('customer_id', 'int', 'MUL'),
      column('sale_date', 'date'),
      column('amount', 'decimal(10,2)'),
      ...extra,
    ],
    primary_key: ['sale_id'],
    foreign_keys: [
      { columns: ['customer_id'], references_table: 'customer', references_columns: ['customer_id'] },
    ],
    sample_rows: [],
    date_stats: { sale_date: { non_null: rows, first, last, future: 0 } },
  } satisfies SourceTable;
}

const prdOf = (...tables: SourceTable[]) =>
  buildOfflinePrd({
    database: 'db',
    server_version: 't',
    tables: [customer, ...tables],
    views: [],
  } satisfies SourceSnapshot);
const unions = (...tables: SourceTable[]) =>
  prdOf(...tables).layers.dwd.flatMap((t) =>
    t.union ? [t.union.members.map((m) => `${m.table}:${m.parts.join('/')}`)] : [],
  );

describe('table families', () => {
  it('reads yearly tables as one fact, earliest first, dated over every year', () => {
    const prd = prdOf(
      facts('sales_2021', 300, '2021-01-01', '2021-12-31'),
      facts('sales2019', 100, '2019-01-02', '2019-12-30'),
      facts('sales_2020', 200, '2020-01-01', '2020-12-31'),
    );
    expect(prd.fact_tables).toEqual(['sales2019']);
    const dwd = prd.layers.dwd.find((t) => t.union)!;
    expect(dwd.name).toBe('dwd_sales_detail');
    expect(dwd.union!.members.map((m) => [m.table, m.parts])).toEqual([
      ['sales2019', ['2019']],
      ['sales_2020', ['2020']],
      ['sales_2021', ['2021']],
    ]);
    expect(dwd.union!.evidence).toMatch(/falls in the year its name says/);
    expect(prd.facts[0].event_time_candidates[0]).toMatchObject({
      first: '2019-01-02',
      last: '2021-12-31',
      coverage: 1,
    });
    expect(prd.metrics.map((m) => m.name)).toContain('sale_count');
  });

  it('reads tables per year and region as one fact with two part columns', () => {
    const got = unions(
      facts('sales_2020_east'),
      facts('sales_2020_west'),
      facts('sales_2021_east'),
      facts('sales_2021_west'),
    );
    expect(got).toEqual([
      [
        'sales_2020_east:2020/east',
        'sales_2020_west:2020/west',
        'sales_2021_east:2021/east',
        'sales_2021_west:2021/west',
      ],
    ]);
  });

  it('keeps apart tables that only look alike', () => {
    // Differing by a word that is no region: two facts.
    expect(unions(facts('purchase_orders'), facts('sales_orders'))).toEqual([]);
    // The same region, a different fact word.
    expect(unions(facts('orders_eu'), facts('returns_eu'))).toEqual([]);
    // Other columns.
    expect(
      unions(
        facts('sales_2019'),
        facts('sales_2020', 100, '2020-01-01', '2020-12-31', [column('note', 'varchar(9)')]),
      ),
    ).toEqual([]);
    // Two families of numbered tables with the same columns: each read as one, never all four.
    const both = unions(
      facts('sales_2019'),
      facts('sales_2020'),
      facts('refunds_2019'),
      facts('refunds_2020'),
    );
    expect(both).toHaveLength(2);
    expect(both).toEqual(
      expect.arrayContaining([
        ['sales_2019:2019', 'sales_2020:2020'],
        ['refunds_2019:2019', 'refunds_2020:2020'],
      ]),
    );
  });
});
