/** Why a source could not be reached: the driver's reason, or the source policy's refusal. */
import { describeHost, type MysqlTarget } from '../../shared/mysql-source';

export class SourceConnectionError extends Error {
  constructor(
    message: string,
    /** The driver's code, e.g. ER_ACCESS_DENIED_ERROR, ECONNREFUSED, ENOTFOUND; SOURCE_NOT_ALLOWED. */
    readonly code: string,
    /** False when retrying cannot help (wrong password, unknown database, a refused address). */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SourceConnectionError';
  }
}

/**
 * The source policy refuses the source: nothing was sent to it. The message says no more than that
 * (not which rule, nor what the name resolved to); `reason` is for plat's logs.
 */
export class SourceNotAllowedError extends SourceConnectionError {
  constructor(
    target: Pick<MysqlTarget, 'host' | 'port'>,
    /** Which address and rule refused it, for operators. */
    readonly reason: string,
  ) {
    super(`${describeHost(target)} is not allowed by the source policy`, 'SOURCE_NOT_ALLOWED', false);
    this.name = 'SourceNotAllowedError';
  }
}
