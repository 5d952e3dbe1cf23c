/**
 * `zoo_flat_sales`: a chain of stores whose sales are one flat table. Each sale has its own time, a
 * declared product key, a store and a quantity, and no price: the price lives on the product
 * (`list_price`, beside a `unit_cost` that is no selling price). Stock moves between stores carry a
 * product and a quantity too, but are no sales and are never priced. The ledger keeps payments and
 * refunds as text: payments as `'$1,234.50'`, refunds as accounting negatives (`'(12.50)'`, a few
 * with a trailing minus, `'12.50-'`), and a few entries that are no amount at all (`'N/A'`, `'void'`).
 */
import { DAY_MS, formatDateTime, utcDate } from '../calendar';
import { spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements, foreignKey, referenceTable } from '../table-builder';
import { groupedAmount } from './text-amounts';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_flat_sales';
const FROM = utcDate(2024, 1, 1);
const TO = utcDate(2025, 7, 1);
const CITIES = ['Leeds', 'York', 'Hull', 'Bradford', 'Wakefield', 'Harrogate'];
const GOODS = ['Kettle', 'Toaster', 'Lamp', 'Blender', 'Fan', 'Heater', 'Radio', 'Clock'];
const UNPARSABLE = ['N/A', 'void', 'pending', '#REF!'];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const stores = referenceTable(
    'stores',
    { store_id: 'INT NOT NULL', store_name: 'VARCHAR(40) NOT NULL', city: 'VARCHAR(30) NOT NULL' },
    CITIES.map((city, i) => ({ store_id: i + 1, store_name: `${city} store`, city })),
  );
  const products = new GeneratedTable(
    'products',
    {
      product_id: 'INT NOT NULL',
      product_name: 'VARCHAR(60) NOT NULL',
      unit_cost: 'DECIMAL(10,2) NOT NULL',
      list_price: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (product_id)'],
  );
  const sales = new GeneratedTable(
    'sales',
    {
      sale_id: 'INT NOT NULL',
      sold_at: 'DATETIME NOT NULL',
      product_id: 'INT NOT NULL',
      store_id: 'INT NOT NULL',
      quantity: 'INT NOT NULL',
    },
    [
      'PRIMARY KEY (sale_id)',
      foreignKey('sales', 'product_id', 'products'),
      foreignKey('sales', 'store_id', 'stores'),
    ],
  );
  const moves = new GeneratedTable(
    'stock_moves',
    {
      move_id: 'INT NOT NULL',
      moved_at: 'DATETIME NOT NULL',
      product_id: 'INT NOT NULL',
      from_store_id: 'INT NOT NULL',
      to_store_id: 'INT NOT NULL',
      quantity: 'INT NOT NULL',
    },
    [
      'PRIMARY KEY (move_id)',
      foreignKey('stock_moves', 'product_id', 'products'),
      foreignKey('stock_moves', 'from_store_id', 'stores', 'store_id'),
      foreignKey('stock_moves', 'to_store_id', 'stores', 'store_id'),
    ],
  );
  const ledger = new GeneratedTable(
    'ledger',
    {
      entry_id: 'INT NOT NULL',
      posted_at: 'DATETIME NOT NULL',
      store_id: 'INT NOT NULL',
      kind: "ENUM('payment','refund') NOT NULL",
      amount: 'VARCHAR(20) NOT NULL',
    },
    ['PRIMARY KEY (entry_id)', foreignKey('ledger', 'store_id', 'stores')],
  );

  for (let i = 1; i <= 30; i++) {
    const cents = rng.int(899, 24_999);
    products.add({
      product_id: i,
      product_name: `${GOODS[i % GOODS.length]} model ${i}`,
      unit_cost: money(Math.round(cents * 0.6)),
      list_price: money(cents),
    });
  }
  const weight = (day: number) => weekendFactor(day, 1.8);
  spreadEvents(rng, { from: FROM, to: TO, count: 900, hours: [9, 20], weight }).forEach((at, i) =>
    sales.add({
      sale_id: 50_001 + i,
      sold_at: formatDateTime(at),
      product_id: rng.int(1, 30),
      store_id: rng.int(1, CITIES.length),
      quantity: rng.int(1, 6),
    }),
  );
  spreadEvents(rng, { from: FROM, to: TO, count: 150, hours: [6, 9] }).forEach((at, i) => {
    const from = rng.int(1, CITIES.length);
    moves.add({
      move_id: 1 + i,
      moved_at: formatDateTime(at),
      product_id: rng.int(1, 30),
      from_store_id: from,
      to_store_id: (from % CITIES.length) + 1,
      quantity: rng.int(5, 40),
    });
  });
  // Each store banks its takings; refunds go out as accounting negatives. The first rows (the ones
  // an explorer samples) read as amounts; later, a few do not.
  spreadEvents(rng, { from: FROM, to: TO - 2 * DAY_MS, count: 700, hours: [17, 22] }).forEach((at, i) => {
    const refund = i > 0 && rng.chance(0.15);
    const cents = refund ? rng.int(899, 30_000) : rng.int(5_000, 250_000);
    const amount =
      i >= 5 && rng.chance(0.02)
        ? rng.pick(UNPARSABLE)
        : !refund
          ? `$${groupedAmount(cents)}`
          : rng.chance(0.8)
            ? `(${groupedAmount(cents)})`
            : `${groupedAmount(cents)}-`;
    ledger.add({
      entry_id: 1 + i,
      posted_at: formatDateTime(at),
      store_id: rng.int(1, CITIES.length),
      kind: refund ? 'refund' : 'payment',
      amount,
    });
  });

  // An amount on the source: `$1,234.50`, `(12.50)` and `12.50-` (negative); anything else is none.
  const digits =
    "CAST(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(amount, '$', ''), ',', ''), '(', ''), ')', ''), '-', '') AS DECIMAL(14,2))";
  const isPayment = "amount LIKE '$%'";
  const isRefund = "(amount LIKE '(%)' OR amount LIKE '%-')";
  return {
    name: NAME,
    description:
      'Retail chain of stores: flat sales priced by the product list, stock moves, a ledger of payments and refunds',
    statements: databaseStatements([stores, products, sales, moves, ledger]),
    truth: {
      industry: 'retail',
      facts: [
        {
          ...datedFact('sales', 'sold_at', 'instant'),
          // List-price revenue: each sale's quantity at its product's price, rounded per sale.
          revenue_sql:
            'SELECT SUM(s.quantity * p.list_price) AS revenue FROM sales s JOIN products p ON p.product_id = s.product_id',
          revenue_column: 'revenue',
        },
        {
          ...datedFact('stock_moves', 'moved_at', 'instant'),
          unpriced: true,
        },
        {
          ...datedFact('ledger', 'posted_at', 'instant'),
          // Payments in, refunds out: the sum of every entry that is an amount.
          revenue_sql: `SELECT SUM(CASE WHEN ${isRefund} THEN -${digits} ELSE ${digits} END) AS revenue FROM ledger WHERE ${isPayment} OR ${isRefund}`,
        },
      ],
      unparsed_money: [
        {
          table: 'ledger',
          column: 'amount',
          count_sql: `SELECT COUNT(*) AS n FROM ledger WHERE NOT (${isPayment} OR ${isRefund})`,
        },
      ],
      never_aggregate: [
        ...columnsOf('sales', 'sale_id', 'product_id', 'store_id'),
        ...columnsOf('stock_moves', 'move_id', 'product_id', 'from_store_id', 'to_store_id'),
        ...columnsOf('ledger', 'entry_id', 'store_id'),
      ],
      roles: {
        sales: 'event',
        stock_moves: 'event',
        ledger: 'event',
        products: 'dimension',
        stores: 'dimension',
      },
    },
  };
}

export const flatSales: ZooSchema = {
  name: NAME,
  summary:
    'a flat sales table priced by its product: sales with a quantity and a declared product key and no price, stock moves that are never priced, a ledger of payments and refunds as text with accounting negatives and a few that are no amount',
  generate,
};
