/**
 * Who calls the memory service (docs/security.md#memory), told apart on every request:
 *
 * - a **user**, by a plat ID token: acts for that user alone;
 * - an **agent key** (PLAT_MEMORY_AGENT_KEYS): acts for the users and agents it names, and writes the
 *   shared space only when it says so;
 * - a **service key** (PLAT_MEMORY_API_KEYS): the pipelines and the CLI, for anyone;
 * - nobody, on a loopback service with no key at all: a one-person install, open to this machine.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { IdTokenVerifier } from '../auth/id-tokens';
import { sendError } from '../http-errors';
import type { MemoryAgentKey } from '../../shared/memory-agent-keys';

export type MemoryCaller =
  | { kind: 'open' }
  | { kind: 'service' }
  | { kind: 'agent'; key: MemoryAgentKey }
  | { kind: 'user'; userId: string };

export interface MemoryCallerOptions {
  /** Keys that act for anyone (PLAT_MEMORY_API_KEYS). */
  serviceKeys: string[];
  /** Keys scoped to users and agents (PLAT_MEMORY_AGENT_KEYS). */
  agentKeys: MemoryAgentKey[];
  /** Verifies plat's ID tokens; none: tokens are refused. */
  tokens?: Pick<IdTokenVerifier, 'verify'>;
}

/** The caller of the request being answered (set by {@link identifyMemoryCaller}). */
export function memoryCallerOf(res: Response): MemoryCaller {
  const caller = res.locals.memoryCaller as MemoryCaller | undefined;
  // Routes are mounted after the middleware: a missing caller is a wiring error, never an open door.
  if (!caller) throw new Error('the memory caller was not identified');
  return caller;
}

/** A bearer value shaped like a JWT: three base64url parts. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/**
 * Identifies the caller from `Authorization: Bearer …`, or answers 401: a token that does not verify,
 * a key that is not one of ours, no credentials where keys are configured.
 */
export function identifyMemoryCaller(opts: MemoryCallerOptions): RequestHandler {
  // Keys are compared as SHA-256 digests, every one of them each time: neither a key's length nor
  // its place in the lists shows in how long a refusal takes.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const known = [
    ...opts.serviceKeys.map((k) => ({ digest: digest(k), caller: { kind: 'service' } as MemoryCaller })),
    ...opts.agentKeys.map((k) => ({
      digest: digest(k.key),
      caller: { kind: 'agent', key: k } as MemoryCaller,
    })),
  ];
  const seen = new Set<string>();
  for (const k of known) {
    const hex = k.digest.toString('hex');
    // One value in two places would act as whichever is checked first: a scoped key as a service key.
    if (seen.has(hex))
      throw new Error('a memory key is configured twice (PLAT_MEMORY_API_KEYS, PLAT_MEMORY_AGENT_KEYS)');
    seen.add(hex);
  }
  const open = known.length === 0;
  const match = (bearer: string): MemoryCaller | undefined => {
    const given = digest(bearer);
    let found: MemoryCaller | undefined;
    for (const k of known) if (timingSafeEqual(k.digest, given) && !found) found = k.caller;
    return found;
  };
  return (req, res, next) => {
    const bearer = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
    const identified = (caller: MemoryCaller) => {
      res.locals.memoryCaller = caller;
      next();
    };
    if (!bearer) {
      if (open) return identified({ kind: 'open' });
      return sendError(
        res,
        401,
        'unauthorized',
        'missing credentials (Authorization: Bearer <ID token or key>)',
      );
    }
    const keyed = match(bearer);
    if (keyed) return identified(keyed);
    if (opts.tokens && JWT_SHAPE.test(bearer)) {
      opts.tokens.verify(bearer).then(
        (subject) => identified({ kind: 'user', userId: subject.user_id }),
        (err: Error) => sendError(res, 401, 'invalid_token', `the ID token was refused: ${err.message}`),
      );
      return;
    }
    // With no key configured, keys are not checked (a client sending one it was given elsewhere).
    if (open) return identified({ kind: 'open' });
    sendError(
      res,
      401,
      'unauthorized',
      'missing or invalid credentials (Authorization: Bearer <ID token or key>)',
    );
  };
}
