/** Connections to the harness's private MariaDB with the Sakila sample loaded. */
import mysql from 'mysql2/promise';
import { harness } from './harness-state';

export function sakilaConnection(): Promise<mysql.Connection> {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password, database: 'sakila' });
}
