/**
 * Every connection to a user's MySQL source is opened here, from the source's parsed target and
 * credentials, and failures are explained plainly.
 */
import mysql from 'mysql2/promise';
import { describeTarget, type MysqlTarget } from '../../shared/mysql-source';

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
  // What MariaDB answers for an account that does not exist (or was dropped).
  'ER_ACCESS_DENIED_NO_PASSWORD_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ENOTFOUND',
  'ER_NOT_SUPPORTED_AUTH_MODE',
]);

/** How to reach one source as one user: opens as many connections as a stage needs. */
export interface SourceConnector {
  readonly target: MysqlTarget;
  /** Opens a new connection; a failure is a `SourceConnectionError`. */
  connect(): Promise<mysql.Connection>;
  /** The server runs on this machine (a loopback address), sharing its cores. */
  readonly local: boolean;
}

/** A connector to `target` as `username`. */
export function sourceConnector(
  target: MysqlTarget,
  username: string,
  password: string,
  connectTimeoutMs = 10_000,
): SourceConnector {
  return {
    target,
    local: target.host === 'localhost' || /^(127\.|::1$|::ffff:127\.)/.test(target.host),
    async connect() {
      try {
        return await mysql.createConnection({
          host: target.host,
          port: target.port,
          database: target.database,
          user: username,
          password,
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
          `cannot connect to ${describeTarget(target)}: ${reason} (${code})`,
          code,
          !NOT_RETRYABLE.has(code),
        );
      }
    },
  };
}
