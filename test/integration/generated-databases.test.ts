import { execFile } from 'node:child_process';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { utcMidnight } from '../../scripts/demo-data/calendar';
import { loadGeneratedDatabase, mariaDbClientTarget } from '../../scripts/demo-data/load-database';
import { ZOO, zooSchema } from '../../scripts/demo-data/zoo';
import { mariadbProgram } from '../../scripts/lib/tool-paths';
import { harness } from '../harness/harness-state';
import { loadDemoIntoHarness, loadZooDatabase, type HarnessDatabase } from '../harness/zoo';

const DAY_MS = 86_400_000;
/** Schemas whose relations exist only through column names. */
const WITHOUT_DECLARED_FKS = [
  'zoo_toy_wholesale',
  'zoo_music_store',
  'zoo_saas_helpdesk',
  'zoo_abbreviated_ledger',
  'zoo_spreadsheet_export',
  'zoo_german_orders',
];

async function rows(db: Connection, sql: string, params: unknown[] = []): Promise<RowDataPacket[]> {
  const [result] = await db.query<RowDataPacket[]>(sql, params);
  return result;
}

/** Checks every fact of a truth against the loaded data; returns the date range per fact. */
async function checkTruth(loaded: HarnessDatabase): Promise<void> {
  const db = await loaded.connect();
  try {
    for (const ref of loaded.truth.never_aggregate) {
      const [table, column] = ref.split('.');
      const found = await rows(
        db,
        'SELECT 1 FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?',
        [loaded.name, table, column],
      );
      expect([ref, found.length]).toEqual([ref, 1]);
    }
    for (const fact of loaded.truth.facts) {
      // A fact kept in several tables (a union) counts the rows of them all.
      const tables = fact.union ?? [fact.table];
      const counts = await Promise.all(
        tables.map(async (t) => Number((await rows(db, `SELECT COUNT(*) AS n FROM \`${t}\``))[0].n)),
      );
      const n = counts.reduce((a, b) => a + b, 0);
      expect([fact.table, Number(n) > 0]).toEqual([fact.table, true]);
      if (fact.event_date_sql) {
        const [range] = await rows(
          db,
          `SELECT COUNT(*) AS n, COUNT(d) AS dated, MIN(d) AS first, MAX(d) AS last FROM (${fact.event_date_sql}) t`,
        );
        // One date per fact row, none missing, spanning more than a month.
        expect([fact.table, Number(range.n), Number(range.dated)]).toEqual([
          fact.table,
          Number(n),
          Number(n),
        ]);
        const spanDays = (Date.parse(range.last) - Date.parse(range.first)) / DAY_MS;
        expect([fact.table, spanDays > 30]).toEqual([fact.table, true]);
      }
      if (fact.revenue_sql) {
        const [{ revenue }] = await rows(db, fact.revenue_sql);
        expect([fact.table, Number(revenue) > 0]).toEqual([fact.table, true]);
        // Exact decimals, in the source's own arithmetic (nothing rounded before the sum).
        expect(String(revenue)).toMatch(/^\d+(\.\d+)?$/);
      }
    }
  } finally {
    await db.end();
  }
}

async function foreignKeyColumns(db: Connection, schema: string): Promise<RowDataPacket[]> {
  return rows(
    db,
    `SELECT CONSTRAINT_NAME AS name, TABLE_NAME AS child, COUNT(*) AS columns
       FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = ? AND REFERENCED_TABLE_NAME IS NOT NULL
      GROUP BY CONSTRAINT_NAME, TABLE_NAME`,
    [schema],
  );
}

describe.each(ZOO.map((z) => z.name))('zoo database %s in the harness MariaDB', (name) => {
  let loaded: HarnessDatabase;
  beforeAll(async () => {
    loaded = await loadZooDatabase(name);
  });

  it('loads once: a second load finds the same content and keeps it', async () => {
    expect(['loaded', 'present']).toContain(loaded.load.status);
    expect((await loadZooDatabase(name)).load.status).toBe('present');
  });

  it('matches its ground truth: facts dated over more than a month, revenue > 0, columns exist', async () => {
    await checkTruth(loaded);
  });

  it('declares foreign keys exactly when the schema is meant to', async () => {
    const db = await loaded.connect();
    try {
      const fks = await foreignKeyColumns(db, name);
      if (WITHOUT_DECLARED_FKS.includes(name)) expect(fks).toEqual([]);
      else expect(fks.length).toBeGreaterThan(2);
    } finally {
      await db.end();
    }
  });
});

