/**
 * `zoo_prefixed_sales`: names in another style. Every column carries its table's one-letter prefix
 * and joined words (`l_unitprice`, `o_orderdate`, `l_unitcost`, `o_netamount`); the sales line has a
 * date of its own (`l_allocateddate`) set on a handful of rows while its order's date is always set;
 * a line unit cost next to the unit price; discounts that give sub-cent line amounts before
 * rounding; and few events (400 orders over five years), so daily bars say nothing. No description:
 * the names alone must tell a sales business.
 */
import { DAY_MS, formatDate, formatDateTime, utcDate } from '../calendar';
import { spreadEvents } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { companyName } from '../names';
import { SeededRandom } from '../random';
import { decimal, money, roundHalfUp } from '../sql-literals';
import { GeneratedTable, databaseStatements } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_prefixed_sales';
const FROM = utcDate(2020, 1, 1);
const TO = utcDate(2025, 1, 1);
const GROUPS = ['Fasteners', 'Hand tools', 'Power tools', 'Paint', 'Safety'];
const COUNTRIES = ['DE', 'FR', 'NL', 'PL', 'IT', 'ES'];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const customer = new GeneratedTable(
    'customer',
    {
      c_id: 'INT NOT NULL',
      c_companyname: 'VARCHAR(60) NOT NULL',
      c_countrycode: 'CHAR(2) NOT NULL',
      c_createdate: 'DATE NOT NULL',
    },
    ['PRIMARY KEY (c_id)'],
  );
  const product = new GeneratedTable(
    'product',
    {
      p_id: 'INT NOT NULL',
      p_productname: 'VARCHAR(60) NOT NULL',
      p_productgroup: 'VARCHAR(30) NOT NULL',
      p_listprice: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (p_id)'],
  );
  const salesorder = new GeneratedTable(
    'salesorder',
    {
      o_id: 'INT NOT NULL',
      o_customerid: 'INT NOT NULL',
      o_orderdate: 'DATETIME NOT NULL',
      o_shipdate: 'DATE NULL',
      o_status: 'VARCHAR(12) NOT NULL',
      o_netamount: 'DECIMAL(12,2) NOT NULL',
      o_taxamount: 'DECIMAL(12,2) NOT NULL',
    },
    [
      'PRIMARY KEY (o_id)',
      'CONSTRAINT fk_salesorder_customer FOREIGN KEY (o_customerid) REFERENCES customer (c_id)',
    ],
  );
  const salesline = new GeneratedTable(
    'salesline',
    {
      l_id: 'INT NOT NULL',
      l_orderid: 'INT NOT NULL',
      l_lineno: 'SMALLINT NOT NULL',
      l_productid: 'INT NOT NULL',
      l_qty: 'INT NOT NULL',
      l_unitprice: 'DECIMAL(10,2) NOT NULL',
      l_unitcost: 'DECIMAL(10,2) NOT NULL',
      l_discount: 'DECIMAL(4,3) NOT NULL',
      l_taxamt: 'DECIMAL(10,2) NOT NULL',
      l_allocateddate: 'DATE NULL',
    },
    [
      'PRIMARY KEY (l_id)',
      'CONSTRAINT fk_salesline_order FOREIGN KEY (l_orderid) REFERENCES salesorder (o_id)',
      'CONSTRAINT fk_salesline_product FOREIGN KEY (l_productid) REFERENCES product (p_id)',
    ],
  );

  const customers = 60;
  spreadEvents(rng, { from: utcDate(2018, 1, 1), to: FROM, count: customers }).forEach((at, i) =>
    customer.add({
      c_id: i + 1,
      c_companyname: `${companyName(rng)} ${i + 1}`,
      c_countrycode: rng.pick(COUNTRIES),
      c_createdate: formatDate(at),
    }),
  );
  const prices: number[] = [];
  for (let i = 1; i <= 40; i++) {
    prices.push(rng.int(150, 25_000));
    product.add({
      p_id: i,
      p_productname: `Article ${String(i).padStart(3, '0')}`,
      p_productgroup: GROUPS[i % GROUPS.length],
      p_listprice: money(prices[i - 1]),
    });
  }

  let lineId = 0;
  spreadEvents(rng, { from: FROM, to: TO, count: 400, hours: [7, 19] }).forEach((at, i) => {
    const orderId = i + 1;
    let netCents = 0;
    const lines = rng.int(1, 4);
    for (let n = 1; n <= lines; n++) {
      const productId = rng.int(1, 40);
      const qty = rng.int(1, 24);
      const priceCents = prices[productId - 1];
      const discountMillis = rng.chance(0.4) ? rng.pick([25, 50, 75, 125]) : 0;
      // The line's amount in cents, rounded half up as MySQL rounds exact decimals.
      const lineCents = roundHalfUp((qty * priceCents * (1000 - discountMillis)) / 1000);
      netCents += lineCents;
      lineId += 1;
      salesline.add({
        l_id: lineId,
        l_orderid: orderId,
        l_lineno: n,
        l_productid: productId,
        l_qty: qty,
        l_unitprice: money(priceCents),
        l_unitcost: money(Math.round(priceCents * 0.62)),
        l_discount: decimal(discountMillis, 3),
        l_taxamt: money(Math.round(lineCents * 0.19)),
        // Allocation was recorded for a few weeks only: a handful of lines carry it.
        l_allocateddate: rng.chance(0.03) ? formatDate(at + rng.int(0, 3) * DAY_MS) : null,
      });
    }
    const shipped = rng.chance(0.9);
    salesorder.add({
      o_id: orderId,
      o_customerid: rng.int(1, customers),
      o_orderdate: formatDateTime(at),
      o_shipdate: shipped ? formatDate(at + rng.int(1, 6) * DAY_MS) : null,
      o_status: shipped ? 'shipped' : rng.pick(['open', 'cancelled']),
      o_netamount: money(netCents),
      o_taxamount: money(Math.round(netCents * 0.19)),
    });
  });

  return {
    name: NAME,
    description: '',
    statements: databaseStatements([customer, product, salesorder, salesline]),
    truth: {
      industry: 'retail',
      facts: [
        {
          ...datedFact('salesorder', 'o_orderdate', 'instant'),
          revenue_sql: 'SELECT SUM(o_netamount) AS revenue FROM salesorder',
        },
        {
          table: 'salesline',
          event_date_sql:
            'SELECT DATE(o.o_orderdate) AS d FROM salesline l JOIN salesorder o ON o.o_id = l.l_orderid',
          event_time_column: 'salesorder.o_orderdate',
          revenue_sql: 'SELECT SUM(l_qty * l_unitprice * (1 - l_discount)) AS revenue FROM salesline',
        },
      ],
      never_aggregate: [
        ...columnsOf('customer', 'c_id'),
        ...columnsOf('product', 'p_id'),
        ...columnsOf('salesorder', 'o_id', 'o_customerid'),
        ...columnsOf('salesline', 'l_id', 'l_orderid', 'l_lineno', 'l_productid'),
      ],
      roles: {
        salesorder: 'header',
        salesline: 'line',
        customer: 'dimension',
        product: 'dimension',
      },
    },
  };
}

export const prefixedSales: ZooSchema = {
  name: NAME,
  summary:
    'one-letter column prefixes and joined words (l_unitprice, o_orderdate, o_netamount), a line date set on 3% of rows next to its order date, a unit cost beside the unit price, sub-cent discounted amounts, 400 orders over five years, no description',
  generate,
};
