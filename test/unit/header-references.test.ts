import { column, foreignKey, sourceTable } from '../fixtures/source-tables';
import { ownEventTime } from '../../domain/agents/offline-analyst/event-time';
import { inheritedThrough, referenceShare } from '../../domain/agents/offline-analyst/header-references';
import { relationshipsOf } from '../../domain/agents/offline-analyst/implied-keys';
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { analyseTables } from '../../domain/agents/offline-analyst/table-roles';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../shared/source-schema';

const col = (name: string, type: string, nullable = false) => column(name, type, '', nullable);
const dated = (rows: number, first = '2023-01-01', last = '2024-12-31') => ({
  non_null: rows,
  first,
  last,
  future: 0,
});

/** 200 orders with a ship-to name, lines by a declared key, a shipment key set on `shipped` lines. */
function shop(opts: { shipped?: number; declaredOrder?: boolean; counted?: boolean } = {}): SourceSnapshot {
  const { shipped = 150, declaredOrder = true, counted = true } = opts;
  const customers = sourceTable(
    'customers',
    2000,
    [col('customer_id', 'int'), col('first_name', 'varchar(40)'), col('last_name', 'varchar(40)')],
    { primary_key: ['customer_id'] },
  );
  const products = sourceTable(
    'products',
    1000,
    [col('product_id', 'int'), col('product_name', 'varchar(80)'), col('list_price', 'decimal(10,2)')],
    { primary_key: ['product_id'] },
  );
  const orders = sourceTable(
    'orders',
    200,
    [
      col('order_id', 'int'),
      col('customer_id', 'int'),
      col('order_date', 'datetime'),
      col('recipient_name', 'varchar(80)'),
    ],
    {
      primary_key: ['order_id'],
      foreign_keys: [foreignKey('customer_id', 'customers')],
      date_stats: { order_date: dated(200) },
    },
  );
  const shipments = sourceTable(
    'shipments',
    55,
    [col('shipment_id', 'int'), col('shipped_date', 'date'), col('freight', 'decimal(8,2)')],
    { primary_key: ['shipment_id'], date_stats: { shipped_date: dated(55, '2023-01-07', '2024-11-14') } },
  );
  const lines = sourceTable(
    'order_lines',
    600,
    [
      col('order_line_id', 'int'),
      col('order_id', 'int'),
      col('product_id', 'int'),
      col('shipment_id', 'int', true),
      col('quantity', 'int'),
      col('unit_price', 'decimal(10,2)'),
    ],
    {
      primary_key: ['order_line_id'],
      foreign_keys: [
        ...(declaredOrder ? [foreignKey('order_id', 'orders')] : []),
        foreignKey('product_id', 'products'),
      ],
      ...(counted ? { non_null: { shipment_id: shipped } } : {}),
    },
  );
  return {
    database: 'shop',
    server_version: '11',
    tables: [customers, products, orders, shipments, lines],
    views: [],
  };
}

const roles = (snapshot: SourceSnapshot) =>
  Object.fromEntries(analyseTables(snapshot, relationshipsOf(snapshot)).map((a) => [a.table.name, a.role]));

