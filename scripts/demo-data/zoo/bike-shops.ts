/**
 * `zoo_bike_shops`: three bicycle shops, snake_case with every foreign key declared. Snowflaked
 * dimensions (product → subcategory → category; customer → city → country), a pure bridge
 * (product_tags), a code → label lookup (order_status), DATE-only orders with lines carrying a
 * discount, returns referencing a line's composite key, a stock snapshot with no time at all, and
 * a one-row table. Numbers that are not quantities: phone and zip codes as integers, model_year,
 * a founding YEAR, flags.
 */
import { DAY_MS, formatDate, formatDateTime, utcDate, utcMidnight } from '../calendar';
import { spreadEvents, weekendFactor, yearlyCycle } from '../event-times';
import { columnsOf, datedFact, type GeneratedDatabase } from '../generated-database';
import { emailAddress, personName, words } from '../names';
import { SeededRandom } from '../random';
import { decimal, money } from '../sql-literals';
import { GeneratedTable, databaseStatements, foreignKey, referenceTable } from '../table-builder';
import type { ZooOptions, ZooSchema } from './zoo-schema';

const NAME = 'zoo_bike_shops';
const FROM = utcDate(2022, 1, 1);
const TO = utcDate(2025, 1, 1);
const ORDERS = 1100;

const COUNTRIES = ['United States', 'Canada', 'Mexico'];
/** City, country index, zip code base, area code. */
const CITIES: [string, number, number, number][] = [
  ['Austin', 0, 78701, 512],
  ['Round Rock', 0, 78664, 512],
  ['San Marcos', 0, 78666, 512],
  ['Houston', 0, 77002, 713],
  ['Sugar Land', 0, 77478, 281],
  ['Katy', 0, 77449, 281],
  ['Phoenix', 0, 85003, 602],
  ['Tempe', 0, 85281, 480],
  ['Scottsdale', 0, 85251, 480],
  ['Tucson', 0, 85701, 520],
  ['Vancouver', 1, 0, 604],
  ['Monterrey', 2, 64000, 81],
];
const STORES = [
  { name: 'Austin Pedal House', cityIndex: 0 },
  { name: 'Houston Spoke & Chain', cityIndex: 3 },
  { name: 'Phoenix Desert Cycles', cityIndex: 6 },
];
const BRANDS = [
  'Velo Norte',
  'Trailsmith',
  'Urbanista',
  'Kestrel Cycles',
  'Pedalworks',
  'Granfondo',
  'Mudlark',
  'Little Rider',
];
const CATEGORIES: [string, [string, number, number, string[]][]][] = [
  [
    'Bikes',
    [
      ['Mountain Bikes', 600, 4500, words('Ridge Switchback Talus Scree')],
      ['Road Bikes', 800, 6000, words('Tempo Apex Domestique')],
      ['Electric Bikes', 1800, 5500, words('Volt Commute+ Torque')],
      ['Kids Bikes', 150, 450, words('Sprout Rascal')],
      ['Cruisers', 300, 900, words('Boardwalk Sunday')],
    ],
  ],
  [
    'Components',
    [
      ['Wheels', 120, 900, words('Carbon29 Alloy700')],
      ['Drivetrain', 40, 500, words('Cassette12 Chainring Derailleur')],
      ['Brakes', 30, 300, words('DiscSet Pads')],
    ],
  ],
  [
    'Clothing',
    [
      ['Jerseys', 40, 120, words('ClubJersey ThermalJersey')],
      ['Shorts', 40, 150, words('BibShort TrailShort')],
      ['Gloves', 15, 60, words('GelGlove WinterGlove')],
    ],
  ],
  [
    'Accessories',
    [
      ['Helmets', 40, 250, words('Aero Commuter KidsDome')],
      ['Locks', 20, 120, words('ULock ChainLock')],
      ['Lights', 15, 150, words('Beam400 TailBlink')],
      ['Bottles', 8, 25, words('Bottle750 InsulatedBottle')],
    ],
  ],
];
const TAGS = words('carbon aluminium women kids commuter trail race waterproof reflective bestseller');
const STATUSES = [
  [1, 'Pending'],
  [2, 'Processing'],
  [3, 'Rejected'],
  [4, 'Completed'],
] as const;

