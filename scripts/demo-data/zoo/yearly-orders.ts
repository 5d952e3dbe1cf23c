/**
 * `zoo_yearly_orders`: an order header and its lines, both kept in one table per year as archives
 * split them (`orders_2019`…`orders_2021`, `order_lines_2019`…`order_lines_2021`). Each year's lines
 * declare a key into that year's orders, and order ids restart at 1 every year: read year by year
 * each table is a fact covering one year, and lines joined to headers on the order id alone would
 * meet an order of every year and count each line three times. Read as one, the headers are one
 * fact and the lines one fact dated by their order, joined within the year.
 */
import { formatDateTime, utcDate } from '../calendar';
import { spreadEvents } from '../event-times';
import { columnsOf, unionAll, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements } from '../table-builder';
import { tradeDimensions } from './trade-dimensions';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_yearly_orders';
const YEARS = [2019, 2020, 2021];
const CATEGORIES = ['Bedding', 'Cookware', 'Lamps', 'Rugs', 'Storage'];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const customers = 60;
  const { customer, product, prices } = tradeDimensions(rng, {
    customers,
    countries: ['DE', 'FR', 'US', 'GB', 'NL'],
    products: 40,
    priceCents: [250, 24_000],
    productWord: 'Article',
    categories: CATEGORIES,
  });

  // One header table and one line table per year; order ids restart at 1 in every year's tables.
  const years = YEARS.map((year) => {
    const header = new GeneratedTable(
      `orders_${year}`,
      {
        order_id: 'INT NOT NULL',
        order_date: 'DATETIME NOT NULL',
        customer_id: 'INT NOT NULL',
        status: "ENUM('shipped','cancelled','returned') NOT NULL",
      },
      [
        'PRIMARY KEY (order_id)',
        `CONSTRAINT fk_orders_${year}_customer FOREIGN KEY (customer_id) REFERENCES customer (customer_id)`,
      ],
    );
    const line = new GeneratedTable(
      `order_lines_${year}`,
      {
        order_id: 'INT NOT NULL',
        line_no: 'SMALLINT NOT NULL',
        product_id: 'INT NOT NULL',
        quantity: 'INT NOT NULL',
        unit_price: 'DECIMAL(10,2) NOT NULL',
      },
      [
        'PRIMARY KEY (order_id, line_no)',
        `CONSTRAINT fk_order_lines_${year}_order FOREIGN KEY (order_id) REFERENCES orders_${year} (order_id)`,
        `CONSTRAINT fk_order_lines_${year}_product FOREIGN KEY (product_id) REFERENCES product (product_id)`,
      ],
    );
    spreadEvents(rng, {
      from: utcDate(year, 1, 1),
      to: utcDate(year + 1, 1, 1),
      count: 160 + 40 * (year - YEARS[0]),
      hours: [7, 22],
    }).forEach((at, i) => {
      const orderId = i + 1;
      header.add({
        order_id: orderId,
        order_date: formatDateTime(at),
        customer_id: rng.int(1, customers),
        status: rng.pick(['shipped', 'shipped', 'shipped', 'cancelled', 'returned']),
      });
      const count = rng.int(1, 4);
      for (let n = 1; n <= count; n++) {
        const productId = rng.int(1, prices.length);
        line.add({
          order_id: orderId,
          line_no: n,
          product_id: productId,
          quantity: rng.int(1, 9),
          unit_price: money(prices[productId - 1]),
        });
      }
    });
    return { header, line };
  });
  const orders = years.map((y) => y.header);
  const lines = years.map((y) => y.line);

  const orderTables = YEARS.map((y) => `orders_${y}`);
  const lineTables = YEARS.map((y) => `order_lines_${y}`);
  // Each year's lines meet the orders of their own year only.
  const lineDates = YEARS.map(
    (y) =>
      `SELECT DATE(o.order_date) AS d FROM order_lines_${y} l JOIN orders_${y} o ON o.order_id = l.order_id`,
  ).join(' UNION ALL ');
  const rowCount = (tables: string[]) =>
    `SELECT SUM(n) AS n FROM (${unionAll(tables, 'SELECT COUNT(*) AS n FROM {t}')}) AS c`;
  return {
    name: NAME,
    description: 'Home goods retail store orders and their order lines, archived in one table per year',
    statements: databaseStatements([customer, product, ...orders, ...lines]),
    truth: {
      industry: 'retail',
      facts: [
        {
          table: 'orders_2019',
          event_date_sql: unionAll(orderTables, 'SELECT DATE(order_date) AS d FROM {t}'),
          event_time_column: 'orders_2019.order_date',
          union: orderTables,
          rows_sql: rowCount(orderTables),
        },
        {
          table: 'order_lines_2019',
          event_date_sql: lineDates,
          event_time_column: 'orders_2019.order_date',
          revenue_sql: `SELECT SUM(quantity * unit_price) AS revenue FROM (${unionAll(lineTables, 'SELECT quantity, unit_price FROM {t}')}) AS l`,
          union: lineTables,
          joined_union: orderTables,
          rows_sql: rowCount(lineTables),
        },
      ],
      never_aggregate: [
        ...columnsOf('customer', 'customer_id'),
        ...columnsOf('product', 'product_id'),
        ...orderTables.flatMap((t) => columnsOf(t, 'order_id', 'customer_id')),
        ...lineTables.flatMap((t) => columnsOf(t, 'order_id', 'line_no', 'product_id')),
      ],
      roles: {
        ...Object.fromEntries(orderTables.map((t) => [t, 'header' as const])),
        ...Object.fromEntries(lineTables.map((t) => [t, 'line' as const])),
        customer: 'dimension',
        product: 'dimension',
      },
    },
  };
}

export const yearlyOrders: ZooSchema = {
  name: NAME,
  summary:
    "an order header and its lines both kept in one table per year (orders_2019..orders_2021, order_lines_2019..order_lines_2021), each year's lines keyed to that year's orders, order ids restarting at 1 every year",
  generate,
};
