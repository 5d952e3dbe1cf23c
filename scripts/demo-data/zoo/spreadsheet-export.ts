/**
 * `zoo_spreadsheet_export`: one wide table as a spreadsheet import leaves it. Column names with
 * spaces and a hyphen (`Order Date`, `Sub-Category`), order and ship dates as `M/D/YYYY` text, no
 * keys declared, customer, product and place kept inline on every line, money already per line
 * (`Sales`), a quantity and a discount beside it. Nothing names the dates as dates to the server:
 * only their values do.
 */
import { DAY_MS } from '../calendar';
import { spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, type GeneratedDatabase } from '../generated-database';
import { SeededRandom } from '../random';
import { decimal } from '../sql-literals';
import { GeneratedTable, databaseStatements } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';
import { utcDate } from '../calendar';

const NAME = 'zoo_spreadsheet_export';
const FROM = utcDate(2023, 1, 1);
const TO = utcDate(2024, 12, 31);
const TABLE = 'Orders Export';
const REGIONS = ['West', 'East', 'Central', 'South'];
const SEGMENTS = ['Consumer', 'Corporate', 'Home Office'];
const MODES = ['Standard Class', 'Second Class', 'First Class', 'Same Day'];
const CATEGORIES: [string, string[]][] = [
  ['Furniture', ['Chairs', 'Tables', 'Bookcases']],
  ['Office Supplies', ['Paper', 'Binders', 'Storage']],
  ['Technology', ['Phones', 'Accessories', 'Machines']],
];
const CUSTOMERS = [
  'Claire Gute',
  'Darrin Van Huff',
  'Sean O\u2019Donnell',
  'Brosina Hoffman',
  'Andrew Allen',
];

/** `M/D/YYYY`, as a US spreadsheet writes a day (no leading zeros). */
const usDay = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`;
};

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const lines = new GeneratedTable(TABLE, {
    'Row ID': 'INT NOT NULL',
    'Order ID': 'VARCHAR(20) NOT NULL',
    'Order Date': 'VARCHAR(10) NOT NULL',
    'Ship Date': 'VARCHAR(10) NOT NULL',
    'Ship Mode': 'VARCHAR(20) NOT NULL',
    'Customer Name': 'VARCHAR(40) NOT NULL',
    Segment: 'VARCHAR(20) NOT NULL',
    Region: 'VARCHAR(10) NOT NULL',
    Category: 'VARCHAR(20) NOT NULL',
    'Sub-Category': 'VARCHAR(20) NOT NULL',
    'Product Name': 'VARCHAR(60) NOT NULL',
    Sales: 'DECIMAL(12,4) NOT NULL',
    Quantity: 'INT NOT NULL',
    Discount: 'DECIMAL(4,2) NOT NULL',
    Profit: 'DECIMAL(12,4) NOT NULL',
  });
  let row = 1;
  const weight = (day: number) => weekendFactor(day, 0.6);
  spreadEvents(rng, { from: FROM, to: TO, count: 700, hours: [8, 18], weight }).forEach((at, i) => {
    const order = `US-${new Date(at).getUTCFullYear()}-${100_000 + i}`;
    const customer = rng.pick(CUSTOMERS);
    const segment = rng.pick(SEGMENTS);
    const region = rng.pick(REGIONS);
    const mode = rng.pick(MODES);
    const ship = at + rng.int(0, 6) * DAY_MS;
    for (let n = rng.int(1, 4); n > 0; n--) {
      const [category, subs] = rng.pick(CATEGORIES);
      const sub = rng.pick(subs);
      const quantity = rng.int(1, 9);
      const discount = rng.pick([0, 0, 0.1, 0.2, 0.45]);
      // Sales as the export stores it: list price × quantity less the discount, to 4 decimals.
      const listCents = rng.int(199, 99_999);
      const sales = Math.round(listCents * 100 * quantity * (1 - discount));
      const profit = Math.round(sales * (rng.int(-30, 40) / 100));
      lines.add({
        'Row ID': row++,
        'Order ID': order,
        'Order Date': usDay(at),
        'Ship Date': usDay(ship),
        'Ship Mode': mode,
        'Customer Name': customer,
        Segment: segment,
        Region: region,
        Category: category,
        'Sub-Category': sub,
        'Product Name': `${sub} ${rng.int(100, 999)}`,
        Sales: decimal(sales, 4),
        Quantity: quantity,
        Discount: decimal(Math.round(discount * 100), 2),
        Profit: decimal(profit, 4),
      });
    }
  });
  const quoted = (c: string) => `\`${c}\``;
  return {
    name: NAME,
    description: 'Office supplies and furniture retailer: order lines exported from a spreadsheet',
    statements: databaseStatements([lines]),
    truth: {
      industry: 'retail',
      facts: [
        {
          table: TABLE,
          event_date_sql: `SELECT STR_TO_DATE(${quoted('Order Date')}, '%m/%d/%Y') AS d FROM ${quoted(TABLE)}`,
          event_time_column: `${TABLE}.Order Date`,
          // Money already per line: revenue as stored, to the cent.
          revenue_sql: `SELECT SUM(Sales) AS revenue FROM ${quoted(TABLE)}`,
          breakdown_columns: [
            `${TABLE}.Category`,
            `${TABLE}.Region`,
            `${TABLE}.Segment`,
            `${TABLE}.Ship Mode`,
          ],
        },
      ],
      never_aggregate: columnsOf(TABLE, 'Row ID'),
      roles: { [TABLE]: 'event' },
    },
  };
}

export const spreadsheetExport: ZooSchema = {
  name: NAME,
  summary:
    'A spreadsheet export: one wide table, names with spaces, M/D/YYYY text dates, no keys, money per line, inline customer, product and place',
  generate,
};
