/**
 * The refresh plan read from a real MariaDB source (docs/offline-analyst.md#change-detection): what
 * the source declares (ON UPDATE CURRENT_TIMESTAMP, AUTO_INCREMENT) and the order of its data decide
 * how each table's changes are found. Columns and tables have names that say nothing, on purpose.
 */
import mysql, { type Connection } from 'mysql2/promise';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { SCAN_WORTH_SAYING_ROWS } from '../../../domain/agents/offline-analyst/refresh-plan';
import { exploreSource, type ToolCallRecord } from '../../../domain/sources/source-explorer';
import { prdSchema, type Prd } from '../../../shared/prd-schema';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { harness } from '../../harness/harness-state';
import { sakilaSnapshot } from '../../harness/sakila';

const DB = 'refresh_evidence';

async function createSource(db: Connection) {
  await db.query(`DROP DATABASE IF EXISTS ${DB}`);
  await db.query(`CREATE DATABASE ${DB}`);
  await db.query(`USE ${DB}`);
  // The source keeps c3 current on every update.
  await db.query(`CREATE TABLE t_a (c1 INT AUTO_INCREMENT PRIMARY KEY, c2 VARCHAR(20) NOT NULL,
    c3 TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)`);
  await db.query(`INSERT INTO t_a (c2) SELECT CONCAT('v', seq) FROM seq_1_to_50`);
  // Keys given by the loader, not declared to grow, but every later key is dated later.
  await db.query(`CREATE TABLE t_b (k BIGINT PRIMARY KEY, d DATETIME NOT NULL, x DECIMAL(8,2) NOT NULL)`);
  await db.query(`INSERT INTO t_b SELECT seq * 7, TIMESTAMP('2024-01-01') + INTERVAL seq * 37 MINUTE, seq % 90
    FROM seq_1_to_3000`);
  // The same shape, keys in no order of time.
  await db.query(`CREATE TABLE t_c (k BIGINT PRIMARY KEY, d DATETIME NOT NULL, x DECIMAL(8,2) NOT NULL)`);
  await db.query(`INSERT INTO t_c SELECT seq, TIMESTAMP('2024-01-01') + INTERVAL (seq * 7919) % 3001 HOUR, seq % 90
    FROM seq_1_to_3000`);
  // No key at all.
  await db.query(`CREATE TABLE t_d (w VARCHAR(20) NOT NULL, d DATE NOT NULL)`);
  await db.query(
    `INSERT INTO t_d SELECT CONCAT('w', seq % 7), DATE('2024-01-01') + INTERVAL seq DAY FROM seq_1_to_200`,
  );
  // A key the source hands out, and no date.
  await db.query(`CREATE TABLE t_e (n INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(20) NOT NULL)`);
  await db.query(`INSERT INTO t_e (label) SELECT CONCAT('l', seq) FROM seq_1_to_30`);
}