describe('headers and references by evidence', () => {
  it('classes a small order table its lines reference through a declared key as their header', () => {
    expect(roles(shop())).toMatchObject({
      orders: 'header',
      order_lines: 'line',
      shipments: 'event',
      customers: 'dimension',
      products: 'dimension',
    });
    const lines = buildOfflinePrd(shop()).facts.find((f) => f.table === 'order_lines')!;
    expect(lines.event_time).toMatchObject({
      table: 'orders',
      column: 'order_date',
      path: ['order_lines.order_id -> orders.order_id'],
    });
  });

  it('credits a date inherited through a nullable reference only with the rows where it is set', () => {
    const prd = buildOfflinePrd(shop());
    const shipped = prd.facts
      .find((f) => f.table === 'order_lines')!
      .event_time_candidates.find((c) => c.table === 'shipments')!;
    expect(shipped).toMatchObject({ coverage: 0.25, support: 'sparse' });
    expect(shipped.note).toContain('order_lines.shipment_id set on 25% of rows');
  });

  it('dates no line by a reference set on few rows, but by one set on most rows', () => {
    // Without the declared order key the order stays an entity; the only dated table the lines
    // reach is the shipment, through a key set on a quarter of them: it dates none of them.
    const sparse = shop({ declaredOrder: false, shipped: 150 });
    const lines = analyseTables(sparse, relationshipsOf(sparse)).find((a) => a.table.name === 'order_lines')!;
    expect([lines.role, lines.header]).toEqual(['snapshot', undefined]);
    // Set on 590 of 600 lines, the same reference dates them.
    const dense = shop({ declaredOrder: false, shipped: 590 });
    const dated = analyseTables(dense, relationshipsOf(dense)).find((a) => a.table.name === 'order_lines')!;
    expect([dated.role, dated.header]).toEqual(['line', 'shipments']);
    const shipments = dense.tables.find((t) => t.name === 'shipments')!;
    const linesTable = dense.tables.find((t) => t.name === 'order_lines')!;
    expect(
      inheritedThrough(ownEventTime(shipments), [{ table: linesTable, columns: ['shipment_id'] }]),
    ).toMatchObject({ support: 'complete', weakness: 'order_lines.shipment_id set on 98% of rows' });
  });

  it('dates a line through declared keys before a key only implied by names', () => {
    const t = (name: string, columns: SourceColumn[], extra: Partial<SourceTable> = {}) =>
      sourceTable(name, 500, columns, { primary_key: [columns[0].name], ...extra });
    const snapshot: SourceSnapshot = {
      database: 'billing',
      server_version: '11',
      views: [],
      tables: [
        t(
          'promotions',
          [col('promotion_id', 'int'), col('promotion_date', 'date'), col('budget', 'decimal(10,2)')],
          {
            date_stats: { promotion_date: dated(500) },
          },
        ),
        t(
          'invoices',
          [col('invoice_id', 'int'), col('invoice_date', 'date'), col('total', 'decimal(10,2)')],
          {
            date_stats: { invoice_date: dated(500) },
          },
        ),
        t('batches', [col('batch_id', 'int'), col('invoice_id', 'int'), col('batch_code', 'varchar(12)')], {
          foreign_keys: [foreignKey('invoice_id', 'invoices')],
        }),
        // The implied promotion key is listed first and set on every row; the declared way to the
        // invoice goes through a batch.
        t(
          'charges',
          [
            col('charge_id', 'int'),
            col('promotion_id', 'int'),
            col('batch_id', 'int'),
            col('amount', 'decimal(10,2)'),
          ],
          { foreign_keys: [foreignKey('batch_id', 'batches')] },
        ),
      ],
    };
    const charges = analyseTables(snapshot, relationshipsOf(snapshot)).find(
      (a) => a.table.name === 'charges',
    )!;
    expect([charges.role, charges.header]).toEqual(['line', 'invoices']);
  });

  it('claims no coverage for a nullable reference nobody counted, and caps it at partial', () => {
    const snapshot = shop({ counted: false });
    const linesTable = snapshot.tables.find((t) => t.name === 'order_lines')!;
    expect(referenceShare(linesTable, ['shipment_id'])).toBeUndefined();
    expect(referenceShare(linesTable, ['order_id'])).toBe(1);
    const shipments = snapshot.tables.find((t) => t.name === 'shipments')!;
    const c = inheritedThrough(ownEventTime(shipments), [{ table: linesTable, columns: ['shipment_id'] }])!;
    expect(c.coverage).toBeUndefined();
    expect(c.support).toBe('partial');
  });

  it('leaves an entity with a creation date a dimension though priced rows reference it', () => {
    const snapshot = shop();
    const customers = snapshot.tables.find((t) => t.name === 'customers')!;
    customers.columns.push(col('signup_date', 'date'));
    customers.date_stats = { signup_date: dated(2000, '2019-01-01', '2024-12-31') };
    const lines = snapshot.tables.find((t) => t.name === 'order_lines')!;
    lines.columns.push(col('customer_id', 'int'));
    lines.foreign_keys.push({
      columns: ['customer_id'],
      references_table: 'customers',
      references_columns: ['customer_id'],
    });
    expect(roles(snapshot)).toMatchObject({ customers: 'dimension', orders: 'header', order_lines: 'line' });
  });
});
