/**
 * `zoo_toy_wholesale`: a toy and board-game wholesaler in the style of the classic camelCase sample
 * (lower-case table names, camelCase columns). No declared foreign keys: links exist only through
 * names (`customerNumber`, `productCode`, `orderNumber`, `productLine`, `officeCode`) or not at all
 * (`salesRepEmployeeNumber`, `reportsTo`). Composite primary keys on orderdetails and payments,
 * VARCHAR keys, DATE-only event columns, money as DECIMAL(10,2).
 */
import { DAY_MS, formatDate, utcDate } from '../calendar';
import { growth, spreadEvents, yearlyCycle } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { companyName, personName } from '../names';
import { SeededRandom } from '../random';
import { money } from '../sql-literals';
import { GeneratedTable, databaseStatements, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const FROM = utcDate(2023, 1, 1);
const TO = utcDate(2025, 7, 1);
const NAME = 'zoo_toy_wholesale';
const ORDERS = 850;

const PRODUCT_LINES: [string, string, string[]][] = [
  [
    'Board Games',
    'Strategy, family and party games',
    'Castle Siege|Market Day|Star Traders|Word Race|Pirate Cove|Garden Quest'.split('|'),
  ],
  [
    'Puzzles',
    'Jigsaw and 3D puzzles',
    'Harbour 1000|Alpine Lake 500|Night Sky 2000|World Map 1000|Lighthouse 3D'.split('|'),
  ],
  [
    'Building Sets',
    'Construction bricks and kits',
    'Fire Station|Space Base|Farm House|Race Track|Castle Set'.split('|'),
  ],
  ['Plush', 'Soft toys', 'Bear Cub|Sleepy Fox|Giant Panda|Little Owl|Dino Friend'.split('|')],
  [
    'Outdoor Toys',
    'Garden and playground toys',
    'Kite Delta|Frisbee Pro|Water Blaster|Jump Rope|Sand Set'.split('|'),
  ],
  [
    'Model Kits',
    'Scale models to build and paint',
    'Steam Engine 1:87|Sail Ship 1:200|Biplane 1:48|Vintage Car 1:24'.split('|'),
  ],
];
const VENDORS = [
  'Tinker Toys Ltd',
  'Meeple Works',
  'Brickhouse Co',
  'Cuddle Craft',
  'Playfield GmbH',
  'Scale Masters',
];
const OFFICES = [
  { code: '1', city: 'Boston', country: 'USA', postal: '02108', phone: '+1 617 555 0110', territory: 'NA' },
  { code: '2', city: 'Chicago', country: 'USA', postal: '60601', phone: '+1 312 555 0120', territory: 'NA' },
  {
    code: '3',
    city: 'Lyon',
    country: 'France',
    postal: '69002',
    phone: '+33 4 55 55 01 30',
    territory: 'EMEA',
  },
  {
    code: '4',
    city: 'Leeds',
    country: 'UK',
    postal: 'LS1 4AP',
    phone: '+44 113 555 0140',
    territory: 'EMEA',
  },
  {
    code: '5',
    city: 'Osaka',
    country: 'Japan',
    postal: '530-0001',
    phone: '+81 6 5555 0150',
    territory: 'APAC',
  },
];
const CUSTOMER_CITIES: Record<string, string[]> = {
  USA: ['Boston', 'Providence', 'Hartford', 'Chicago', 'Milwaukee', 'Detroit', 'Denver'],
  France: ['Lyon', 'Paris', 'Nantes', 'Lille'],
  UK: ['Leeds', 'York', 'Manchester', 'Bristol'],
  Japan: ['Osaka', 'Kyoto', 'Kobe'],
};

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);

  const productlines = referenceTable(
    'productlines',
    { productLine: 'VARCHAR(50) NOT NULL', textDescription: 'VARCHAR(200) NULL' },
    PRODUCT_LINES.map(([line, description]) => ({ productLine: line, textDescription: description })),
  );
  const products = new GeneratedTable(
    'products',
    {
      productCode: 'VARCHAR(15) NOT NULL',
      productName: 'VARCHAR(70) NOT NULL',
      productLine: 'VARCHAR(50) NOT NULL',
      productAgeGroup: 'VARCHAR(10) NOT NULL',
      productVendor: 'VARCHAR(50) NOT NULL',
      quantityInStock: 'SMALLINT NOT NULL',
      buyPrice: 'DECIMAL(10,2) NOT NULL',
      MSRP: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (productCode)', 'KEY productLine (productLine)'],
  );
  const offices = referenceTable(
    'offices',
    {
      officeCode: 'VARCHAR(10) NOT NULL',
      city: 'VARCHAR(50) NOT NULL',
      phone: 'VARCHAR(50) NOT NULL',
      country: 'VARCHAR(50) NOT NULL',
      postalCode: 'VARCHAR(15) NOT NULL',
      territory: 'VARCHAR(10) NOT NULL',
    },
    OFFICES.map((o) => ({
      officeCode: o.code,
      city: o.city,
      phone: o.phone,
      country: o.country,
      postalCode: o.postal,
      territory: o.territory,
    })),
  );
  const employees = new GeneratedTable(
    'employees',
    {
      employeeNumber: 'INT NOT NULL',
      lastName: 'VARCHAR(50) NOT NULL',
      firstName: 'VARCHAR(50) NOT NULL',
      extension: 'VARCHAR(10) NOT NULL',
      email: 'VARCHAR(100) NOT NULL',
      officeCode: 'VARCHAR(10) NOT NULL',
      reportsTo: 'INT NULL',
      jobTitle: 'VARCHAR(50) NOT NULL',
    },
    ['PRIMARY KEY (employeeNumber)', 'KEY officeCode (officeCode)', 'KEY reportsTo (reportsTo)'],
  );
  const customers = new GeneratedTable(
    'customers',
    {
      customerNumber: 'INT NOT NULL',
      customerName: 'VARCHAR(50) NOT NULL',
      contactLastName: 'VARCHAR(50) NOT NULL',
      contactFirstName: 'VARCHAR(50) NOT NULL',
      phone: 'VARCHAR(50) NOT NULL',
      city: 'VARCHAR(50) NOT NULL',
      country: 'VARCHAR(50) NOT NULL',
      postalCode: 'VARCHAR(15) NULL',
      salesRepEmployeeNumber: 'INT NULL',
      creditLimit: 'DECIMAL(10,2) NULL',
    },
    ['PRIMARY KEY (customerNumber)', 'KEY salesRepEmployeeNumber (salesRepEmployeeNumber)'],
  );
  const orders = new GeneratedTable(
    'orders',
    {
      orderNumber: 'INT NOT NULL',
      orderDate: 'DATE NOT NULL',
      requiredDate: 'DATE NOT NULL',
      shippedDate: 'DATE NULL',
      status: 'VARCHAR(15) NOT NULL',
      comments: 'TEXT NULL',
      customerNumber: 'INT NOT NULL',
    },
    ['PRIMARY KEY (orderNumber)', 'KEY customerNumber (customerNumber)'],
  );
  const orderdetails = new GeneratedTable(
    'orderdetails',
    {
      orderNumber: 'INT NOT NULL',
      productCode: 'VARCHAR(15) NOT NULL',
      quantityOrdered: 'INT NOT NULL',
      priceEach: 'DECIMAL(10,2) NOT NULL',
      orderLineNumber: 'SMALLINT NOT NULL',
    },
    ['PRIMARY KEY (orderNumber, productCode)', 'KEY productCode (productCode)'],
  );
  const payments = new GeneratedTable(
    'payments',
    {
      customerNumber: 'INT NOT NULL',
      checkNumber: 'VARCHAR(50) NOT NULL',
      paymentDate: 'DATE NOT NULL',
      amount: 'DECIMAL(10,2) NOT NULL',
    },
    ['PRIMARY KEY (customerNumber, checkNumber)'],
  );

  const catalog: { code: string; msrpCents: number }[] = [];
  PRODUCT_LINES.forEach(([line, , names], lineIndex) => {
    names.forEach((name, i) => {
      for (const edition of rng.chance(0.4) ? ['', ' Deluxe'] : ['']) {
        const code = `S${lineIndex + 1}${edition ? 'D' : ''}_${String(100 + i * 17 + rng.int(0, 9))}`;
        const msrpCents = rng.int(12, edition ? 140 : 90) * 100 + 99;
        products.add({
          productCode: code,
          productName: name + edition,
          productLine: line,
          productAgeGroup: rng.pick(['3+', '6+', '8+', '10+', '14+']),
          productVendor: rng.pick(VENDORS),
          quantityInStock: rng.int(0, 9000),
          buyPrice: money(Math.round(msrpCents * rng.float(0.38, 0.5))),
          MSRP: money(msrpCents),
        });
        catalog.push({ code, msrpCents });
      }
    });
  });

  // The president, one sales manager per territory, then sales reps.
  const reps: { number: number; country: string }[] = [];
  let employeeNumber = 1000;
  const addEmployee = (officeIndex: number, reportsTo: number | null, jobTitle: string) => {
    const name = personName(rng);
    employeeNumber += rng.int(2, 60);
    employees.add({
      employeeNumber,
      lastName: name.last,
      firstName: name.first,
      extension: `x${rng.int(100, 9999)}`,
      email: `${name.first[0]}${name.last}@toywholesale.example.com`.toLowerCase(),
      officeCode: OFFICES[officeIndex].code,
      reportsTo,
      jobTitle,
    });
    return employeeNumber;
  };
  const president = addEmployee(0, null, 'President');
  const managers: Record<string, number> = {};
  for (const territory of ['NA', 'EMEA', 'APAC']) {
    const officeIndex = OFFICES.findIndex((o) => o.territory === territory);
    managers[territory] = addEmployee(officeIndex, president, `Sales Manager (${territory})`);
  }
  OFFICES.forEach((office, officeIndex) => {
    for (let i = 0; i < (office.territory === 'NA' ? 4 : 2); i++) {
      reps.push({
        number: addEmployee(officeIndex, managers[office.territory], 'Sales Rep'),
        country: office.country,
      });
    }
  });

  const shops: { number: number; weight: number }[] = [];
  let customerNumber = 100;
  for (let i = 0; i < 120; i++) {
    customerNumber += rng.int(1, 25);
    const country = rng.weighted(['USA', 'France', 'UK', 'Japan'], [6, 2, 2, 1]);
    const contact = personName(rng);
    const localReps = reps.filter((r) => r.country === country);
    const hasRep = rng.chance(0.9);
    customers.add({
      customerNumber,
      customerName: `${companyName(rng)} Toys`,
      contactLastName: contact.last,
      contactFirstName: contact.first,
      phone: `${rng.int(200, 989)}.555.${String(rng.int(100, 199)).padStart(4, '0')}`,
      city: rng.pick(CUSTOMER_CITIES[country]),
      country,
      postalCode: country === 'Japan' ? null : String(rng.int(10000, 99999)),
      salesRepEmployeeNumber: hasRep ? rng.pick(localReps.length ? localReps : reps).number : null,
      creditLimit: hasRep ? money(rng.int(20, 200) * 100_000) : money(0),
    });
    // Customers without a sales rep have no credit and rarely order.
    shops.push({ number: customerNumber, weight: hasRep ? Math.exp(rng.normal(0, 0.7)) : 0.05 });
  }

  // Shops stock up for the holidays: orders peak in September–October.
  const orderDays = spreadEvents(rng, {
    from: FROM,
    to: TO,
    count: ORDERS,
    weight: (day) => yearlyCycle(day, 275, 0.55) * growth(day, FROM, TO, 1.6),
  });
  let orderNumber = 10100;
  const checksByCustomer = new Map<number, number>();
  for (const ordered of orderDays) {
    const number = orderNumber++;
    const shop = rng.weighted(
      shops,
      shops.map((s) => s.weight),
    );
    const age = (TO - ordered) / DAY_MS;
    const status =
      age < 10
        ? rng.pick(['In Process', 'On Hold'])
        : rng.weighted(['Shipped', 'Resolved', 'Cancelled', 'Disputed'], [90, 4, 4, 2]);
    const shipped = status === 'Shipped' || status === 'Resolved' || status === 'Disputed';
    const shippedOn = ordered + rng.int(1, 6) * DAY_MS;
    orders.add({
      orderNumber: number,
      orderDate: formatDate(ordered),
      requiredDate: formatDate(ordered + rng.int(7, 10) * DAY_MS),
      shippedDate: shipped ? formatDate(shippedOn) : null,
      status,
      comments:
        status === 'Disputed'
          ? 'Customer reports damaged cartons'
          : status === 'On Hold'
            ? 'Credit limit exceeded'
            : null,
      customerNumber: shop.number,
    });
    let totalCents = 0;
    rng.sample(catalog, rng.weighted([1, 2, 3, 4, 5, 6], [10, 20, 25, 20, 15, 10])).forEach((item, i) => {
      const quantity = rng.int(2, 12) * (rng.chance(0.3) ? 5 : 1);
      const priceCents = Math.round(item.msrpCents * rng.float(0.55, 0.7));
      totalCents += quantity * priceCents;
      orderdetails.add({
        orderNumber: number,
        productCode: item.code,
        quantityOrdered: quantity,
        priceEach: money(priceCents),
        orderLineNumber: i + 1,
      });
    });
    const paidOn = shippedOn + rng.int(5, 45) * DAY_MS;
    if (shipped && status !== 'Disputed' && paidOn < TO) {
      const checks = (checksByCustomer.get(shop.number) ?? 0) + 1;
      checksByCustomer.set(shop.number, checks);
      payments.add({
        customerNumber: shop.number,
        checkNumber: `${String.fromCharCode(65 + (shop.number % 26))}${String.fromCharCode(65 + (checks % 26))}${rng.int(100000, 999999)}`,
        paymentDate: formatDate(paidOn),
        amount: money(totalCents),
      });
    }
  }

  return {
    name: NAME,
    description: 'Wholesale distributor of toys and board games to independent toy shops',
    statements: databaseStatements([
      productlines,
      products,
      offices,
      employees,
      customers,
      orders,
      orderdetails,
      payments,
    ]),
    truth: {
      industry: 'wholesale',
      facts: [
        datedFact('orders', 'orderDate', 'day'),
        {
          table: 'orderdetails',
          event_date_sql:
            'SELECT o.orderDate AS d FROM orderdetails od JOIN orders o ON o.orderNumber = od.orderNumber',
          event_time_column: 'orders.orderDate',
          revenue_sql: 'SELECT SUM(quantityOrdered * priceEach) AS revenue FROM orderdetails',
        },
        {
          ...datedFact('payments', 'paymentDate', 'day'),
          revenue_sql: 'SELECT SUM(amount) AS revenue FROM payments',
        },
      ],
      never_aggregate: [
        ...columnsOf('employees', 'employeeNumber', 'reportsTo'),
        ...columnsOf('customers', 'customerNumber', 'salesRepEmployeeNumber'),
        ...columnsOf('orders', 'orderNumber', 'customerNumber'),
        ...columnsOf('orderdetails', 'orderNumber', 'orderLineNumber'),
        ...columnsOf('payments', 'customerNumber'),
      ],
      roles: {
        orders: 'header',
        orderdetails: 'line',
        payments: 'event',
        customers: 'dimension',
        products: 'dimension',
        employees: 'dimension',
        offices: 'dimension',
      },
    },
  };
}

export const toyWholesale: ZooSchema = {
  name: NAME,
  summary:
    'toy wholesaler, classicmodels-style camelCase: header/line orders with DATE order dates, composite PKs (orderdetails, payments), VARCHAR keys, no declared FKs (customerNumber, productCode)',
  generate,
};
