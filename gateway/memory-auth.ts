/** The memory service's auth policy (docs/requirements.md#memory-api): loopback needs no key; any other bind needs keys. */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { sendError } from './http-errors';

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Throws when the service would be reachable from other machines without any API key. */
export function assertBindAllowed(host: string, apiKeys: string[]): void {
  if (!isLoopback(host) && apiKeys.length === 0) {
    throw new Error(
      `refusing to bind the memory service to ${host} without API keys: set PLAT_MEMORY_API_KEYS ` +
        '(comma-separated) or bind to 127.0.0.1 (PLAT_MEMORY_HOST)',
    );
  }
}

/** Requires `Authorization: Bearer <key>` when keys are configured; passes everything otherwise. */
export function requireApiKey(apiKeys: string[]): RequestHandler {
  const keys = apiKeys.map((k) => Buffer.from(k));
  return (req, res, next) => {
    if (keys.length === 0) return next();
    const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    const given = match ? Buffer.from(match[1]) : undefined;
    if (given && keys.some((k) => k.length === given.length && timingSafeEqual(k, given))) return next();
    sendError(res, 401, 'unauthorized', 'missing or invalid API key (Authorization: Bearer <key>)');
  };
}
