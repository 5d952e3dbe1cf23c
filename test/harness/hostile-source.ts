/**
 * A MariaDB source whose table and column names are paths, globs, quotes and statements, for the
 * tests that hold "names are never paths" (docs/security.md#names-are-never-paths).
 */
import mysql, { type Connection } from 'mysql2/promise';
import { quoteMysqlIdent as mq } from '../../shared/sql-quoting';
import { harness } from './harness-state';

/** Rows of the fact table. */
export const LINES = 400;

/** Lookup tables: names that are paths, globs, statements, or that collide once made identifiers. */
export const LOOKUPS = [
  { name: '../../escape', rows: 3 },
  { name: '../../../../../../../../tmp/plat-escape', rows: 2 },
  { name: 'a/b', rows: 4 },
  { name: 'a_b', rows: 1 },
  { name: "x'; DROP TABLE y; --", rows: 2 },
  { name: '*', rows: 1 },
  { name: '..', rows: 1 },
  { name: 'y', rows: 1 },
];
/** The fact: lines that reference `a/b`, dated and priced in columns named like paths and SQL. */
export const FACT = 'Order Lines';
export const ALL_TABLES = [...LOOKUPS.map((t) => t.name), FACT];

export function connectHostile(database?: string): Promise<Connection> {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password, database, multipleStatements: true });
}

/** Creates (anew) database `DB` on the harness MariaDB with the hostile tables and rows. */
export async function createHostileSource(DB: string): Promise<void> {
  const db = await connectHostile();
  try {
    await db.query(`DROP DATABASE IF EXISTS ${DB}; CREATE DATABASE ${DB}; USE ${DB}`);
    for (const t of LOOKUPS) {
      await db.query(
        `CREATE TABLE ${mq(t.name)} (id INT NOT NULL PRIMARY KEY, ${mq('../c')} VARCHAR(100), ${mq('"q"')} INT, ${mq('a`b')} VARCHAR(10), ${mq('A/B')} VARCHAR(10))`,
      );
      await db.query(
        `INSERT INTO ${mq(t.name)} SELECT seq, CONCAT('row ', seq, ' of ', ?), seq * 10, 'bt', 'ab' FROM seq_1_to_${t.rows}`,
        [t.name],
      );
    }
    await db.query(
      `CREATE TABLE ${mq(FACT)} (
         id INT NOT NULL PRIMARY KEY,
         ${mq('a/b id')} INT NOT NULL,
         ${mq('ordered at')} DATETIME NOT NULL,
         ${mq('price $')} DECIMAL(10,2) NOT NULL,
         ${mq('qty; DROP TABLE y')} INT NOT NULL,
         ${mq('../status')} ENUM('open', 'it''s done', 'a/b') NOT NULL,
         ${mq('"q"')} VARCHAR(20),
         FOREIGN KEY (${mq('a/b id')}) REFERENCES ${mq('a/b')} (id)
       )`,
    );
    await db.query(
      `INSERT INTO ${mq(FACT)}
       SELECT seq, 1 + seq MOD 4, TIMESTAMP '2026-01-01 08:00:00' + INTERVAL (seq MOD 40) DAY,
              (seq MOD 7) + 0.25, 1 + seq MOD 3, ELT(1 + seq MOD 3, 'open', 'it''s done', 'a/b'), CONCAT('q', seq MOD 5)
       FROM seq_1_to_${LINES}`,
    );
    await db.query(`ANALYZE TABLE ${ALL_TABLES.map(mq).join(', ')}`);
  } finally {
    await db.end();
  }
}
