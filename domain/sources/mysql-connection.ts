/**
 * Every connection to a user's MySQL source is opened here, from the source's parsed target and
 * credentials, to an address the source policy admitted; failures are explained plainly.
 */
import mysql from 'mysql2/promise';
import { describeTarget, type MysqlTarget } from '../../shared/mysql-source';
import { SourceConnectionError, SourceNotAllowedError } from './source-errors';
import { SourcePolicy } from './source-policy';

export { SourceConnectionError, SourceNotAllowedError };

/** The longest any connection attempt waits (resolution, then the connection itself). */
export const MAX_CONNECT_TIMEOUT_MS = 10_000;

/** For callers given no policy: the built-in denials, without plat's services (which need the configuration). */
const BUILT_IN_POLICY = new SourcePolicy();

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

/** The driver's (or resolver's) failure as a {@link SourceConnectionError}. */
function explained(target: MysqlTarget, err: unknown): SourceConnectionError {
  if (err instanceof SourceConnectionError) return err;
  const e = err as { code?: string; message?: string; sqlMessage?: string };
  const code = e.code ?? 'UNKNOWN';
  const reason = e.sqlMessage ?? e.message ?? String(err);
  return new SourceConnectionError(
    `cannot connect to ${describeTarget(target)}: ${reason} (${code})`,
    code,
    !NOT_RETRYABLE.has(code),
  );
}

/**
 * A connector to `target` as `username`: every connection resolves the host anew, passes `policy`
 * (a refusal is a {@link SourceNotAllowedError}, before anything is sent) and goes to the address
 * the policy checked. The timeout is capped at {@link MAX_CONNECT_TIMEOUT_MS}.
 */
export function sourceConnector(
  target: MysqlTarget,
  username: string,
  password: string,
  connectTimeoutMs = MAX_CONNECT_TIMEOUT_MS,
  policy: SourcePolicy = BUILT_IN_POLICY,
): SourceConnector {
  const timeoutMs = Math.min(connectTimeoutMs, MAX_CONNECT_TIMEOUT_MS);
  return {
    target,
    local: target.host === 'localhost' || /^(127\.|::1$|::ffff:127\.)/.test(target.host),
    async connect() {
      try {
        const address = await policy.admit(target, timeoutMs);
        // No TLS is negotiated with sources; if it ever is, its servername must stay target.host
        // (the name the certificate holds), not this address.
        return await mysql.createConnection({
          host: address,
          port: target.port,
          database: target.database,
          user: username,
          password,
          connectTimeout: timeoutMs,
          dateStrings: false,
          supportBigNumbers: true,
          bigNumberStrings: true,
        });
      } catch (err) {
        throw explained(target, err);
      }
    },
  };
}
