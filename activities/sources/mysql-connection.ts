/** Opens a read-only-minded connection to a user's MySQL source and explains failures plainly. */
import mysql from 'mysql2/promise';
import { parseJdbcUrl } from './jdbc-url';

export interface SourceCredentials {
  jdbc_url: string;
  username: string;
  password: string;
}

export class SourceConnectionError extends Error {
  constructor(
    message: string,
    /** The driver's code, e.g. ER_ACCESS_DENIED_ERROR, ECONNREFUSED, ENOTFOUND. */
    readonly code: string,
    /** False when retrying cannot help (wrong password, unknown database). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SourceConnectionError';
  }
}

const NOT_RETRYABLE = new Set([
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ENOTFOUND',
  'ER_NOT_SUPPORTED_AUTH_MODE',
]);

export async function connectSource(
  creds: SourceCredentials,
  connectTimeoutMs = 10_000,
): Promise<mysql.Connection> {
  const target = parseJdbcUrl(creds.jdbc_url);
  try {
    return await mysql.createConnection({
      host: target.host,
      port: target.port,
      database: target.database,
      user: creds.username,
      password: creds.password,
      connectTimeout: connectTimeoutMs,
      dateStrings: false,
      supportBigNumbers: true,
      bigNumberStrings: true,
    });
  } catch (err) {
    const e = err as { code?: string; message?: string; sqlMessage?: string };
    const code = e.code ?? 'UNKNOWN';
    const reason = e.sqlMessage ?? e.message ?? String(err);
    throw new SourceConnectionError(
      `cannot connect to ${target.host}:${target.port}/${target.database}: ${reason} (${code})`,
      code,
      !NOT_RETRYABLE.has(code),
    );
  }
}
