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
