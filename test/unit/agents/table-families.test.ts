/**
 * Table families (docs/offline-analyst.md#table-families): tables whose names differ by a year,
 * month or region and whose columns match are read as one fact; tables that only look alike (names
 * differing by another word, other columns, a fact word that differs) stay apart. Headers and
 * their lines split the same way are two facts, the lines joined to the headers within each part.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { column, foreignKey, sourceTable } from '../../fixtures/source-tables';

const customer = sourceTable(
  'customer',
  20,
  [column('customer_id', 'int', 'PRI'), column('name', 'varchar(40)')],
  {
    primary_key: ['customer_id'],
  },
);

/** A fact table of sales: its own date, an amount and a declared key to customer. */
function facts(
  name: string,
  rows = 100,
  first = '2020-01-03',
  last = '2020-12-28',
  extra: SourceColumn[] = [],
) {
  return sourceTable(
    name,
    rows,
    [
      column('sale_id', 'int', 'PRI'),
      column('customer_id', 'int', 'MUL'),
      column('sale_date', 'date'),
      column('amount', 'decimal(10,2)'),
      ...extra,
    ],
    {
      primary_key: ['sale_id'],
      foreign_keys: [foreignKey('customer_id', 'customer')],
      date_stats: { sale_date: { non_null: rows, first, last, future: 0 } },
    },
  );
}

const prdOf = (...tables: SourceTable[]) =>
  buildOfflinePrd({
    database: 'db',
    server_version: 't',
    tables: [customer, ...tables],
    views: [],
  } satisfies SourceSnapshot);
const unionsOf = (prd: ReturnType<typeof prdOf>) =>
  prd.layers.dwd.flatMap((t) =>
    t.union ? [t.union.members.map((m) => `${m.table}:${m.parts.join('/')}`)] : [],
  );
const unions = (...tables: SourceTable[]) => unionsOf(prdOf(...tables));

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

const product = sourceTable(
  'product',
  20,
  [column('product_id', 'int', 'PRI'), column('product_name', 'varchar(40)')],
  {
    primary_key: ['product_id'],
  },
);

/** Order headers of one part (`orders_2019`, `orders_eu`): their own date and a customer. */
function headers(part: string, first = '2020-01-02', last = '2020-12-30', rows = 100): SourceTable {
  return sourceTable(
    `orders_${part}`,
    rows,
    [column('order_id', 'int', 'PRI'), column('customer_id', 'int', 'MUL'), column('order_date', 'date')],
    {
      primary_key: ['order_id'],
      foreign_keys: [foreignKey('customer_id', 'customer')],
      date_stats: { order_date: { non_null: rows, first, last, future: 0 } },
    },
  );
}
const yearly = (year: number) => headers(String(year), `${year}-01-02`, `${year}-12-30`);

/** Order lines of one part, no date, a declared key into the header table `header`. */
function lines(part: string, header = `orders_${part}`, rows = 250): SourceTable {
  return sourceTable(
    `order_lines_${part}`,
    rows,
    [
      column('order_id', 'int', 'PRI'),
      column('line_no', 'smallint', 'PRI'),
      column('product_id', 'int', 'MUL'),
      column('quantity', 'int'),
      column('unit_price', 'decimal(10,2)'),
    ],
    {
      primary_key: ['order_id', 'line_no'],
      foreign_keys: [foreignKey('order_id', header), foreignKey('product_id', 'product')],
    },
  );
}

