import { column as col, foreignKey as fk, sourceTable } from '../fixtures/source-tables';
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { prdSchema } from '../../shared/prd-schema';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../shared/source-schema';

const table = sourceTable;

const stores = table('stores', 3, [col('store_id', 'int', 'PRI'), col('store_name', 'varchar(60)')], {
  primary_key: ['store_id'],
});
const products = table(
  'products',
  10,
  [
    col('product_id', 'int', 'PRI'),
    col('product_name', 'varchar(60)'),
    col('product_line', 'varchar(40)'),
    col('list_price', 'decimal(8,2)'),
  ],
  { primary_key: ['product_id'] },
);
const sales = table(
  'sales',
  1800,
  [
    col('sale_id', 'int', 'PRI'),
    col('sale_date', 'date'),
    col('store_id', 'int', 'MUL'),
    col('product_id', 'int', 'MUL'),
    col('quantity', 'int'),
    col('amount', 'decimal(10,2)'),
  ],
  {
    primary_key: ['sale_id'],
    foreign_keys: [fk('store_id', 'stores'), fk('product_id', 'products')],
    date_stats: { sale_date: { non_null: 1800, first: '2023-01-01', last: '2024-12-31', future: 0 } },
  },
);
const monthly = (extra: Partial<SourceTable> = {}, columns?: SourceColumn[]) =>
  table(
    'store_month',
    72,
    columns ?? [
      col('store_id', 'int', 'PRI'),
      col('month_start', 'date', 'PRI'),
      col('total_quantity', 'int'),
      col('total_amount', 'decimal(12,2)'),
    ],
    {
      primary_key: ['store_id', 'month_start'],
      foreign_keys: [fk('store_id', 'stores')],
      date_stats: { month_start: { non_null: 72, first: '2023-01-01', last: '2024-12-01', future: 0 } },
      ...extra,
    },
  );
const byLine = (counts: number[]) =>
  table(
    'line_totals',
    counts.length,
    [
      col('product_line', 'varchar(40)', 'PRI'),
      col('sales_count', 'int'),
      col('total_amount', 'decimal(12,2)'),
    ],
    {
      primary_key: ['product_line'],
      sample_rows: counts.map((n, i) => ({
        product_line: `L${i}`,
        sales_count: String(n),
        total_amount: '1.00',
      })),
    },
  );

const roles = (...tables: SourceTable[]) => {
  const snapshot: SourceSnapshot = { database: 'shop', server_version: '8', tables, views: [] };
  const prd = buildOfflinePrd(snapshot, '');
  expect(prdSchema.safeParse(prd).success).toBe(true);
  return { prd, role: (t: string) => prd.table_roles.find((r) => r.table === t)?.role };
};

describe('summary tables', () => {
  it('classes roll-ups of a fact as summary, with no fact entry and no metric on them', () => {
    const { prd, role } = roles(stores, products, sales, monthly(), byLine([900, 500, 400]));
    expect([role('store_month'), role('line_totals'), role('sales')]).toEqual([
      'summary',
      'summary',
      'event',
    ]);
    expect(prd.fact_tables).toEqual(['sales']);
    expect(prd.metrics.every((m) => m.ads_table.includes('sales'))).toBe(true);
    expect(prd.table_roles.find((r) => r.table === 'line_totals')!.evidence).toMatch(
      /sales_count adds up to the 1800 rows of sales/,
    );
    // The key inferred from products.product_line into the roll-up joins nothing.
    expect(prd.relationships.some((r) => r.references_table === 'line_totals')).toBe(false);
  });

  it('keeps what only looks like a roll-up', () => {
    // A plan per store and month: no aggregate measure.
    const targets = monthly({}, [
      col('store_id', 'int', 'PRI'),
      col('month_start', 'date', 'PRI'),
      col('target_amount', 'decimal(12,2)'),
    ]);
    expect(roles(stores, products, sales, targets).role('store_month')).not.toBe('summary');
    // A declared key into it: something depends on its rows.
    const notes = table('month_notes', 5, [col('store_id', 'int'), col('month_start', 'date')], {
      foreign_keys: [
        {
          columns: ['store_id', 'month_start'],
          references_table: 'store_month',
          references_columns: ['store_id', 'month_start'],
        },
      ],
    });
    expect(roles(stores, products, sales, monthly(), notes).role('store_month')).not.toBe('summary');
    // A count that adds up to no table's rows counts something else.
    expect(roles(stores, products, sales, byLine([3, 4, 5])).role('line_totals')).not.toBe('summary');
    // A refund carries the sale's key (it identifies a fact row) and a time of day.
    const refunds = table(
      'refunds',
      40,
      [
        col('refund_id', 'int', 'PRI'),
        col('sale_id', 'int'),
        col('total_amount', 'decimal(10,2)'),
        col('refunded_at', 'datetime'),
      ],
      { primary_key: ['refund_id'], foreign_keys: [fk('sale_id', 'sales')] },
    );
    expect(roles(stores, products, sales, refunds).role('refunds')).toBe('event');
    // A period outside the fact's dates is not a roll-up of it.
    const stale = monthly({
      date_stats: { month_start: { non_null: 72, first: '2019-01-01', last: '2020-12-01', future: 0 } },
    });
    expect(roles(stores, products, sales, stale).role('store_month')).not.toBe('summary');
    // A column the fact does not reach (a region of its own) is no grain of the fact.
    const regional = monthly({}, [
      col('store_id', 'int', 'PRI'),
      col('region', 'varchar(20)'),
      col('month_start', 'date', 'PRI'),
      col('total_amount', 'decimal(12,2)'),
    ]);
    expect(roles(stores, products, sales, regional).role('store_month')).not.toBe('summary');
  });

  it('reconciles totals the explorer took over whole tables, however large', () => {
    const summed = { ...sales, sums: { quantity: '5400', amount: '123456.78' } };
    // 72 rows, none sampled: the count and money totals come from the explorer's scan.
    const counted = (count: string, amount: string) =>
      monthly({ sums: { sales_count: count, total_amount: amount } }, [
        col('store_id', 'int', 'PRI'),
        col('month_start', 'date', 'PRI'),
        col('sales_count', 'int'),
        col('total_amount', 'decimal(12,2)'),
      ]);
    const matched = roles(stores, products, summed, counted('1800', '123456.78'));
    expect(matched.role('store_month')).toBe('summary');
    expect(matched.prd.table_roles.find((r) => r.table === 'store_month')!.evidence).toMatch(
      /sales_count adds up to the 1800 rows of sales.*totals reconcile: total_amount = sales.amount \(123456.78\)/,
    );
    // A roll-up of fewer periods than the fact is still one; its money is not said to reconcile.
    const partial = roles(stores, products, summed, counted('1800', '100000.00'));
    expect(partial.role('store_month')).toBe('summary');
    expect(partial.prd.table_roles.find((r) => r.table === 'store_month')!.evidence).not.toMatch(
      /totals reconcile/,
    );
    // A count whose total is no table's rows counts something else, sampled or not.
    expect(roles(stores, products, summed, counted('977', '123456.78')).role('store_month')).not.toBe(
      'summary',
    );
  });
});
