/**
 * Revenue where the price is (docs/offline-analyst.md#revenue-where-the-price-is): a flat sale with
 * its own date and a quantity, but no price or money of its own, takes the list price of the product
 * its declared key references, as a line of a dated header does. A sale with its own price keeps it;
 * stock moving is never priced; a key only inferred from names prices nothing.
 */
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import type { Prd } from '../../../shared/prd-schema';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { column, foreignKey, sourceTable } from '../../fixtures/source-tables';

const productKey = foreignKey('product_id', 'products');
const storeKey = foreignKey('store_id', 'stores');

const products = sourceTable(
  'products',
  40,
  [
    column('product_id', 'int', 'PRI'),
    column('product_name', 'varchar(80)'),
    column('unit_cost', 'decimal(10,2)'),
    column('list_price', 'decimal(10,2)'),
  ],
  { primary_key: ['product_id'] },
);
const stores = sourceTable(
  'stores',
  5,
  [column('store_id', 'int', 'PRI'), column('store_name', 'varchar(40)')],
  {
    primary_key: ['store_id'],
  },
);

/** A dated fact referencing products and stores (declared keys unless told otherwise). */
function dated(
  name: string,
  date: string,
  measures: SourceColumn[],
  opts: { declared?: boolean; extraKeys?: SourceTable['foreign_keys']; extra?: SourceColumn[] } = {},
): SourceTable {
  const { declared = true, extraKeys = [], extra = [] } = opts;
  return sourceTable(
    name,
    500,
    [
      column(`${name.replace(/s$/, '')}_id`, 'int', 'PRI'),
      column(date, 'datetime'),
      column('product_id', 'int', declared ? 'MUL' : ''),
      column('store_id', 'int', 'MUL'),
      ...extra,
      ...measures,
    ],
    {
      primary_key: [`${name.replace(/s$/, '')}_id`],
      foreign_keys: [...(declared ? [productKey] : []), storeKey, ...extraKeys],
      date_stats: { [date]: { non_null: 500, first: '2023-01-01', last: '2024-12-31', future: 0 } },
    },
  );
}

const prdOf = (...tables: SourceTable[]): Prd =>
  buildOfflinePrd({
    database: 'shop',
    server_version: '11',
    tables: [products, stores, ...tables],
    views: [],
  } satisfies SourceSnapshot);
const dwdOf = (prd: Prd, table: string) =>
  prd.layers.dwd.find((t) => t.source_tables[0] === table && t.fields.some((f) => f.name === 'event_date'))!;
const revenueOf = (prd: Prd, table: string) =>
  dwdOf(prd, table).fields.find((f) => f.name === 'line_revenue');
const quantity = column('quantity', 'int');

describe('a flat sale priced through its product', () => {
  it('takes the list price of the product its declared key references (not its cost)', () => {
    const prd = prdOf(dated('sales', 'sold_at', [quantity]));
    expect(prd.table_roles.find((r) => r.table === 'sales')?.role).toBe('event');
    const revenue = revenueOf(prd, 'sales')!;
    expect(revenue.source).toBe('CAST(sales.quantity * products.list_price AS DECIMAL(38,2))');
    expect(revenue.description).toContain('list-price revenue');
    expect(revenue.description).toContain('through sales.product_id');
    // The DWD joins the product in, and the daily revenue says what it is.
    expect(dwdOf(prd, 'sales').source_tables).toContain('products');
    const fact = prd.facts.find((f) => f.table === 'sales')!;
    const ads = prd.layers.ads.find((t) => t.name === fact.ads_table)!;
    expect(ads.fields.find((f) => f.name === 'revenue')?.description).toContain('list-price revenue');
    const metric = prd.metrics.find((m) => m.ads_table === fact.ads_table && /revenue/.test(m.sql))!;
    expect(metric.description).toMatch(/list-price revenue/i);
    expect(metric.description).toContain('sales.product_id');
  });

  it('keeps the price a sale carries itself', () => {
    const prd = prdOf(dated('sales', 'sold_at', [quantity, column('unit_price', 'decimal(10,2)')]));
    expect(revenueOf(prd, 'sales')?.source).toBe('CAST(sales.quantity * sales.unit_price AS DECIMAL(38,2))');
    expect(revenueOf(prd, 'sales')?.description).not.toContain('list-price');
  });

  it('prices no sale that carries money of its own', () => {
    const prd = prdOf(dated('sales', 'sold_at', [quantity, column('amount', 'decimal(10,2)')]));
    expect(revenueOf(prd, 'sales')).toBeUndefined();
  });

  it.each([
    ['stock_moves', 'moved_at', quantity],
    ['inventory_adjustments', 'adjusted_at', quantity],
    ['movements', 'created_at', quantity],
    ['events', 'happened_at', column('qty_change', 'int')],
  ])('prices no stock moving: %s', (name, date, measure) => {
    const prd = prdOf(dated(name, date, [measure]));
    expect(prd.table_roles.find((r) => r.table === name)?.role).toBe('event');
    expect(revenueOf(prd, name)).toBeUndefined();
  });

  it('prices no stock level (a snapshot)', () => {
    const stocks = sourceTable(
      'stocks',
      200,
      [column('store_id', 'int', 'PRI'), column('product_id', 'int', 'PRI'), quantity],
      { primary_key: ['store_id', 'product_id'], foreign_keys: [productKey, storeKey] },
    );
    const prd = prdOf(stocks);
    expect(prd.table_roles.find((r) => r.table === 'stocks')?.role).toBe('snapshot');
    expect(revenueOf(prd, 'stocks')).toBeUndefined();
  });

  it('prices no transfer from one store to another', () => {
    const keys = [
      foreignKey('from_store_id', 'stores', 'store_id'),
      foreignKey('to_store_id', 'stores', 'store_id'),
    ];
    const extra = [column('from_store_id', 'int', 'MUL'), column('to_store_id', 'int', 'MUL')];
    const prd = prdOf(dated('shipments', 'shipped_at', [quantity], { extraKeys: keys, extra }));
    expect(revenueOf(prd, 'shipments')).toBeUndefined();
  });

  it('prices nothing through a key only inferred from its name', () => {
    const prd = prdOf(dated('sales', 'sold_at', [quantity], { declared: false }));
    // The key is found by its name (the DWD may join the product for its label), but prices nothing.
    expect(prd.relationships.some((r) => r.table === 'sales' && r.references_table === 'products')).toBe(
      true,
    );
    expect(revenueOf(prd, 'sales')).toBeUndefined();
  });
});