function generate(options: ZooOptions = {}): GeneratedDatabase {
  const rng = new SeededRandom(options.seed ?? 1);
  const t = {
    countries: referenceTable(
      'countries',
      { country_id: 'TINYINT NOT NULL', country_name: 'VARCHAR(60) NOT NULL' },
      COUNTRIES.map((name, i) => ({ country_id: i + 1, country_name: name })),
    ),
    cities: referenceTable(
      'cities',
      { city_id: 'SMALLINT NOT NULL', city_name: 'VARCHAR(60) NOT NULL', country_id: 'TINYINT NOT NULL' },
      CITIES.map(([name, country], i) => ({ city_id: i + 1, city_name: name, country_id: country + 1 })),
      [foreignKey('cities', 'country_id', 'countries')],
    ),
    customers: new GeneratedTable(
      'customers',
      {
        customer_id: 'INT NOT NULL',
        first_name: 'VARCHAR(50) NOT NULL',
        last_name: 'VARCHAR(50) NOT NULL',
        phone: 'BIGINT NULL',
        email: 'VARCHAR(100) NOT NULL',
        street: 'VARCHAR(100) NULL',
        city_id: 'SMALLINT NOT NULL',
        zip_code: 'INT NULL',
        created_at: 'TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP',
      },
      ['PRIMARY KEY (customer_id)', foreignKey('customers', 'city_id', 'cities')],
    ),
    brands: referenceTable(
      'brands',
      { brand_id: 'INT NOT NULL', brand_name: 'VARCHAR(60) NOT NULL' },
      BRANDS.map((name, i) => ({ brand_id: i + 1, brand_name: name })),
    ),
    categories: referenceTable(
      'categories',
      { category_id: 'INT NOT NULL', category_name: 'VARCHAR(60) NOT NULL' },
      CATEGORIES.map(([name], c) => ({ category_id: c + 1, category_name: name })),
    ),
    subcategories: new GeneratedTable(
      'subcategories',
      {
        subcategory_id: 'INT NOT NULL',
        category_id: 'INT NOT NULL',
        subcategory_name: 'VARCHAR(60) NOT NULL',
      },
      ['PRIMARY KEY (subcategory_id)', foreignKey('subcategories', 'category_id', 'categories')],
    ),
    products: new GeneratedTable(
      'products',
      {
        product_id: 'INT NOT NULL',
        product_name: 'VARCHAR(120) NOT NULL',
        brand_id: 'INT NOT NULL',
        subcategory_id: 'INT NOT NULL',
        model_year: 'SMALLINT NOT NULL',
        list_price: 'DECIMAL(10,2) NOT NULL',
        is_discontinued: 'TINYINT(1) NOT NULL DEFAULT 0',
      },
      [
        'PRIMARY KEY (product_id)',
        foreignKey('products', 'brand_id', 'brands'),
        foreignKey('products', 'subcategory_id', 'subcategories'),
      ],
    ),
    tags: referenceTable(
      'tags',
      { tag_id: 'INT NOT NULL', tag_name: 'VARCHAR(30) NOT NULL' },
      TAGS.map((name, i) => ({ tag_id: i + 1, tag_name: name })),
    ),
    productTags: new GeneratedTable('product_tags', { product_id: 'INT NOT NULL', tag_id: 'INT NOT NULL' }, [
      'PRIMARY KEY (product_id, tag_id)',
      foreignKey('product_tags', 'product_id', 'products'),
      foreignKey('product_tags', 'tag_id', 'tags'),
    ]),
    stores: new GeneratedTable(
      'stores',
      {
        store_id: 'INT NOT NULL',
        store_name: 'VARCHAR(60) NOT NULL',
        phone: 'BIGINT NULL',
        email: 'VARCHAR(100) NULL',
        city_id: 'SMALLINT NOT NULL',
        zip_code: 'INT NULL',
      },
      ['PRIMARY KEY (store_id)', foreignKey('stores', 'city_id', 'cities')],
    ),
    staffs: new GeneratedTable(
      'staffs',
      {
        staff_id: 'INT NOT NULL',
        first_name: 'VARCHAR(50) NOT NULL',
        last_name: 'VARCHAR(50) NOT NULL',
        email: 'VARCHAR(100) NOT NULL',
        phone: 'BIGINT NULL',
        active: 'TINYINT(1) NOT NULL',
        store_id: 'INT NOT NULL',
        manager_id: 'INT NULL',
      },
      [
        'PRIMARY KEY (staff_id)',
        foreignKey('staffs', 'store_id', 'stores'),
        foreignKey('staffs', 'manager_id', 'staffs', 'staff_id'),
      ],
    ),
    orderStatus: referenceTable(
      'order_status',
      { code: 'TINYINT NOT NULL', label: 'VARCHAR(20) NOT NULL' },
      STATUSES.map(([code, label]) => ({ code, label })),
    ),
    orders: new GeneratedTable(
      'orders',
      {
        order_id: 'INT NOT NULL',
        customer_id: 'INT NULL',
        order_status: 'TINYINT NOT NULL',
        order_date: 'DATE NOT NULL',
        required_date: 'DATE NOT NULL',
        shipped_date: 'DATE NULL',
        store_id: 'INT NOT NULL',
        staff_id: 'INT NOT NULL',
      },
      [
        'PRIMARY KEY (order_id)',
        foreignKey('orders', 'customer_id', 'customers'),
        foreignKey('orders', 'order_status', 'order_status', 'code'),
        foreignKey('orders', 'store_id', 'stores'),
        foreignKey('orders', 'staff_id', 'staffs'),
      ],
    ),
    orderItems: new GeneratedTable(
      'order_items',
      {
        order_id: 'INT NOT NULL',
        item_id: 'INT NOT NULL',
        product_id: 'INT NOT NULL',
        quantity: 'INT NOT NULL',
        list_price: 'DECIMAL(10,2) NOT NULL',
        discount: 'DECIMAL(4,2) NOT NULL DEFAULT 0',
      },
      [
        'PRIMARY KEY (order_id, item_id)',
        foreignKey('order_items', 'order_id', 'orders'),
        foreignKey('order_items', 'product_id', 'products'),
      ],
    ),
    itemReturns: new GeneratedTable(
      'item_returns',
      {
        return_id: 'INT NOT NULL',
        order_id: 'INT NOT NULL',
        item_id: 'INT NOT NULL',
        returned_on: 'DATE NOT NULL',
        quantity: 'INT NOT NULL',
        reason: 'VARCHAR(60) NOT NULL',
      },
      [
        'PRIMARY KEY (return_id)',
        `CONSTRAINT fk_item_returns_order_item FOREIGN KEY (order_id, item_id) REFERENCES order_items (order_id, item_id)`,
      ],
    ),
    stocks: new GeneratedTable(
      'stocks',
      { store_id: 'INT NOT NULL', product_id: 'INT NOT NULL', quantity: 'INT NULL' },
      [
        'PRIMARY KEY (store_id, product_id)',
        foreignKey('stocks', 'store_id', 'stores'),
        foreignKey('stocks', 'product_id', 'products'),
      ],
    ),
    companyProfile: new GeneratedTable(
      'company_profile',
      {
        company_id: 'TINYINT NOT NULL',
        legal_name: 'VARCHAR(100) NOT NULL',
        founded_year: 'YEAR NOT NULL',
        vat_number: 'BIGINT NOT NULL',
        hq_phone: 'BIGINT NOT NULL',
      },
      ['PRIMARY KEY (company_id)'],
    ),
  };

  const phoneIn = (cityIndex: number) => CITIES[cityIndex][3] * 10_000_000 + 5_550_100 + rng.int(0, 99);
  const zipIn = (cityIndex: number) => (CITIES[cityIndex][2] ? CITIES[cityIndex][2] + rng.int(0, 30) : null);

  const customerCities = CITIES.map((_, i) => i);
  const customerCityWeights = CITIES.map(([, country]) => (country === 0 ? 10 : 1));
  const customerCount = 800;
  const customerCreated = spreadEvents(rng, {
    from: utcDate(2019, 6, 1),
    to: TO - 20 * DAY_MS,
    count: customerCount,
  });
  customerCreated.forEach((createdAt, i) => {
    const name = personName(rng);
    const cityIndex = rng.weighted(customerCities, customerCityWeights);
    t.customers.add({
      customer_id: i + 1,
      first_name: name.first,
      last_name: name.last,
      phone: rng.chance(0.7) ? phoneIn(cityIndex) : null,
      email: emailAddress(name, i + 1, rng.pick(['example.com', 'example.org'])),
      street: `${rng.int(10, 9999)} ${rng.pick(words('Oak Elm Cedar Main Lake Hill River Mesa'))} ${rng.pick(['St', 'Ave', 'Rd', 'Dr'])}`,
      city_id: cityIndex + 1,
      zip_code: zipIn(cityIndex),
      created_at: formatDateTime(createdAt),
    });
  });

  const products: { id: number; cents: number; year: number; weight: number }[] = [];
  let subcategoryId = 0;
  CATEGORIES.forEach(([, subcategories], c) => {
    for (const [subcategory, min, max, models] of subcategories) {
      t.subcategories.add({
        subcategory_id: ++subcategoryId,
        category_id: c + 1,
        subcategory_name: subcategory,
      });
      for (const model of models) {
        for (const brand of rng.sample(BRANDS, rng.int(1, 3))) {
          const firstYear = rng.int(2021, 2023);
          for (let year = firstYear; year <= Math.min(2025, firstYear + rng.int(1, 3)); year++) {
            const id = products.length + 1;
            const cents = rng.int(min, max) * 100 + 99;
            t.products.add({
              product_id: id,
              product_name: `${brand} ${model} - ${year}`,
              brand_id: BRANDS.indexOf(brand) + 1,
              subcategory_id: subcategoryId,
              model_year: year,
              list_price: money(cents),
              is_discontinued: year <= 2022 ? 1 : 0,
            });
            for (const tag of rng.sample(TAGS, rng.int(1, 3)).sort()) {
              t.productTags.add({ product_id: id, tag_id: TAGS.indexOf(tag) + 1 });
            }
            products.push({ id, cents, year, weight: Math.exp(rng.normal(0, 0.6)) * (c === 0 ? 1 : 2.5) });
          }
        }
      }
    }
  });

  const staffIds: number[][] = [];
  let staffId = 0;
  STORES.forEach((store, s) => {
    t.stores.add({
      store_id: s + 1,
      store_name: store.name,
      phone: phoneIn(store.cityIndex),
      email: `${store.name.split(' ')[0].toLowerCase()}@bikeshops.example.com`,
      city_id: store.cityIndex + 1,
      zip_code: zipIn(store.cityIndex),
    });
    const ids: number[] = [];
    const managerId = staffId + 1;
    for (let i = 0; i < (s === 0 ? 4 : 3); i++) {
      const name = personName(rng);
      t.staffs.add({
        staff_id: ++staffId,
        first_name: name.first,
        last_name: name.last,
        email: emailAddress(name, staffId, 'bikeshops.example.com'),
        phone: phoneIn(store.cityIndex),
        active: rng.chance(0.85) ? 1 : 0,
        store_id: s + 1,
        manager_id: i === 0 ? (s === 0 ? null : 1) : managerId,
      });
      ids.push(staffId);
    }
    staffIds.push(ids);
  });

  // Cycling peaks in late spring; weekends are busier.
  const orderDays = spreadEvents(rng, {
    from: FROM,
    to: TO,
    count: ORDERS,
    weight: (day) => yearlyCycle(day, 150, 0.5) * weekendFactor(day, 1.6),
  }).map(utcMidnight);
  let returnId = 0;
  orderDays.forEach((day, i) => {
    const orderId = i + 1;
    const store = rng.weighted([0, 1, 2], [5, 3, 2]);
    const age = (TO - day) / DAY_MS;
    const status = age <= 3 ? rng.pick([1, 2]) : rng.chance(0.04) ? 3 : 4;
    const shipped = status === 4 ? day + rng.int(0, 3) * DAY_MS : null;
    t.orders.add({
      order_id: orderId,
      // Walk-in sales have no customer record.
      customer_id: rng.chance(0.05) ? null : rng.int(1, customerCreated.filter((c) => c < day).length),
      order_status: status,
      order_date: formatDate(day),
      required_date: formatDate(day + rng.int(2, 5) * DAY_MS),
      shipped_date: shipped === null ? null : formatDate(shipped),
      store_id: store + 1,
      staff_id: rng.pick(staffIds[store]),
    });
    const available = products.filter((p) => p.year <= new Date(day).getUTCFullYear() + 1);
    const chosen = rng.sample(available, rng.weighted([1, 2, 3, 4, 5], [30, 30, 20, 12, 8]));
    chosen.forEach((product, n) => {
      const quantity = rng.weighted([1, 2], [85, 15]);
      t.orderItems.add({
        order_id: orderId,
        item_id: n + 1,
        product_id: product.id,
        quantity,
        list_price: money(product.cents),
        discount: decimal(rng.pick([5, 7, 10, 20]), 2),
      });
      const returnedOn = (shipped ?? day) + rng.int(3, 40) * DAY_MS;
      if (status === 4 && rng.chance(0.035) && returnedOn < TO) {
        t.itemReturns.add({
          return_id: ++returnId,
          order_id: orderId,
          item_id: n + 1,
          returned_on: formatDate(returnedOn),
          quantity: rng.int(1, quantity),
          reason: rng.pick(['Wrong size', 'Damaged', 'Changed mind', 'Warranty claim']),
        });
      }
    });
  });

  STORES.forEach((_, s) => {
    for (const product of products) {
      if (rng.chance(0.9))
        t.stocks.add({
          store_id: s + 1,
          product_id: product.id,
          quantity: rng.chance(0.1) ? 0 : rng.int(1, 30),
        });
    }
  });
  t.companyProfile.add({
    company_id: 1,
    legal_name: 'Three Rivers Cycles LLC',
    founded_year: 2009,
    vat_number: 742_091_553,
    hq_phone: phoneIn(0),
  });

  return {
    name: NAME,
    description: 'Chain of three bicycle shops: sales, returns and stock levels',
    statements: databaseStatements(Object.values(t)),
    truth: {
      industry: 'retail',
      facts: [
        datedFact('orders', 'order_date', 'day'),
        {
          table: 'order_items',
          event_date_sql:
            'SELECT o.order_date AS d FROM order_items i JOIN orders o ON o.order_id = i.order_id',
          event_time_column: 'orders.order_date',
          revenue_sql: 'SELECT SUM(quantity * list_price * (1 - discount)) AS revenue FROM order_items',
        },
        datedFact('item_returns', 'returned_on', 'day'),
        { table: 'stocks', event_date_sql: null, event_time_column: null },
      ],
      never_aggregate: [
        ...columnsOf('countries', 'country_id'),
        ...columnsOf('cities', 'city_id', 'country_id'),
        ...columnsOf('customers', 'customer_id', 'phone', 'city_id', 'zip_code'),
        ...columnsOf('subcategories', 'subcategory_id', 'category_id'),
        ...columnsOf('products', 'product_id', 'brand_id', 'subcategory_id', 'model_year', 'is_discontinued'),
        ...columnsOf('product_tags', 'product_id', 'tag_id'),
        ...columnsOf('stores', 'store_id', 'phone', 'city_id', 'zip_code'),
        ...columnsOf('staffs', 'staff_id', 'phone', 'active', 'store_id', 'manager_id'),
        ...columnsOf('orders', 'order_id', 'customer_id', 'order_status', 'store_id', 'staff_id'),
        ...columnsOf('order_items', 'order_id', 'item_id', 'product_id'),
        ...columnsOf('item_returns', 'return_id', 'order_id', 'item_id'),
        ...columnsOf('stocks', 'store_id', 'product_id'),
        ...columnsOf('company_profile', 'company_id', 'founded_year', 'vat_number', 'hq_phone'),
      ],
      roles: {
        orders: 'header',
        order_items: 'line',
        item_returns: 'event',
        stocks: 'snapshot',
        product_tags: 'bridge',
        order_status: 'lookup',
        customers: 'dimension',
        products: 'dimension',
        stores: 'dimension',
        staffs: 'dimension',
        subcategories: 'dimension',
        cities: 'dimension',
      },
    },
  };
}

export const bikeShops: ZooSchema = {
  name: NAME,
  summary:
    'bicycle shops, snake_case with declared FKs: snowflakes (product → subcategory → category, customer → city → country), product_tags bridge, order_status lookup, DATE orders/lines with discount, returns FK onto a composite key, stocks snapshot without time, one-row company_profile, phone/zip as integers, model_year, YEAR',
  generate,
};
