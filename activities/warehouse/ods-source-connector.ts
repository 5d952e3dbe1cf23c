/** More connections to the source an existing connection talks to, as the same user; where it runs. */
import mysql, { type Connection, type ConnectionOptions } from 'mysql2/promise';
import { callbackConnection } from './ods-row-packets';

/** The settings of mysql2's connection config that say where and who (not how results are parsed). */
const SAME_SOURCE: (keyof ConnectionOptions)[] = [
  'host',
  'port',
  'localAddress',
  'socketPath',
  'user',
  'password',
  'database',
  'connectTimeout',
  'ssl',
  'charsetNumber',
  'authPlugins',
  'enableCleartextPlugin',
  'insecureAuth',
];

const configOf = (conn: Connection) =>
  (callbackConnection(conn) as unknown as { config: ConnectionOptions }).config;

/** A function opening a new connection to the same server and database as `conn`. */
export function sameSourceConnector(conn: Connection): () => Promise<Connection> {
  const config = configOf(conn);
  const options: Record<string, unknown> = {};
  for (const key of SAME_SOURCE) if (config[key] !== undefined) options[key] = config[key];
  return () => mysql.createConnection(options as ConnectionOptions);
}

/** The server runs on this machine (loopback address or Unix socket), sharing its cores. */
export function sourceIsLocal(conn: Connection): boolean {
  const { host, socketPath } = configOf(conn);
  return Boolean(socketPath) || host === 'localhost' || /^(127\.|::1$|::ffff:127\.)/.test(host ?? '');
}
