/** Setup shared by the ODS tests: connections to MariaDB and rows read back from DuckDB (test/harness/sakila.ts: the Sakila snapshot and a fresh ODS copy). */
import { DuckDBInstance } from '@duckdb/node-api';
import mysql, { type Connection, type ConnectionOptions } from 'mysql2/promise';
import { harness } from '../../harness/harness-state';

/** Where a MariaDB server listens and who logs in: the harness's, or a private one. */
export type MariaDbServer = { host: string; port: number; user: string; password: string };

/** A connection to `server` (the harness's MariaDB unless given), with `options` on top. */
export function connectMariaDb(
  options: ConnectionOptions = {},
  server: MariaDbServer = harness().mariadb,
): Promise<Connection> {
  const { host, port, user, password } = server;
  return mysql.createConnection({ host, port, user, password, ...options });
}

/** The rows `sql` answers on the DuckDB database `file`, opened read-only. */
export async function duckRows(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * A small store-sales source in database `db` of the harness's MariaDB, made again: 9 stores in 3
 * cities, 1,500 sales five hours apart from 2025-03-01, each stamped by `changed_at`, which the
 * server keeps current on every update.
 */
export async function createStoreSales(db: string): Promise<void> {
  const conn = await connectMariaDb({ multipleStatements: true });
  try {
    await conn.query(`DROP DATABASE IF EXISTS ${db}; CREATE DATABASE ${db}; USE ${db};
      CREATE TABLE stores (store_id INT PRIMARY KEY, city VARCHAR(30) NOT NULL);
      CREATE TABLE sales (
        sale_id INT AUTO_INCREMENT PRIMARY KEY, store_id INT NOT NULL, amount DECIMAL(10,2) NOT NULL,
        sold_at DATETIME NOT NULL,
        changed_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
        FOREIGN KEY (store_id) REFERENCES stores (store_id));
      INSERT INTO stores SELECT seq, ELT(1 + seq % 3, 'Oslo', 'Bern', 'Riga') FROM seq_1_to_9;
      INSERT INTO sales (store_id, amount, sold_at, changed_at)
        SELECT 1 + seq % 9, 3 + (seq * 13 % 900) / 10, TIMESTAMP('2025-03-01') + INTERVAL (seq * 5) HOUR,
               TIMESTAMP('2025-09-01') + INTERVAL seq HOUR FROM seq_1_to_1500;
      ANALYZE TABLE stores, sales;`);
  } finally {
    await conn.end();
  }
}
