/**
 * The benchmark's source: a private MariaDB kept under `.data/bench/` and a synthetic table of mixed
 * types, created once per row count so a second run reuses it.
 */
import * as path from 'node:path';
import { freePort } from '../shared/free-port';
import { startPrivateMariaDb, type MariaDbInstance } from '../scripts/lib/mariadb-instance';
import { repoRoot } from '../shared/paths';

export const BENCH_DATABASE = 'bench';

/** Rows generated per INSERT … SELECT: keeps each transaction's undo small. */
const FILL_CHUNK = 250_000;

/** Starts (or restarts on an existing data directory) the benchmark's own MariaDB. */
export async function startBenchMariaDb(): Promise<MariaDbInstance> {
  const dir = path.join(repoRoot, '.data', 'bench');
  return startPrivateMariaDb({
    dataDir: path.join(dir, 'mariadb'),
    port: await freePort(),
    logFile: path.join(dir, 'mariadb.log'),
    readyTimeoutMs: 120_000,
    // A source server keeps its hot tables in memory: the 5M-row tables fit, as they would in production.
    bufferPoolSize: process.env.BENCH_BUFFER_POOL ?? '2G',
  });
}

/** `mixed_<rows>`: one table per row count, so a quick run never rebuilds the full-size one. */
export function benchTableName(rows: number): string {
  return `mixed_${rows}`;
}

/**
 * Creates the table unless it already holds exactly `rows` rows. Values are derived from the row
 * number (MariaDB's SEQUENCE engine), so every run reads the same data: BIGINT key, INT,
 * DECIMAL(12,2), VARCHAR, DATETIME, DATE, ENUM and TEXT, several of them nullable.
 */
export async function ensureBenchTable(
  db: MariaDbInstance,
  rows: number,
  log: (line: string) => void,
): Promise<'reused' | 'created'> {
  const table = benchTableName(rows);
  await db.sql(`CREATE DATABASE IF NOT EXISTS ${BENCH_DATABASE}`);
  const exists = (await db.sql(`SHOW TABLES LIKE '${table}'`, BENCH_DATABASE)).trim() === table;
  if (exists) {
    const [count, marker] = (await db.sql(`SELECT COUNT(*), MAX(id) FROM ${table}`, BENCH_DATABASE))
      .trim()
      .split('\t');
    if (Number(count) === rows && Number(marker) === rows) return 'reused';
  }
  await db.sql(
    `DROP TABLE IF EXISTS ${table};
     CREATE TABLE ${table} (
       id BIGINT NOT NULL PRIMARY KEY,
       quantity INT NOT NULL,
       amount DECIMAL(12,2) NULL,
       customer VARCHAR(64) NOT NULL,
       created_at DATETIME NOT NULL,
       birth_date DATE NULL,
       status ENUM('new','paid','shipped','cancelled','refunded') NOT NULL,
       note TEXT NULL,
       ref_code VARCHAR(16) NULL
     ) ENGINE=InnoDB`,
    BENCH_DATABASE,
  );
  const started = Date.now();
  for (let from = 1; from <= rows; from += FILL_CHUNK) {
    const to = Math.min(rows, from + FILL_CHUNK - 1);
    await db.sql(
      `INSERT INTO ${table}
       SELECT seq,
              seq % 1000,
              IF(seq % 10 = 0, NULL, (seq * 7919 % 100000000) / 100 - 250000),
              CONCAT('customer-', seq % 100000, '-', SUBSTRING(MD5(seq), 1, 8)),
              TIMESTAMP('2020-01-01') + INTERVAL (seq * 37) % 150000000 SECOND,
              IF(seq % 7 = 0, NULL, DATE('1950-01-01') + INTERVAL seq % 20000 DAY),
              ELT(1 + seq % 5, 'new', 'paid', 'shipped', 'cancelled', 'refunded'),
              IF(seq % 3 = 0, NULL, REPEAT(CONCAT('note ', seq, ', "quoted"; '), 1 + seq % 4)),
              IF(seq % 4 = 0, NULL, UPPER(SUBSTRING(SHA1(seq), 1, 12)))
       FROM seq_${from}_to_${to}`,
      BENCH_DATABASE,
    );
    log(`  filled ${to}/${rows} rows (${Math.round((Date.now() - started) / 1000)} s)`);
  }
  await db.sql(`ANALYZE TABLE ${table}`, BENCH_DATABASE);
  return 'created';
}
