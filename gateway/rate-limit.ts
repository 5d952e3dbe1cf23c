/** A per-user token bucket for expensive calls (creating projects starts agents): 429 when empty. */
import type { RequestHandler } from 'express';
import { HttpError } from './http-errors';
import { addressKey } from './auth/address-key';

export function perUserRateLimit(perMinute: number, now: () => number = Date.now): RequestHandler {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (req, res, next) => {
    const key = req.user?.user_id ?? addressKey(req.ip);
    const t = now();
    const bucket = buckets.get(key) ?? { tokens: perMinute, at: t };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((t - bucket.at) / 60_000) * perMinute);
    bucket.at = t;
    if (bucket.tokens < 1) {
      const retryAfter = Math.ceil(((1 - bucket.tokens) / perMinute) * 60);
      res.set('retry-after', String(retryAfter));
      buckets.set(key, bucket);
      return next(
        new HttpError(429, 'rate_limited', `at most ${perMinute} per minute; retry in ${retryAfter} s`),
      );
    }
    bucket.tokens -= 1;
    buckets.set(key, bucket);
    next();
  };
}
