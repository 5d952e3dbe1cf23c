/**
 * A per-user limit counted in the metadata store (docs/fleet.md#shared-state), so it holds for the
 * whole fleet rather than once per gateway: a user's calls of one kind per minute, in fixed windows
 * that start at the first call. 429 with Retry-After past the limit.
 */
import type { RequestHandler } from 'express';
import type { AttemptCounters } from '../domain/metadata-store/attempt-counters';
import { addressKey } from './auth/address-key';
import { HttpError } from './http-errors';

const MINUTE_MS = 60_000;

/** Allows `perMinute` calls named `name` per user (or client address, signed out) and minute. */
export function sharedRateLimit(
  counters: AttemptCounters,
  name: string,
  perMinute: number,
  now: () => number = Date.now,
): RequestHandler {
  return (req, res, next) => {
    const who = req.user?.user_id ?? addressKey(req.ip);
    counters.hit(`${name}:${who}`, MINUTE_MS).then((count) => {
      if (count.hits <= perMinute) return next();
      const retryAfter = Math.max(1, Math.ceil((count.resetsAt - now()) / 1000));
      res.set('retry-after', String(retryAfter));
      next(new HttpError(429, 'rate_limited', `at most ${perMinute} per minute; retry in ${retryAfter} s`));
    }, next);
  };
}
