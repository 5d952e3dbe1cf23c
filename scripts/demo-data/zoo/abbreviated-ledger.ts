/**
 * `zoo_abbreviated_ledger`: abbreviated names and no declared keys, as old ERP exports have them:
 * `cust`, `prod`, `inv_hdr`, `inv_dtl`; `cust_no`, `inv_dt`, `unit_prc`, `disc_pct`, `ln_amt`,
 * `tot_amt`. The relations exist only through equal column names (`inv_dtl.inv_no`,
 * `inv_dtl.prod_cd`); discounts are percentages; the description names the business.
 */
import { DAY_MS, formatDate, formatDateTime, utcDate } from '../calendar';
import { spreadEvents, weekendFactor } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { companyName } from '../names';
import { SeededRandom } from '../random';
import { decimal, money, roundHalfUp } from '../sql-literals';
import { GeneratedTable, databaseStatements, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_abbreviated_ledger';
const FROM = utcDate(2023, 7, 1);
const TO = utcDate(2025, 7, 1);
const GROUPS: [string, string][] = [
  ['TMB', 'Timber'],
  ['INS', 'Insulation'],
  ['RFG', 'Roofing'],
  ['PLB', 'Plumbing'],
];

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const cust = new GeneratedTable(
    'cust',
    {
      cust_no: 'INT NOT NULL',
      cust_nm: 'VARCHAR(60) NOT NULL',
      city_nm: 'VARCHAR(40) NOT NULL',
      reg_dt: 'DATE NOT NULL',
    },
    ['PRIMARY KEY (cust_no)'],
  );
  const grp = referenceTable(
    'prod_grp',
    { grp_cd: 'CHAR(3) NOT NULL', grp_desc: 'VARCHAR(30) NOT NULL' },
    GROUPS.map(([grp_cd, grp_desc]) => ({ grp_cd, grp_desc })),
  );
  const prod = new GeneratedTable(
    'prod',
    {
      prod_cd: 'CHAR(8) NOT NULL',
      prod_desc: 'VARCHAR(60) NOT NULL',
      grp_cd: 'CHAR(3) NOT NULL',
      list_prc: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (prod_cd)'],
  );
  const hdr = new GeneratedTable(
    'inv_hdr',
    {
      inv_no: 'INT NOT NULL',
      cust_no: 'INT NOT NULL',
      inv_dt: 'DATETIME NOT NULL',
      due_dt: 'DATE NOT NULL',
      tot_amt: 'DECIMAL(12,2) NOT NULL',
      vat_amt: 'DECIMAL(12,2) NOT NULL',
    },
    ['PRIMARY KEY (inv_no)'],
  );
  const dtl = new GeneratedTable(
    'inv_dtl',
    {
      inv_no: 'INT NOT NULL',
      ln_no: 'SMALLINT NOT NULL',
      prod_cd: 'CHAR(8) NOT NULL',
      qty: 'INT NOT NULL',
      unit_prc: 'DECIMAL(10,2) NOT NULL',
      disc_pct: 'DECIMAL(5,2) NOT NULL',
      ln_amt: 'DECIMAL(12,2) NOT NULL',
    },
    ['PRIMARY KEY (inv_no, ln_no)'],
  );

  const cities = ['Leeds', 'York', 'Hull', 'Bradford', 'Wakefield'];
  for (let i = 1; i <= 80; i++)
    cust.add({
      cust_no: 1000 + i,
      cust_nm: `${companyName(rng)} ${i}`,
      city_nm: rng.pick(cities),
      reg_dt: formatDate(utcDate(2019, 1, 1) + rng.int(0, 1500) * DAY_MS),
    });
  const prices = new Map<string, number>();
  for (let i = 1; i <= 50; i++) {
    const code = `P${String(i * 7).padStart(7, '0')}`;
    prices.set(code, rng.int(300, 60_000));
    prod.add({
      prod_cd: code,
      prod_desc: `Item ${i}`,
      grp_cd: GROUPS[i % GROUPS.length][0],
      list_prc: money(prices.get(code)!),
    });
  }
  const codes = [...prices.keys()];
  spreadEvents(rng, {
    from: FROM,
    to: TO,
    count: 900,
    hours: [7, 17],
    weight: (day) => weekendFactor(day, 0.1),
  }).forEach((at, i) => {
    const invNo = 500_000 + i;
    let totCents = 0;
    const lines = rng.int(1, 5);
    for (let n = 1; n <= lines; n++) {
      const code = rng.pick(codes);
      const qty = rng.int(1, 60);
      const cents = prices.get(code)!;
      const discBasisPoints = rng.chance(0.5) ? rng.pick([250, 500, 750, 1250]) : 0;
      const lineCents = roundHalfUp((qty * cents * (10_000 - discBasisPoints)) / 10_000);
      totCents += lineCents;
      dtl.add({
        inv_no: invNo,
        ln_no: n,
        prod_cd: code,
        qty,
        unit_prc: money(cents),
        disc_pct: decimal(discBasisPoints, 2),
        ln_amt: money(lineCents),
      });
    }
    hdr.add({
      inv_no: invNo,
      cust_no: 1000 + rng.int(1, 80),
      inv_dt: formatDateTime(at),
      due_dt: formatDate(at + 30 * DAY_MS),
      tot_amt: money(totCents),
      vat_amt: money(Math.round(totCents * 0.2)),
    });
  });

  return {
    name: NAME,
    description: 'Invoices of a building supplies wholesaler',
    statements: databaseStatements([cust, grp, prod, hdr, dtl]),
    truth: {
      industry: 'wholesale',
      facts: [
        {
          ...datedFact('inv_hdr', 'inv_dt', 'instant'),
          revenue_sql: 'SELECT SUM(tot_amt) AS revenue FROM inv_hdr',
        },
        {
          table: 'inv_dtl',
          event_date_sql: 'SELECT DATE(h.inv_dt) AS d FROM inv_dtl l JOIN inv_hdr h ON h.inv_no = l.inv_no',
          event_time_column: 'inv_hdr.inv_dt',
          revenue_sql: 'SELECT SUM(ln_amt) AS revenue FROM inv_dtl',
          // The source stores each line's amount (rounded per line as it invoices): revenue as stored.
          revenue_column: 'total_line_amount',
        },
      ],
      never_aggregate: [
        ...columnsOf('cust', 'cust_no'),
        ...columnsOf('inv_hdr', 'inv_no', 'cust_no'),
        ...columnsOf('inv_dtl', 'inv_no', 'ln_no', 'prod_cd'),
      ],
      roles: {
        inv_hdr: 'header',
        inv_dtl: 'line',
        cust: 'dimension',
        prod: 'dimension',
        prod_grp: 'lookup',
      },
    },
  };
}

export const abbreviatedLedger: ZooSchema = {
  name: NAME,
  summary:
    'abbreviated names without declared keys (cust_no, inv_dt, unit_prc, disc_pct, ln_amt), header and lines related by equal column names only, percentage discounts, a description naming the business',
  generate,
};
