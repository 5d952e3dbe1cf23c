/** Connections to the harness's private MariaDB with the Sakila sample loaded. */
import mysql from 'mysql2/promise';
import { sourceConnector, type SourceConnector } from '../../activities/sources/mysql-connection';
import { harness } from './harness-state';

export function sakilaConnection(): Promise<mysql.Connection> {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password, database: 'sakila' });
}

/** A source connector to `database` on the harness's MariaDB, as the harness's user unless given. */
export function harnessSource(database = 'sakila', user?: string, password?: string): SourceConnector {
  const h = harness().mariadb;
  return sourceConnector(
    { host: h.host, port: h.port, database, options: {} },
    user ?? h.user,
    password ?? h.password,
  );
}