describe('zoo shapes that need the data', () => {
  it('has an empty table and a one-row table', async () => {
    const generic = await loadZooDatabase('zoo_generic_records');
    const db = await generic.connect();
    try {
      expect((await rows(db, 'SELECT COUNT(*) AS n FROM archived_records'))[0].n).toBe(0);
      expect((await rows(db, 'SELECT COUNT(*) AS n FROM settings'))[0].n).toBe(1);
    } finally {
      await db.end();
    }
  });

  it('has a foreign key onto a composite key, and consistent money', async () => {
    const bikes = await loadZooDatabase('zoo_bike_shops');
    const music = await loadZooDatabase('zoo_music_store');
    const saas = await loadZooDatabase('zoo_saas_helpdesk');
    const [b, m, s] = await Promise.all([bikes.connect(), music.connect(), saas.connect()]);
    try {
      const fks = await foreignKeyColumns(b, 'zoo_bike_shops');
      expect(fks.find((fk) => fk.child === 'item_returns')?.columns).toBe(2);
      const [invoiceTotals] = await rows(
        m,
        `SELECT COUNT(*) AS wrong FROM Invoice i
           JOIN (SELECT InvoiceId, SUM(UnitPrice * Quantity) AS total FROM InvoiceLine GROUP BY InvoiceId) l
             ON l.InvoiceId = i.InvoiceId
          WHERE l.total <> i.Total`,
      );
      expect(invoiceTotals.wrong).toBe(0);
      const [centTotals] = await rows(
        s,
        `SELECT COUNT(*) AS wrong FROM invoices i
           JOIN (SELECT invoice_id, ROUND(SUM(seats * unit_price_cents * (1 - discount_rate))) AS cents
                   FROM invoice_items GROUP BY invoice_id) l ON l.invoice_id = i.invoice_id
          WHERE l.cents <> i.amount_cents`,
      );
      expect(centTotals.wrong).toBe(0);
    } finally {
      await Promise.all([b.end(), m.end(), s.end()]);
    }
  });

  it('loads through the mariadb command-line client as npm start does', async () => {
    const { host, port, user, password } = harness().mariadb;
    const sql = (script: string) =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(
          mariadbProgram('mariadb'),
          ['--no-defaults', `-h${host}`, `-P${port}`, `-u${user}`, '--batch', '--skip-column-names'],
          { env: { ...process.env, MYSQL_PWD: password }, maxBuffer: 64 * 1024 * 1024 },
          (err, stdout, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve(stdout)),
        );
        child.stdin?.end(script);
      });
    const db = { ...zooSchema('zoo_generic_records').generate({ seed: 5 }), name: 'zoo_client_target_check' };
    const target = mariaDbClientTarget({ sql });
    expect((await loadGeneratedDatabase(target, db)).status).toBe('loaded');
    expect((await loadGeneratedDatabase(target, db)).status).toBe('present');
    expect((await sql('SELECT COUNT(*) FROM zoo_client_target_check.records')).trim()).toBe('2500');
    // Different content under the same name replaces the database.
    const other = { ...zooSchema('zoo_generic_records').generate({ seed: 6 }), name: db.name };
    expect((await loadGeneratedDatabase(target, other)).status).toBe('loaded');
  });
});

describe('demo database (scale 0.1) in the harness MariaDB', () => {
  let demo: HarnessDatabase;
  let db: Connection;
  beforeAll(async () => {
    demo = await loadDemoIntoHarness({ scale: 0.1 });
    db = await demo.connect();
  });
  afterAll(async () => {
    await db?.end();
  });

  it('loads as demo_store, once per day and configuration', async () => {
    expect(demo.jdbcUrl).toMatch(/\/demo_store$/);
    expect(demo.load.fingerprint).toMatch(/seed 42, scale 0\.1, as of \d{4}-\d{2}-\d{2}$/);
    expect((await loadDemoIntoHarness({ scale: 0.1 })).load.status).toBe('present');
  });

  it('matches its ground truth', async () => {
    await checkTruth(demo);
  });

  it('runs three years up to yesterday, with days without orders allowed', async () => {
    const [range] = await rows(db, 'SELECT MIN(order_date) AS first, MAX(order_date) AS last FROM orders');
    const today = utcMidnight(new Date());
    const last = Date.parse(`${range.last.replace(' ', 'T')}Z`);
    const first = Date.parse(`${range.first.replace(' ', 'T')}Z`);
    expect(last).toBeLessThan(today);
    expect(last).toBeGreaterThan(today - 10 * DAY_MS);
    expect(first).toBeGreaterThanOrEqual(today - 3 * 366 * DAY_MS);
    expect(first).toBeLessThan(today - 3 * 360 * DAY_MS);
  });

  it('keeps amounts consistent: a paid order is paid its lines after discount plus shipping', async () => {
    const [check] = await rows(
      db,
      `SELECT COUNT(*) AS paid,
              SUM(p.amount <> l.net + o.shipping_fee) AS wrong
         FROM payments p
         JOIN orders o ON o.order_id = p.order_id
         JOIN (SELECT order_id, ROUND(SUM(quantity * unit_price * (1 - discount)), 2) AS net
                 FROM order_items GROUP BY order_id) l ON l.order_id = o.order_id`,
    );
    expect(Number(check.paid)).toBeGreaterThan(300);
    expect(Number(check.wrong)).toBe(0);
    const [discounts] = await rows(db, 'SELECT MIN(discount) AS lo, MAX(discount) AS hi FROM order_items');
    expect(Number(discounts.lo)).toBe(0);
    expect(Number(discounts.hi)).toBeLessThanOrEqual(0.3);
  });

  it('has lifecycle dates in order and declared foreign keys', async () => {
    const [order] = await rows(
      db,
      `SELECT SUM(s.shipped_at < o.order_date) AS shipped_early, SUM(s.delivered_at < s.shipped_at) AS delivered_early,
              (SELECT SUM(r.returned_at < o2.order_date) FROM returns r JOIN orders o2 USING (order_id)) AS returned_early
         FROM shipments s JOIN orders o USING (order_id)`,
    );
    expect([
      Number(order.shipped_early),
      Number(order.delivered_early),
      Number(order.returned_early),
    ]).toEqual([0, 0, 0]);
    const fks = await foreignKeyColumns(db, 'demo_store');
    expect(fks.length).toBeGreaterThanOrEqual(15);
    expect(fks.find((fk) => fk.child === 'returns' && fk.columns === 2)).toBeDefined();
  });
});
