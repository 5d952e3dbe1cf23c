/**
 * `zoo_star_rollups`: a small sales star (stores, products, one sales fact dated by a DATE) plus
 * roll-up tables an earlier warehouse left behind, whose numbers are sums of the fact's rows:
 * monthly sales by store (a first-of-month DATE, references stores) and all-time sales by product
 * line (a text attribute of products, no key). They re-count the same sales, so they must be
 * classed `summary` and get no metrics. Beside them, a trap shaped like a roll-up that is not one:
 * monthly targets per store (a year and a month, an amount per store) whose numbers are plans, not
 * sums of sales.
 */
import { formatDate, utcDate, utcMidnight } from '../calendar';
import { spreadEvents, weekendFactor, yearlyCycle } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements, foreignKey, referenceTable } from '../table-builder';
import { addSale, type SalesSums } from './sales-sums';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_star_rollups';
const FROM = utcDate(2023, 1, 1);
const TO = utcDate(2025, 1, 1);
const SALES = 1800;

const STORES = ['Harbour Street', 'Mill Lane', 'Station Square'];
/** Product line, then products as [name, price in cents]. */
const LINES: [string, [string, number][]][] = [
  [
    'Coffee',
    [
      ['House Blend 250g', 799],
      ['Single Origin 250g', 1249],
      ['Decaf 250g', 899],
    ],
  ],
  [
    'Tea',
    [
      ['Breakfast Tea 100g', 549],
      ['Green Tea 100g', 649],
    ],
  ],
  [
    'Equipment',
    [
      ['Pour-over Kit', 3499],
      ['Hand Grinder', 5999],
      ['Milk Jug', 1599],
    ],
  ],
  [
    'Pastry',
    [
      ['Croissant', 295],
      ['Cinnamon Bun', 345],
    ],
  ],
];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const t = {
    stores: referenceTable(
      'stores',
      { store_id: 'INT NOT NULL', store_name: 'VARCHAR(60) NOT NULL', opened_year: 'YEAR NOT NULL' },
      STORES.map((name, i) => ({ store_id: i + 1, store_name: name, opened_year: 2015 + 3 * i })),
    ),
    products: new GeneratedTable(
      'products',
      {
        product_id: 'INT NOT NULL',
        product_name: 'VARCHAR(80) NOT NULL',
        product_line: 'VARCHAR(40) NOT NULL',
        list_price: 'DECIMAL(8,2) NOT NULL',
      },
      ['PRIMARY KEY (product_id)'],
    ),
    sales: new GeneratedTable(
      'fact_sales',
      {
        sale_id: 'INT NOT NULL',
        sale_date: 'DATE NOT NULL',
        store_id: 'INT NOT NULL',
        product_id: 'INT NOT NULL',
        quantity: 'INT NOT NULL',
        unit_price: 'DECIMAL(8,2) NOT NULL',
        amount: 'DECIMAL(10,2) NOT NULL',
      },
      [
        'PRIMARY KEY (sale_id)',
        foreignKey('fact_sales', 'store_id', 'stores'),
        foreignKey('fact_sales', 'product_id', 'products'),
      ],
    ),
    monthly: new GeneratedTable(
      'agg_store_month',
      {
        store_id: 'INT NOT NULL',
        sales_month: 'DATE NOT NULL',
        sales_count: 'INT NOT NULL',
        total_quantity: 'INT NOT NULL',
        total_amount: 'DECIMAL(12,2) NOT NULL',
      },
      ['PRIMARY KEY (store_id, sales_month)', foreignKey('agg_store_month', 'store_id', 'stores')],
    ),
    byLine: new GeneratedTable(
      'sales_by_product_line',
      {
        product_line: 'VARCHAR(40) NOT NULL',
        sales_count: 'INT NOT NULL',
        total_quantity: 'INT NOT NULL',
        total_amount: 'DECIMAL(12,2) NOT NULL',
      },
      ['PRIMARY KEY (product_line)'],
    ),
    targets: new GeneratedTable(
      'store_targets',
      {
        store_id: 'INT NOT NULL',
        target_year: 'SMALLINT NOT NULL',
        target_month: 'TINYINT NOT NULL',
        target_amount: 'DECIMAL(12,2) NOT NULL',
      },
      [
        'PRIMARY KEY (store_id, target_year, target_month)',
        foreignKey('store_targets', 'store_id', 'stores'),
      ],
    ),
  };

  const products: { id: number; line: string; cents: number }[] = [];
  for (const [line, items] of LINES)
    for (const [name, cents] of items) {
      products.push({ id: products.length + 1, line, cents });
      t.products.add({
        product_id: products.length,
        product_name: name,
        product_line: line,
        list_price: money(cents),
      });
    }

  // What the roll-ups hold: sums of the fact's rows.
  const byStoreMonth: SalesSums = new Map();
  const byLine: SalesSums = new Map();
  const days = spreadEvents(rng, {
    from: FROM,
    to: TO,
    count: SALES,
    weight: (day) => yearlyCycle(day, 330, 0.3) * weekendFactor(day, 1.4),
  }).map(utcMidnight);
  days.forEach((day, i) => {
    const store = rng.weighted([1, 2, 3], [5, 3, 2]);
    const product = rng.pick(products);
    const quantity = rng.weighted([1, 2, 3], [70, 20, 10]);
    const cents = quantity * product.cents;
    t.sales.add({
      sale_id: i + 1,
      sale_date: formatDate(day),
      store_id: store,
      product_id: product.id,
      quantity,
      unit_price: money(product.cents),
      amount: money(cents),
    });
    addSale(byStoreMonth, `${store}|${formatDate(day).slice(0, 7)}-01`, quantity, cents);
    addSale(byLine, product.line, quantity, cents);
  });
  for (const [key, sum] of [...byStoreMonth].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [store, month] = key.split('|');
    t.monthly.add({
      store_id: Number(store),
      sales_month: month,
      sales_count: sum.count,
      total_quantity: sum.quantity,
      total_amount: money(sum.cents),
    });
  }
  for (const [line] of LINES) {
    const sum = byLine.get(line)!;
    t.byLine.add({
      product_line: line,
      sales_count: sum.count,
      total_quantity: sum.quantity,
      total_amount: money(sum.cents),
    });
  }
  // Plans, not sums: round figures per store and month.
  STORES.forEach((_, s) => {
    for (const year of [2023, 2024])
      for (let month = 1; month <= 12; month++)
        t.targets.add({
          store_id: s + 1,
          target_year: year,
          target_month: month,
          target_amount: money(rng.int(8, 30) * 100_00),
        });
  });

  return {
    name: NAME,
    description: 'Coffee shop chain sales with monthly and product-line roll-ups',
    statements: databaseStatements(Object.values(t)),
    truth: {
      industry: 'retail',
      facts: [
        {
          ...datedFact('fact_sales', 'sale_date', 'day'),
          revenue_sql: 'SELECT SUM(amount) AS revenue FROM fact_sales',
        },
      ],
      never_aggregate: [
        ...columnsOf('stores', 'store_id', 'opened_year'),
        ...columnsOf('products', 'product_id'),
        ...columnsOf('fact_sales', 'sale_id', 'store_id', 'product_id'),
        ...columnsOf('agg_store_month', 'store_id'),
        ...columnsOf('store_targets', 'store_id', 'target_year', 'target_month'),
      ],
      roles: {
        fact_sales: 'event',
        stores: 'dimension',
        products: 'dimension',
        agg_store_month: 'summary',
        sales_by_product_line: 'summary',
      },
      summaries: ['agg_store_month', 'sales_by_product_line'],
    },
  };
}

export const starRollups: ZooSchema = {
  name: NAME,
  summary:
    'coffee shop sales star with roll-ups that reconcile with the fact (agg_store_month by store and first-of-month DATE, sales_by_product_line by a text attribute of products, no period), and store_targets shaped like a roll-up but holding plans',
  generate,
};
