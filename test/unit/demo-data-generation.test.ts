import { createHash } from 'node:crypto';
import { generateDemoDatabase } from '../../scripts/demo-data/demo-database';
import type { GeneratedDatabase } from '../../scripts/demo-data/generated-database';
import { ZOO } from '../../scripts/demo-data/zoo';

const TODAY = new Date('2026-03-15T08:30:00Z');

/** Table → column names, read back from the CREATE TABLE statements. */
function columnsByTable(db: GeneratedDatabase): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const statement of db.statements) {
    const create = /^CREATE TABLE `([^`]+)` \(\n([\s\S]*)\n\)/.exec(statement);
    if (!create) continue;
    const columns = [...create[2].matchAll(/^ {2}`([^`]+)` /gm)].map((m) => m[1]);
    tables.set(create[1], columns);
  }
  return tables;
}

/** Table → number of rows inserted (each row of a batch starts a line with "("). */
function rowCounts(db: GeneratedDatabase): Map<string, number> {
  const counts = new Map<string, number>();
  for (const statement of db.statements) {
    const insert = /^INSERT INTO `([^`]+)`/.exec(statement);
    if (!insert) continue;
    const rows = statement.split('\n').filter((line) => line.startsWith('(')).length;
    counts.set(insert[1], (counts.get(insert[1]) ?? 0) + rows);
  }
  return counts;
}

const digest = (db: GeneratedDatabase) => createHash('sha256').update(db.statements.join('\0')).digest('hex');

function smallDemo(): GeneratedDatabase {
  return generateDemoDatabase({ scale: 0.1, today: TODAY });
}

describe('demo database generator', () => {
  const small = smallDemo();

  it('is deterministic: same seed, scale and UTC day give byte-identical SQL', () => {
    const again = generateDemoDatabase({ scale: 0.1, today: new Date('2026-03-15T23:59:59Z') });
    expect(digest(again)).toBe(digest(small));
    expect(again.statements).toEqual(small.statements);
  });

  it('changes with the seed and with the day', () => {
    expect(digest(generateDemoDatabase({ scale: 0.1, today: TODAY, seed: 7 }))).not.toBe(digest(small));
    expect(digest(generateDemoDatabase({ scale: 0.1, today: new Date('2026-03-16T00:00:00Z') }))).not.toBe(
      digest(small),
    );
  });

  it('scales fact rows linearly and keeps the catalogue', () => {
    const double = rowCounts(generateDemoDatabase({ scale: 0.2, today: TODAY }));
    const single = rowCounts(small);
    for (const table of ['orders', 'order_items', 'payments', 'customers']) {
      const ratio = double.get(table)! / single.get(table)!;
      expect(ratio).toBeGreaterThan(1.6);
      expect(ratio).toBeLessThan(2.4);
    }
    expect(double.get('products')).toBe(single.get('products'));
    expect(single.get('orders')).toBeGreaterThan(500);
    expect(single.get('orders')).toBeLessThan(1100);
  });

  it('rejects a scale that is not a positive number', () => {
    expect(() => generateDemoDatabase({ scale: 0 })).toThrow(/positive/);
    expect(() => generateDemoDatabase({ scale: Number.NaN })).toThrow(/positive/);
  });

  it('writes TIMESTAMP/DATETIME values no later than the day before "today"', () => {
    const stamps = small.statements
      .filter((s) => s.startsWith('INSERT'))
      .flatMap((s) => s.match(/'\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}'/g) ?? []);
    expect(stamps.length).toBeGreaterThan(1000);
    const latest = stamps.reduce((a, b) => (a > b ? a : b));
    expect(latest < "'2026-03-15 00:00:00'").toBe(true);
    expect(latest > "'2026-03-12 00:00:00'").toBe(true);
  });
});

const everyDatabase: [string, GeneratedDatabase][] = [
  ['demo_store', smallDemo()],
  ...ZOO.map((z): [string, GeneratedDatabase] => [z.name, z.generate()]),
];

describe.each(everyDatabase)('generated database %s', (name, db) => {
  const columns = columnsByTable(db);

  it('has a distinct, prefixed name and a description unless its names alone tell the business', () => {
    expect(db.name).toBe(name);
    expect(name === 'demo_store' || name.startsWith('zoo_')).toBe(true);
    // zoo_prefixed_sales has none on purpose: its column names alone must tell the business.
    if (db.truth.industry !== 'general' && name !== 'zoo_prefixed_sales')
      expect(db.description.length).toBeGreaterThan(10);
  });

  it('has a truth that names only tables and columns that exist', () => {
    for (const ref of db.truth.never_aggregate) {
      const [table, column] = ref.split('.');
      expect(columns.get(table) ?? []).toContain(column);
    }
    for (const table of Object.keys(db.truth.roles)) expect(columns.has(table)).toBe(true);
    for (const fact of db.truth.facts) {
      expect(columns.has(fact.table)).toBe(true);
      for (const named of [fact.event_time_column ?? []].flat()) {
        const [table, column] = named.split('.');
        expect(columns.get(table) ?? []).toContain(column);
      }
      expect(fact.event_date_sql === null).toBe(fact.event_time_column === null);
    }
    expect(db.truth.facts.length).toBeGreaterThan(0);
  });

  it('is reproducible from its seed, and another seed changes the data', () => {
    if (name === 'demo_store') return; // covered above
    const schema = ZOO.find((z) => z.name === name)!;
    expect(digest(schema.generate())).toBe(digest(db));
    expect(digest(schema.generate({ seed: 2 }))).not.toBe(digest(db));
  });

  it('keeps zoo tables small', () => {
    if (name === 'demo_store') return;
    for (const [table, rows] of rowCounts(db)) {
      expect([table, rows <= 3000]).toEqual([table, true]);
    }
  });
});

describe('the zoo as a whole', () => {
  it('has unique database names', () => {
    const names = ZOO.map((z) => z.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(5);
  });

  it('covers every table role and a snapshot fact without time', () => {
    const roles = new Set(ZOO.flatMap((z) => Object.values(z.generate().truth.roles)));
    expect([...roles].sort()).toEqual([
      'bridge',
      'dimension',
      'event',
      'header',
      'line',
      'lookup',
      'snapshot',
      'summary',
    ]);
    const facts = ZOO.flatMap((z) => z.generate().truth.facts);
    expect(facts.some((f) => f.event_date_sql === null)).toBe(true);
    expect(ZOO.some((z) => z.generate().truth.industry === 'general')).toBe(true);
  });

  it('has an empty table and a one-row table', () => {
    const counts = ZOO.map((z) => {
      const db = z.generate();
      const rows = rowCounts(db);
      return [...columnsByTable(db).keys()].map((t) => rows.get(t) ?? 0);
    }).flat();
    expect(counts).toContain(0);
    expect(counts).toContain(1);
  });
});
