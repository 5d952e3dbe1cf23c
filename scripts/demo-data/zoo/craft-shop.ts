/**
 * `zoo_craft_shop`: the price is not on the row that sells. Order lines carry a quantity and a
 * product key (declared) and the price lives on the product (`list_price`, beside a `unit_cost`
 * that is no selling price); workshop tickets are sold one row per ticket with a `price` and no
 * quantity; payments keep their amount as text (`'$1,234.50'`), a few of them not amounts at all
 * (`'N/A'`, `'pending'`, `'#VALUE!'`), as a spreadsheet import leaves them.
 */
import { DAY_MS, formatDateTime, utcDate } from '../calendar';
import { spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { emailAddress, personName } from '../names';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements, foreignKey, referenceTable } from '../table-builder';
import { groupedAmount } from './text-amounts';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_craft_shop';
const FROM = utcDate(2024, 3, 1);
const TO = utcDate(2025, 9, 1);
const CATEGORIES = ['Yarn', 'Paper', 'Paint', 'Clay', 'Fabric'];
const UNPARSABLE = ['N/A', 'pending', '#VALUE!', 'see invoice'];

/** `$1,234.50` from cents, as the shop's spreadsheet wrote its amounts. */
const dollars = (cents: number) => `$${groupedAmount(cents)}`;

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const customers = new GeneratedTable(
    'customers',
    {
      customer_id: 'INT NOT NULL',
      first_name: 'VARCHAR(40) NOT NULL',
      last_name: 'VARCHAR(40) NOT NULL',
      email: 'VARCHAR(80) NOT NULL',
    },
    ['PRIMARY KEY (customer_id)'],
  );
  const categories = referenceTable(
    'categories',
    { category_id: 'INT NOT NULL', category_name: 'VARCHAR(30) NOT NULL' },
    CATEGORIES.map((category_name, i) => ({ category_id: i + 1, category_name })),
  );
  const products = new GeneratedTable(
    'products',
    {
      product_id: 'INT NOT NULL',
      product_name: 'VARCHAR(60) NOT NULL',
      category_id: 'INT NOT NULL',
      list_price: 'DECIMAL(10,2) NOT NULL',
      unit_cost: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (product_id)', foreignKey('products', 'category_id', 'categories')],
  );
  const orders = new GeneratedTable(
    'orders',
    {
      order_id: 'INT NOT NULL',
      customer_id: 'INT NOT NULL',
      ordered_at: 'DATETIME NOT NULL',
      status: "ENUM('paid','shipped','cancelled') NOT NULL",
    },
    ['PRIMARY KEY (order_id)', foreignKey('orders', 'customer_id', 'customers')],
  );
  const lines = new GeneratedTable(
    'order_lines',
    {
      order_id: 'INT NOT NULL',
      line_no: 'SMALLINT NOT NULL',
      product_id: 'INT NOT NULL',
      quantity: 'INT NOT NULL',
    },
    [
      'PRIMARY KEY (order_id, line_no)',
      foreignKey('order_lines', 'order_id', 'orders'),
      foreignKey('order_lines', 'product_id', 'products'),
    ],
  );
  const workshops = new GeneratedTable(
    'workshops',
    { workshop_id: 'INT NOT NULL', title: 'VARCHAR(60) NOT NULL', instructor_name: 'VARCHAR(60) NOT NULL' },
    ['PRIMARY KEY (workshop_id)'],
  );
  const tickets = new GeneratedTable(
    'workshop_tickets',
    {
      ticket_id: 'INT NOT NULL',
      workshop_id: 'INT NOT NULL',
      customer_id: 'INT NOT NULL',
      sold_at: 'DATETIME NOT NULL',
      seat_label: 'VARCHAR(8) NOT NULL',
      price: 'DECIMAL(8,2) NOT NULL',
    },
    [
      'PRIMARY KEY (ticket_id)',
      foreignKey('workshop_tickets', 'workshop_id', 'workshops'),
      foreignKey('workshop_tickets', 'customer_id', 'customers'),
    ],
  );
  const payments = new GeneratedTable(
    'payments',
    {
      payment_id: 'INT NOT NULL',
      order_id: 'INT NOT NULL',
      paid_at: 'DATETIME NOT NULL',
      method: 'VARCHAR(12) NOT NULL',
      amount: 'VARCHAR(20) NOT NULL',
    },
    ['PRIMARY KEY (payment_id)', foreignKey('payments', 'order_id', 'orders')],
  );

  for (let i = 1; i <= 120; i++) {
    const name = personName(rng);
    customers.add({
      customer_id: i,
      first_name: name.first,
      last_name: name.last,
      email: emailAddress(name, i),
    });
  }
  const prices = new Map<number, number>();
  for (let i = 1; i <= 40; i++) {
    const cents = rng.int(150, 12_000);
    prices.set(i, cents);
    products.add({
      product_id: i,
      product_name: `${CATEGORIES[i % CATEGORIES.length]} item ${i}`,
      category_id: (i % CATEGORIES.length) + 1,
      list_price: money(cents),
      unit_cost: money(Math.round(cents * 0.55)),
    });
  }
  const weight = (day: number) => weekendFactor(day, 1.6);
  let paymentId = 1;
  spreadEvents(rng, { from: FROM, to: TO, count: 320, hours: [9, 19], weight }).forEach((at, i) => {
    const orderId = 7001 + i;
    orders.add({
      order_id: orderId,
      customer_id: rng.int(1, 120),
      ordered_at: formatDateTime(at),
      status: rng.pick(['paid', 'shipped', 'shipped', 'cancelled']),
    });
    let cents = 0;
    for (let n = 1, count = rng.int(1, 4); n <= count; n++) {
      const product = rng.int(1, 40);
      const quantity = rng.int(1, 12);
      cents += quantity * prices.get(product)!;
      lines.add({ order_id: orderId, line_no: n, product_id: product, quantity });
    }
    // The first rows (the ones an explorer samples) read as amounts; later, a few do not.
    const amount = paymentId > 5 && rng.chance(0.02) ? rng.pick(UNPARSABLE) : dollars(cents);
    payments.add({
      payment_id: paymentId++,
      order_id: orderId,
      paid_at: formatDateTime(at + rng.int(1, 48) * 3_600_000),
      method: rng.pick(['card', 'card', 'paypal', 'cash']),
      amount,
    });
  });
  for (let i = 1; i <= 8; i++)
    workshops.add({
      workshop_id: i,
      title: `${CATEGORIES[i % CATEGORIES.length]} workshop ${i}`,
      instructor_name: personName(rng).last,
    });
  spreadEvents(rng, { from: FROM, to: TO - 30 * DAY_MS, count: 260, hours: [10, 21], weight }).forEach(
    (at, i) =>
      tickets.add({
        ticket_id: 1 + i,
        workshop_id: rng.int(1, 8),
        customer_id: rng.int(1, 120),
        sold_at: formatDateTime(at),
        seat_label: `${'ABCDEF'[rng.int(0, 5)]}${rng.int(1, 12)}`,
        price: money(rng.pick([2500, 3250, 4500, 4500])),
      }),
  );

  return {
    name: NAME,
    description: 'Craft shop retail: order lines, workshop tickets and payments',
    statements: databaseStatements([
      customers,
      categories,
      products,
      orders,
      lines,
      workshops,
      tickets,
      payments,
    ]),
    truth: {
      industry: 'retail',
      facts: [
        datedFact('orders', 'ordered_at', 'instant'),
        {
          table: 'order_lines',
          event_date_sql:
            'SELECT DATE(o.ordered_at) AS d FROM order_lines l JOIN orders o ON o.order_id = l.order_id',
          event_time_column: 'orders.ordered_at',
          // List-price revenue: each line's quantity at its product's price.
          revenue_sql:
            'SELECT SUM(l.quantity * p.list_price) AS revenue FROM order_lines l JOIN products p ON p.product_id = l.product_id',
        },
        {
          ...datedFact('workshop_tickets', 'sold_at', 'instant'),
          // One row per ticket: each ticket is one unit at its price.
          revenue_sql: 'SELECT SUM(price) AS revenue FROM workshop_tickets',
        },
        {
          ...datedFact('payments', 'paid_at', 'instant'),
          // Every amount the shop wrote is `$d,ddd.cc`; what is not is no amount.
          revenue_sql:
            "SELECT SUM(CAST(REPLACE(REPLACE(amount, '$', ''), ',', '') AS DECIMAL(14,2))) AS revenue FROM payments WHERE amount LIKE '$%'",
        },
      ],
      unparsed_money: [
        {
          table: 'payments',
          column: 'amount',
          count_sql: "SELECT COUNT(*) AS n FROM payments WHERE amount NOT LIKE '$%'",
        },
      ],
      never_aggregate: [
        ...columnsOf('orders', 'order_id', 'customer_id'),
        ...columnsOf('order_lines', 'order_id', 'line_no', 'product_id'),
        ...columnsOf('workshop_tickets', 'ticket_id', 'workshop_id', 'customer_id'),
        ...columnsOf('payments', 'payment_id', 'order_id'),
      ],
      roles: {
        orders: 'header',
        order_lines: 'line',
        workshop_tickets: 'event',
        payments: 'event',
        products: 'dimension',
        customers: 'dimension',
        workshops: 'dimension',
        categories: 'lookup',
      },
    },
  };
}

export const craftShop: ZooSchema = {
  name: NAME,
  summary:
    'the price elsewhere: lines with a quantity and a declared product key priced by the product, tickets sold one row per unit, payment amounts stored as text with a few that are no amount',
  generate,
};
