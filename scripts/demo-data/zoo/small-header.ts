/**
 * `zoo_small_header`: a header smaller than its dimensions. 200 orders (each with its own order
 * date and a ship-to name, so it reads like an entity) next to 2,000 customers and 1,000 products;
 * the order lines reference their order through a declared key, and a shipment through a key that
 * is only implied by its name (`shipment_id`, no constraint) and set on about one line in four. The
 * lines are dated by their order's date; the shipments' date covers a quarter of them at most.
 */
import { DAY_MS, formatDate, formatDateTime, utcDate } from '../calendar';
import { spreadEvents } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { emailAddress, personName } from '../names';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_small_header';
const FROM = utcDate(2023, 1, 1);
const TO = utcDate(2025, 1, 1);
const CUSTOMERS = 2_000;
const PRODUCTS = 1_000;
const ORDERS = 200;
const CATEGORIES = ['Seeds', 'Bulbs', 'Tools', 'Pots', 'Soil', 'Furniture', 'Lighting'];
const COUNTRIES = ['DE', 'AT', 'CH', 'NL', 'BE', 'DK'];
const CARRIERS = ['Parcel One', 'Nordic Freight', 'Swift Post'];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const customers = new GeneratedTable(
    'customers',
    {
      customer_id: 'INT NOT NULL',
      first_name: 'VARCHAR(40) NOT NULL',
      last_name: 'VARCHAR(40) NOT NULL',
      email: 'VARCHAR(120) NOT NULL',
      country: 'CHAR(2) NOT NULL',
      signup_date: 'DATE NOT NULL',
    },
    ['PRIMARY KEY (customer_id)'],
  );
  const products = new GeneratedTable(
    'products',
    {
      product_id: 'INT NOT NULL',
      product_name: 'VARCHAR(80) NOT NULL',
      category: 'VARCHAR(30) NOT NULL',
      list_price: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (product_id)'],
  );
  const orders = new GeneratedTable(
    'orders',
    {
      order_id: 'INT NOT NULL',
      customer_id: 'INT NOT NULL',
      order_date: 'DATETIME NOT NULL',
      recipient_name: 'VARCHAR(80) NOT NULL',
      ship_country: 'CHAR(2) NOT NULL',
      status: 'VARCHAR(12) NOT NULL',
    },
    [
      'PRIMARY KEY (order_id)',
      'CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customers (customer_id)',
    ],
  );
  const shipments = new GeneratedTable(
    'shipments',
    {
      shipment_id: 'INT NOT NULL',
      carrier: 'VARCHAR(30) NOT NULL',
      shipped_date: 'DATE NOT NULL',
      freight: 'DECIMAL(8,2) NOT NULL',
    },
    ['PRIMARY KEY (shipment_id)'],
  );
  const lines = new GeneratedTable(
    'order_lines',
    {
      order_line_id: 'INT NOT NULL',
      order_id: 'INT NOT NULL',
      product_id: 'INT NOT NULL',
      // Only implied by its name: the carrier integration wrote it for about one order in four.
      shipment_id: 'INT NULL',
      quantity: 'INT NOT NULL',
      unit_price: 'DECIMAL(10,2) NOT NULL',
    },
    [
      'PRIMARY KEY (order_line_id)',
      'CONSTRAINT fk_lines_order FOREIGN KEY (order_id) REFERENCES orders (order_id)',
      'CONSTRAINT fk_lines_product FOREIGN KEY (product_id) REFERENCES products (product_id)',
    ],
  );

  spreadEvents(rng, { from: utcDate(2019, 1, 1), to: TO, count: CUSTOMERS }).forEach((at, i) => {
    const name = personName(rng);
    customers.add({
      customer_id: i + 1,
      first_name: name.first,
      last_name: name.last,
      email: emailAddress(name, i + 1),
      country: rng.pick(COUNTRIES),
      signup_date: formatDate(at),
    });
  });
  const prices: number[] = [];
  for (let i = 1; i <= PRODUCTS; i++) {
    prices.push(rng.int(190, 18_000));
    products.add({
      product_id: i,
      product_name: `Garden item ${String(i).padStart(4, '0')}`,
      category: CATEGORIES[i % CATEGORIES.length],
      list_price: money(prices[i - 1]),
    });
  }

  let lineId = 0;
  let shipmentId = 0;
  spreadEvents(rng, { from: FROM, to: TO, count: ORDERS, hours: [6, 22] }).forEach((at, i) => {
    const orderId = i + 1;
    const recipient = personName(rng);
    orders.add({
      order_id: orderId,
      customer_id: rng.int(1, CUSTOMERS),
      order_date: formatDateTime(at),
      recipient_name: `${recipient.first} ${recipient.last}`,
      ship_country: rng.pick(COUNTRIES),
      status: rng.pick(['delivered', 'delivered', 'delivered', 'shipped', 'cancelled']),
    });
    let shipment: number | null = null;
    if (rng.chance(0.25)) {
      shipmentId += 1;
      shipment = shipmentId;
      shipments.add({
        shipment_id: shipment,
        carrier: rng.pick(CARRIERS),
        shipped_date: formatDate(at + rng.int(1, 4) * DAY_MS),
        freight: money(rng.int(490, 2_900)),
      });
    }
    for (let n = rng.int(1, 5); n > 0; n--) {
      const productId = rng.int(1, PRODUCTS);
      lineId += 1;
      lines.add({
        order_line_id: lineId,
        order_id: orderId,
        product_id: productId,
        shipment_id: shipment,
        quantity: rng.int(1, 6),
        unit_price: money(prices[productId - 1]),
      });
    }
  });

  return {
    name: NAME,
    description: 'Garden shop: online orders',
    statements: databaseStatements([customers, products, orders, shipments, lines]),
    truth: {
      industry: 'retail',
      facts: [
        datedFact('orders', 'order_date', 'instant'),
        {
          table: 'order_lines',
          event_date_sql:
            'SELECT DATE(o.order_date) AS d FROM order_lines l JOIN orders o ON o.order_id = l.order_id',
          event_time_column: 'orders.order_date',
          revenue_sql: 'SELECT SUM(quantity * unit_price) AS revenue FROM order_lines',
        },
        datedFact('shipments', 'shipped_date', 'day'),
      ],
      never_aggregate: [
        ...columnsOf('customers', 'customer_id'),
        ...columnsOf('products', 'product_id'),
        ...columnsOf('orders', 'order_id', 'customer_id'),
        ...columnsOf('shipments', 'shipment_id'),
        ...columnsOf('order_lines', 'order_line_id', 'order_id', 'product_id', 'shipment_id'),
      ],
      roles: {
        orders: 'header',
        order_lines: 'line',
        shipments: 'event',
        customers: 'dimension',
        products: 'dimension',
      },
    },
  };
}

export const smallHeader: ZooSchema = {
  name: NAME,
  summary:
    'a header smaller than its dimensions (200 orders with a ship-to name, 2,000 customers, 1,000 products) referenced by its lines through a declared key, and a second reference from the lines, only implied by its name and set on about a quarter of them, to dated shipments',
  generate,
};
