/**
 * `zoo_yearly_sales`: one fact kept in several tables, as archives and exports split it. Sales are
 * in one table per year (`sales_2019`, `sales_2020`, `sales_2021`) with the same columns, each
 * referencing the shared `customer` and `product`; payments are in one table per region
 * (`payments_eu`, `payments_us`). A series of one table covers one year; only the family read as
 * one covers the history, and revenue reconciles only over every table of it.
 */
import { formatDate, formatDateTime, utcDate } from '../calendar';
import { spreadEvents } from '../event-times';
import { columnsOf, unionAll, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements } from '../table-builder';
import { tradeDimensions } from './trade-dimensions';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_yearly_sales';
const YEARS = [2019, 2020, 2021];
const REGIONS = ['eu', 'us'];
const CATEGORIES = ['Garden', 'Kitchen', 'Lighting', 'Storage'];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const customers = 50;
  const { customer, product, prices } = tradeDimensions(rng, {
    customers,
    countries: ['DE', 'FR', 'US', 'CA', 'NL'],
    products: 30,
    priceCents: [300, 18_000],
    productWord: 'Item',
    categories: CATEGORIES,
  });

  // One table per year, the same columns and keys; sale ids run on across the years.
  let saleId = 0;
  const sales = YEARS.map((year) => {
    const table = new GeneratedTable(
      `sales_${year}`,
      {
        sale_id: 'INT NOT NULL',
        sale_date: 'DATETIME NOT NULL',
        customer_id: 'INT NOT NULL',
        product_id: 'INT NOT NULL',
        quantity: 'INT NOT NULL',
        unit_price: 'DECIMAL(10,2) NOT NULL',
        amount: 'DECIMAL(12,2) NOT NULL',
      },
      [
        'PRIMARY KEY (sale_id)',
        `CONSTRAINT fk_sales_${year}_customer FOREIGN KEY (customer_id) REFERENCES customer (customer_id)`,
        `CONSTRAINT fk_sales_${year}_product FOREIGN KEY (product_id) REFERENCES product (product_id)`,
      ],
    );
    for (const at of spreadEvents(rng, {
      from: utcDate(year, 1, 1),
      to: utcDate(year + 1, 1, 1),
      count: 300 + 60 * (year - YEARS[0]),
      hours: [8, 20],
    })) {
      const productId = rng.int(1, prices.length);
      const quantity = rng.int(1, 12);
      saleId += 1;
      table.add({
        sale_id: saleId,
        sale_date: formatDateTime(at),
        customer_id: rng.int(1, customers),
        product_id: productId,
        quantity,
        unit_price: money(prices[productId - 1]),
        amount: money(quantity * prices[productId - 1]),
      });
    }
    return table;
  });

  // One table per region, the same columns; payment ids restart in each region's system.
  const payments = REGIONS.map((region) => {
    const table = new GeneratedTable(
      `payments_${region}`,
      {
        payment_id: 'INT NOT NULL',
        customer_id: 'INT NOT NULL',
        payment_date: 'DATE NOT NULL',
        amount: 'DECIMAL(12,2) NOT NULL',
      },
      [
        'PRIMARY KEY (payment_id)',
        `CONSTRAINT fk_payments_${region}_customer FOREIGN KEY (customer_id) REFERENCES customer (customer_id)`,
      ],
    );
    spreadEvents(rng, {
      from: utcDate(2019, 1, 1),
      to: utcDate(2022, 1, 1),
      count: region === 'eu' ? 180 : 120,
    }).forEach((at, i) =>
      table.add({
        payment_id: i + 1,
        customer_id: rng.int(1, customers),
        payment_date: formatDate(at),
        amount: money(rng.int(2_000, 250_000)),
      }),
    );
    return table;
  });

  const saleTables = YEARS.map((y) => `sales_${y}`);
  const paymentTables = REGIONS.map((r) => `payments_${r}`);
  return {
    name: NAME,
    description: 'Retail store sales kept in one table per year, and payments per region',
    statements: databaseStatements([customer, product, ...sales, ...payments]),
    truth: {
      industry: 'retail',
      facts: [
        {
          table: 'sales_2019',
          event_date_sql: unionAll(saleTables, 'SELECT DATE(sale_date) AS d FROM {t}'),
          event_time_column: 'sales_2019.sale_date',
          revenue_sql: `SELECT SUM(amount) AS revenue FROM (${unionAll(saleTables, 'SELECT amount FROM {t}')}) AS s`,
          union: saleTables,
        },
        {
          table: 'payments_eu',
          event_date_sql: unionAll(paymentTables, 'SELECT payment_date AS d FROM {t}'),
          event_time_column: 'payments_eu.payment_date',
          revenue_sql: `SELECT SUM(amount) AS revenue FROM (${unionAll(paymentTables, 'SELECT amount FROM {t}')}) AS p`,
          union: paymentTables,
        },
      ],
      never_aggregate: [
        ...columnsOf('customer', 'customer_id'),
        ...columnsOf('product', 'product_id'),
        ...saleTables.flatMap((t) => columnsOf(t, 'sale_id', 'customer_id', 'product_id')),
        ...paymentTables.flatMap((t) => columnsOf(t, 'payment_id', 'customer_id')),
      ],
      roles: {
        ...Object.fromEntries([...saleTables, ...paymentTables].map((t) => [t, 'event' as const])),
        customer: 'dimension',
        product: 'dimension',
      },
    },
  };
}

export const yearlySales: ZooSchema = {
  name: NAME,
  summary:
    'one fact in several tables: sales in one table per year (sales_2019..sales_2021) and payments in one per region (payments_eu, payments_us), with the same columns and shared customer and product dimensions',
  generate,
};
