/**
 * Limits on password guessing at POST /auth/login and /auth/signup, counted in the metadata store
 * so they hold across every gateway of a deployment (docs/fleet.md#shared-state): attempts per client
 * address and minute, and failures per user name and window. A success clears its name's failures.
 * The client address is the connection's, or X-Forwarded-For's only through the proxies
 * PLAT_TRUST_PROXY names.
 */
import type { Request, Response } from 'express';
import type { AttemptCounters, WindowCount } from '../../domain/metadata-store/attempt-counters';
import { HttpError } from '../http-errors';
import { addressKey } from './address-key';

export interface SignInLimitSettings {
  /** Attempts per client address and minute (PLAT_AUTH_ATTEMPTS_PER_IP). */
  attemptsPerAddress: number;
  /** Failures per user name and window (PLAT_LOGIN_FAILURES_PER_USER). */
  failuresPerUser: number;
  /** PLAT_LOGIN_FAILURE_WINDOW_SECONDS. */
  failureWindowSeconds: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimitSettings = {
  attemptsPerAddress: 30,
  failuresPerUser: 10,
  failureWindowSeconds: 900,
};

const ADDRESS_WINDOW_MS = 60_000;

/** The 429 of a window that is full, with Retry-After set to when it ends. */
function rateLimited(res: Response, count: WindowCount, now: number, what: string): HttpError {
  const retryAfter = Math.max(1, Math.ceil((count.resetsAt - now) / 1000));
  res.set('retry-after', String(retryAfter));
  return new HttpError(429, 'rate_limited', `too many sign-in attempts ${what}; retry in ${retryAfter} s`, {
    retry_after_seconds: retryAfter,
  });
}

export class SignInLimits {
  constructor(
    private readonly counters: AttemptCounters,
    private readonly settings: SignInLimitSettings = DEFAULT_SIGN_IN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts a well-formed attempt against the client's address, then against `username` as a failure
   * until {@link succeeded} clears it (so guesses racing on several gateways all count); throws 429
   * when either window is full. Malformed requests are refused by validation before they get here.
   */
  async attempt(req: Request, username: string, res: Response): Promise<void> {
    // An IPv6 client is counted by its /64: it can pick any address inside it.
    const address = await this.counters.hit(`auth-ip:${addressKey(req.ip)}`, ADDRESS_WINDOW_MS);
    if (address.hits > this.settings.attemptsPerAddress)
      throw rateLimited(res, address, this.now(), 'from this address');
    const user = await this.counters.hit(userKey(username), this.settings.failureWindowSeconds * 1000);
    if (user.hits > this.settings.failuresPerUser)
      throw rateLimited(res, user, this.now(), 'for this user name');
  }

  /** The attempt on `username` succeeded: its earlier failures no longer count. */
  async succeeded(username: string): Promise<void> {
    await this.counters.clear(userKey(username));
  }
}

const userKey = (username: string) => `auth-user:${username}`;