describe('refresh plan from the source', () => {
  let db: Connection;
  let snapshot: SourceSnapshot;
  let prd: Prd;
  const calls: ToolCallRecord[] = [];

  beforeAll(async () => {
    const { host, port, user, password } = harness().mariadb;
    db = await mysql.createConnection({ host, port, user, password });
    await createSource(db);
    snapshot = await exploreSource(db, DB, { onToolCall: (c) => calls.push(c) });
    prd = buildOfflinePrd(snapshot);
  });
  afterAll(async () => {
    await db?.query(`DROP DATABASE IF EXISTS ${DB}`);
    await db?.end();
  });

  const entry = (table: string) => prd.refresh.find((r) => r.table === table);

  it('reads what MySQL does to columns by itself', () => {
    const columns = (table: string) => snapshot.tables.find((t) => t.name === table)!.columns;
    expect(columns('t_a').find((c) => c.name === 'c3')?.extra).toMatch(/on update current_timestamp/);
    expect(columns('t_a').find((c) => c.name === 'c1')?.extra).toBe('auto_increment');
    expect(columns('t_b').every((c) => c.extra === undefined)).toBe(true);
  });

  it('uses a timestamp the source keeps current, whatever it is called', () => {
    expect(entry('t_a')).toEqual({
      table: 't_a',
      detect: 'updated_at',
      column: 'c3',
      deletes: 'key_set',
      evidence: expect.stringMatching(
        /^c3 is set by the source whenever a row changes.*comparing keys \(c1\)$/,
      ),
    });
  });

  it('reads from the last key where later keys are dated later, and not where they are not', () => {
    const ordered = snapshot.tables.find((t) => t.name === 't_b')!.key_order;
    expect(ordered).toEqual({ key: 'k', along: 'd', rows: 1000, forward: 999, backward: 0 });
    expect(entry('t_b')).toMatchObject({ detect: 'key', column: 'k', deletes: 'key_set' });
    expect(entry('t_b')!.evidence).toMatch(
      /last 1000 rows by k follow d in time \(999 steps forward, 0 back\)/,
    );
    const shuffled = snapshot.tables.find((t) => t.name === 't_c')!.key_order!;
    expect(shuffled.backward).toBeGreaterThan(300);
    expect(entry('t_c')).toEqual({
      table: 't_c',
      detect: 'full',
      deletes: 'reread',
      evidence: expect.stringMatching(/go back in time along d in \d+ of \d+ steps: read whole$/),
    });
    expect(calls.find((c) => c.tool === 'key_order' && c.params.table === 't_b')?.summary).toBe(
      'last 1000 rows by k along d: 999 steps forward, 0 back',
    );
  });

  it('lists a key judged by the order of the data for review, and not a declared one', () => {
    expect(prd.review.filter((r) => r.decision === 'refresh')).toEqual([
      {
        decision: 'refresh',
        subject: 't_b',
        confidence: 0.7,
        evidence: expect.stringMatching(
          /^a refresh reads t_b from its last k, judged by the data: the last 1000 rows/,
        ),
        alternatives: ['read t_b whole (detect: full)'],
      },
    ]);
  });

  it('uses a key the source hands out, and reads a table with neither whole', () => {
    expect(entry('t_e')).toMatchObject({ detect: 'key', column: 'n', deletes: 'key_set' });
    expect(entry('t_e')!.evidence).toMatch(/^n is AUTO_INCREMENT/);
    expect(entry('t_d')).toMatchObject({ detect: 'full', deletes: 'reread' });
    expect(entry('t_d')!.evidence).toMatch(/^200 rows, and no column/);
  });

  it('plans every table the ODS copies, and the plan is a valid part of the PRD', () => {
    expect(prd.refresh.map((r) => r.table).sort()).toEqual(['t_a', 't_b', 't_c', 't_d', 't_e']);
    expect(prdSchema.safeParse(prd).success).toBe(true);
  });

  it('reads which columns lead an index, and says nothing of it for a table too small to matter', () => {
    expect(snapshot.tables.find((t) => t.name === 't_a')!.indexed_columns).toEqual(['c1']);
    expect(entry('t_a')!.evidence).not.toMatch(/index/);
  });

  it('on Sakila, follows each table by the timestamp the source keeps current, and reads film_text whole', async () => {
    const sakila = buildOfflinePrd(await sakilaSnapshot());
    const plans = Object.fromEntries(sakila.refresh.map((r) => [r.table, `${r.detect} ${r.column ?? ''}`]));
    // film_text is kept by triggers: no timestamp, no AUTO_INCREMENT, and its rows were not read here.
    expect(plans).toEqual({
      ...Object.fromEntries(sakila.layers.ods.map((t) => [t.source_tables[0], 'updated_at last_update'])),
      film_text: 'full ',
    });
  });
});

describe('refresh plan from a source whose stamps are indexed', () => {
  const INDEXED = 'refresh_index_evidence';
  let db: Connection;
  let prd: Prd;

  beforeAll(async () => {
    const { host, port, user, password } = harness().mariadb;
    db = await mysql.createConnection({ host, port, user, password });
    await db.query(`DROP DATABASE IF EXISTS ${INDEXED}`);
    await db.query(`CREATE DATABASE ${INDEXED}`);
    await db.query(`USE ${INDEXED}`);
    // Two stamps the source keeps current; only the second leads an index (the first is second in one).
    await db.query(`CREATE TABLE t_f (id INT PRIMARY KEY, v INT NOT NULL,
      s1 TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
      s2 DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
      KEY by_v_s1 (v, s1), KEY by_s2 (s2))`);
    // One stamp, in no index.
    await db.query(`CREATE TABLE t_g (id INT PRIMARY KEY, v INT NOT NULL,
      s TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)`);
    // Large enough that a scan is worth a word.
    for (const t of ['t_f', 't_g'])
      await db.query(`INSERT INTO ${t} (id, v) SELECT seq, seq % 5 FROM seq_1_to_${SCAN_WORTH_SAYING_ROWS}`);
    prd = buildOfflinePrd(await exploreSource(db, INDEXED, { sampleRows: 0 }));
  });
  afterAll(async () => {
    await db?.query(`DROP DATABASE IF EXISTS ${INDEXED}`);
    await db?.end();
  });

  it('follows the stamp an index leads, and says the source finds the changes without reading the table', () => {
    const plan = prd.refresh.find((r) => r.table === 't_f')!;
    expect(plan).toMatchObject({ detect: 'updated_at', column: 's2', deletes: 'key_set' });
    expect(plan.evidence).toContain(
      's2 leads an index, so the source finds the changed rows without reading the table',
    );
  });

  it('says what a stamp in no index costs: a scan of the whole table on the source each refresh', () => {
    expect(prd.refresh.find((r) => r.table === 't_g')!.evidence).toContain(
      `s leads no index, so each refresh makes the source scan all ${SCAN_WORTH_SAYING_ROWS} rows to find the changed ones (an index on s would spare that)`,
    );
  });
});