describe('families of headers and their lines', () => {
  it('reads yearly headers as one header fact and yearly lines as one line fact joined within the year', () => {
    const prd = prdOf(
      product,
      yearly(2020),
      yearly(2019),
      yearly(2021),
      lines('2021'),
      lines('2019'),
      lines('2020'),
    );
    expect(prd.fact_tables).toEqual(['orders_2019', 'order_lines_2019']);
    expect(prd.facts.map((f) => f.kind)).toEqual(['header', 'line']);
    const line = prd.facts[1];
    expect(line.event_time).toMatchObject({
      table: 'orders_2019',
      column: 'order_date',
      path: ['order_lines_2019.order_id -> orders_2019.order_id'],
    });
    // Dated over every year of the headers, not the first table's.
    expect(line.event_time_candidates[0]).toMatchObject({
      first: '2019-01-02',
      last: '2021-12-30',
      coverage: 1,
    });
    const dwd = prd.layers.dwd.find((t) => t.name === 'dwd_order_lines_detail')!;
    expect(dwd.union!.members.map((m) => `${m.table}:${m.parts.join('/')}`)).toEqual([
      'order_lines_2019:2019',
      'order_lines_2020:2020',
      'order_lines_2021:2021',
    ]);
    expect(dwd.joined_unions).toEqual([
      expect.objectContaining({
        part_columns: ['source_year'],
        members: [
          { table: 'orders_2019', parts: ['2019'] },
          { table: 'orders_2020', parts: ['2020'] },
          { table: 'orders_2021', parts: ['2021'] },
        ],
      }),
    ]);
    // The evidence names each line table's key into the header table of its year.
    expect(dwd.union!.evidence).toMatch(
      /order_lines_2019\.order_id → orders_2019\.order_id, order_lines_2020\.order_id → orders_2020\.order_id, order_lines_2021\.order_id → orders_2021\.order_id \(declared\)/,
    );
    expect(dwd.union!.evidence).toMatch(/joined to the headers read as one on order_id and source_year/);
    expect(dwd.source_tables).toEqual(expect.arrayContaining(['orders_2019', 'orders_2020', 'orders_2021']));
    const headerDwd = prd.layers.dwd.find((t) => t.name === 'dwd_orders_detail')!;
    expect(headerDwd.union!.members.map((m) => m.table)).toEqual([
      'orders_2019',
      'orders_2020',
      'orders_2021',
    ]);
    expect(headerDwd.joined_unions).toBeUndefined();
    // Named after the families, counted by order.
    expect(prd.metrics.map((m) => m.name)).toEqual(
      expect.arrayContaining(['order_count', 'order_line_count', 'order_line_revenue']),
    );
    expect(prd.table_roles.filter((r) => r.role === 'line').map((r) => r.table)).toEqual([
      'order_lines_2021',
      'order_lines_2019',
      'order_lines_2020',
    ]);
    expect(prd.summary).toMatch(/joined with orders_2019 \+ orders_2020 \+ orders_2021 within each part/);
  });

  it('counts distinct headers by id and region when ids restart in each region', () => {
    const prd = prdOf(product, headers('eu'), headers('us'), lines('eu'), lines('us'));
    expect(prd.fact_tables).toEqual(['orders_eu', 'order_lines_eu']);
    const dws = prd.layers.dws.find((t) => t.name === 'dws_order_lines_daily')!;
    expect(dws.fields.find((f) => f.name === 'order_count')!.source).toBe(
      "COUNT(DISTINCT CAST(order_id AS VARCHAR) || '/' || source_region)",
    );
  });

  it('keeps each table its own fact when the parts differ', () => {
    // Headers per year, lines per region (each keyed to one year's headers).
    const byRegion = prdOf(
      product,
      yearly(2019),
      yearly(2020),
      lines('eu', 'orders_2019'),
      lines('us', 'orders_2020'),
    );
    expect(unionsOf(byRegion)).toEqual([]);
    expect(byRegion.fact_tables).toHaveLength(4);
    // Lines of 2020 and 2021 keyed to the headers of 2019 and 2020: years that differ member for member.
    const shifted = prdOf(
      product,
      yearly(2019),
      yearly(2020),
      lines('2020', 'orders_2019'),
      lines('2021', 'orders_2020'),
    );
    expect(unionsOf(shifted)).toEqual([]);
    expect(shifted.fact_tables).toHaveLength(4);
  });

  it('pairs the years headers and lines share; a year of headers without lines is an event', () => {
    const prd = prdOf(product, yearly(2019), yearly(2020), yearly(2021), lines('2019'), lines('2020'));
    expect(unionsOf(prd)).toEqual([
      ['orders_2019:2019', 'orders_2020:2020'],
      ['order_lines_2019:2019', 'order_lines_2020:2020'],
    ]);
    expect(prd.facts.find((f) => f.table === 'orders_2021')?.kind).toBe('event');
  });

  it('leaves the tables of one kind a family when a table of another kind looks like them', () => {
    // orders_2019 heads its lines; orders_2020 and orders_2021 have none: events, one fact.
    const prd = prdOf(product, yearly(2019), yearly(2020), yearly(2021), lines('2019'));
    expect(unionsOf(prd)).toEqual([['orders_2020:2020', 'orders_2021:2021']]);
    expect(prd.facts.map((f) => `${f.table}:${f.kind}`)).toEqual(
      expect.arrayContaining(['orders_2019:header', 'orders_2020:event', 'order_lines_2019:line']),
    );
  });

  it('does not pair lines that reference the headers of another part', () => {
    // Each year's lines declare a key into the next year's headers.
    const prd = prdOf(
      product,
      yearly(2019),
      yearly(2020),
      lines('2019', 'orders_2020'),
      lines('2020', 'orders_2019'),
    );
    expect(prd.layers.dwd.filter((t) => t.union)).toEqual([]);
    expect(prd.fact_tables).toHaveLength(4);
  });
});
