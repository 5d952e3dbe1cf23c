/**
 * `zoo_star_calendar`: a small star schema shaped by an earlier warehouse. `fact_sales` carries no
 * date, only `date_key` (an integer `yyyymmdd`) into `dim_date`, a calendar of one row per day
 * (the date and its parts: year, quarter, month, month name, weekday, weekend flag) spanning more
 * days than there are sales; `refunds` has no calendar to join and stores its day as an integer
 * `yyyymmdd` (`refund_day`). A careful analyst dates sales through the calendar's date and refunds by
 * reading their integer as a date, rather than reporting both as a snapshot of today.
 * `agg_sales_month` is the earlier warehouse's roll-up of the sales by year, month and store: a
 * summary of the fact, with no metrics of its own.
 */
import { DAY_MS, formatDate, monthAndDay, utcDate, weekday } from '../calendar';
import { spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { money, roundHalfUp } from '../sql-literals';
import { GeneratedTable, databaseStatements, foreignKey, referenceTable } from '../table-builder';
import { addSale, type SalesSums } from './sales-sums';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_star_calendar';
const CALENDAR_FROM = utcDate(2023, 1, 1);
const CALENDAR_TO = utcDate(2024, 12, 31);
const SALES_FROM = utcDate(2023, 2, 6);
const SALES_TO = utcDate(2024, 11, 20);
const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
const DAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');
const CATEGORIES = ['Tea', 'Coffee', 'Cocoa', 'Infusions'];
const CITIES = ['Porto', 'Lisbon', 'Braga', 'Coimbra', 'Faro', 'Aveiro'];

/** `20240131` for 31 January 2024. */
const yyyymmdd = (ms: number) => Number(formatDate(ms).replace(/-/g, ''));

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const dimDate = new GeneratedTable(
    'dim_date',
    {
      date_key: 'INT NOT NULL',
      full_date: 'DATE NOT NULL',
      year: 'SMALLINT NOT NULL',
      quarter: 'TINYINT NOT NULL',
      month: 'TINYINT NOT NULL',
      month_name: 'VARCHAR(9) NOT NULL',
      day_of_month: 'TINYINT NOT NULL',
      day_of_week: 'TINYINT NOT NULL',
      day_name: 'VARCHAR(9) NOT NULL',
      is_weekend: 'TINYINT(1) NOT NULL',
    },
    ['PRIMARY KEY (date_key)'],
  );
  const dimStore = referenceTable(
    'store',
    { store_key: 'INT NOT NULL', store_name: 'VARCHAR(40) NOT NULL', city: 'VARCHAR(40) NOT NULL' },
    CITIES.map((city, i) => ({ store_key: i + 1, store_name: `Leaf & Bean ${city}`, city })),
  );
  const dimProduct = new GeneratedTable(
    'product',
    {
      product_key: 'INT NOT NULL',
      product_name: 'VARCHAR(60) NOT NULL',
      category: 'VARCHAR(20) NOT NULL',
    },
    ['PRIMARY KEY (product_key)'],
  );
  const sales = new GeneratedTable(
    'fact_sales',
    {
      sales_key: 'INT NOT NULL',
      date_key: 'INT NOT NULL',
      store_key: 'INT NOT NULL',
      product_key: 'INT NOT NULL',
      quantity: 'INT NOT NULL',
      sales_amount: 'DECIMAL(12,2) NOT NULL',
    },
    [
      'PRIMARY KEY (sales_key)',
      foreignKey('fact_sales', 'date_key', 'dim_date'),
      foreignKey('fact_sales', 'store_key', 'store'),
      foreignKey('fact_sales', 'product_key', 'product'),
    ],
  );
  // The earlier warehouse's monthly roll-up of the sales by store: a summary, not another fact.
  const monthly = new GeneratedTable(
    'agg_sales_month',
    {
      year: 'SMALLINT NOT NULL',
      month: 'TINYINT NOT NULL',
      store_key: 'INT NOT NULL',
      sales_count: 'INT NOT NULL',
      total_quantity: 'INT NOT NULL',
      total_sales_amount: 'DECIMAL(14,2) NOT NULL',
    },
    ['PRIMARY KEY (year, month, store_key)', foreignKey('agg_sales_month', 'store_key', 'store')],
  );
  const refunds = new GeneratedTable(
    'refunds',
    {
      refund_id: 'INT NOT NULL',
      refund_day: 'INT NOT NULL',
      store_key: 'INT NOT NULL',
      refund_amount: 'DECIMAL(10,2) NOT NULL',
      reason: 'VARCHAR(40) NOT NULL',
    },
    ['PRIMARY KEY (refund_id)', foreignKey('refunds', 'store_key', 'store')],
  );

  for (let day = CALENDAR_FROM; day <= CALENDAR_TO; day += DAY_MS) {
    const { month, day: dom } = monthAndDay(day);
    const dow = weekday(day);
    dimDate.add({
      date_key: yyyymmdd(day),
      full_date: formatDate(day),
      year: new Date(day).getUTCFullYear(),
      quarter: Math.ceil(month / 3),
      month,
      month_name: MONTHS[month - 1],
      day_of_month: dom,
      day_of_week: dow + 1,
      day_name: DAYS[dow],
      is_weekend: dow === 0 || dow === 6 ? 1 : 0,
    });
  }
  const prices = new Map<number, number>();
  for (let i = 1; i <= 30; i++) {
    prices.set(i, rng.int(250, 4_500));
    dimProduct.add({
      product_key: i,
      product_name: `Blend ${i}`,
      category: CATEGORIES[i % CATEGORIES.length],
    });
  }
  const rollup: SalesSums = new Map();
  spreadEvents(rng, {
    from: SALES_FROM,
    to: SALES_TO,
    count: 1200,
    hours: [9, 19],
    weight: (day) => weekendFactor(day, 0.3),
  }).forEach((at, i) => {
    const product = rng.int(1, 30);
    const quantity = rng.int(1, 12);
    const store = rng.int(1, 6);
    const cents = roundHalfUp(quantity * prices.get(product)!);
    sales.add({
      sales_key: i + 1,
      date_key: yyyymmdd(at),
      store_key: store,
      product_key: product,
      quantity,
      sales_amount: money(cents),
    });
    addSale(rollup, `${new Date(at).getUTCFullYear()}-${monthAndDay(at).month}-${store}`, quantity, cents);
  });
  for (const [key, sum] of rollup) {
    const [year, month, store] = key.split('-').map(Number);
    monthly.add({
      year,
      month,
      store_key: store,
      sales_count: sum.count,
      total_quantity: sum.quantity,
      total_sales_amount: money(sum.cents),
    });
  }
  spreadEvents(rng, {
    from: utcDate(2023, 3, 1),
    to: utcDate(2024, 12, 15),
    count: 240,
    hours: [10, 18],
    weight: (day) => weekendFactor(day, 0.5),
  }).forEach((at, i) =>
    refunds.add({
      refund_id: 9001 + i,
      refund_day: yyyymmdd(at),
      store_key: rng.int(1, 6),
      refund_amount: money(rng.int(250, 9_000)),
      reason: rng.pick(['damaged', 'wrong item', 'late delivery', 'changed mind']),
    }),
  );

  const asDate = (column: string) => `STR_TO_DATE(CAST(${column} AS CHAR), '%Y%m%d')`;
  return {
    name: NAME,
    description: 'Store sales warehouse: a sales fact keyed by a date dimension, and refunds by day number',
    statements: databaseStatements([dimDate, dimStore, dimProduct, sales, monthly, refunds]),
    truth: {
      industry: 'retail',
      facts: [
        {
          table: 'fact_sales',
          event_date_sql:
            'SELECT d.full_date AS d FROM fact_sales s JOIN dim_date d ON d.date_key = s.date_key',
          event_time_column: 'dim_date.full_date',
          revenue_sql: 'SELECT SUM(sales_amount) AS revenue FROM fact_sales',
        },
        {
          table: 'refunds',
          event_date_sql: `SELECT ${asDate('refund_day')} AS d FROM refunds`,
          event_time_column: 'refunds.refund_day',
          revenue_sql: 'SELECT SUM(refund_amount) AS revenue FROM refunds',
        },
      ],
      never_aggregate: [
        ...columnsOf('fact_sales', 'sales_key', 'date_key', 'store_key', 'product_key'),
        ...columnsOf('refunds', 'refund_id', 'refund_day', 'store_key'),
        ...columnsOf('dim_date', 'date_key', 'year', 'quarter', 'month', 'day_of_month', 'day_of_week'),
      ],
      roles: {
        fact_sales: 'event',
        refunds: 'event',
        dim_date: 'dimension',
        store: 'dimension',
        product: 'dimension',
        agg_sales_month: 'summary',
      },
      summaries: ['agg_sales_month'],
    },
  };
}

export const starCalendar: ZooSchema = {
  name: NAME,
  summary:
    'a star schema: a fact dated only by an integer yyyymmdd key into a calendar table (one row per day with its parts), its monthly roll-up by store, and a fact with an integer yyyymmdd day and no calendar',
  generate,
};
