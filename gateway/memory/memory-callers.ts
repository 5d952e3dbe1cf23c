/**
 * Who calls the memory service (docs/security.md#memory), told apart on every request:
 *
 * - a **user**, by a plat ID token: acts for that user alone;
 * - an **agent key** (PLAT_MEMORY_AGENT_KEYS): acts for the users and agents it names, and writes the
 *   shared space only when it says so;
 * - a **service key** (PLAT_MEMORY_API_KEYS): the pipelines and the CLI, for anyone;
 * - nobody, on a loopback service with no key at all: a one-person install, open to this machine.
 */
import { timingSafeEqual } from 'node:crypto';
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
  const service = opts.serviceKeys.map((k) => Buffer.from(k));
  const agents = opts.agentKeys.map((k) => ({ key: k, bytes: Buffer.from(k.key) }));
  const open = service.length === 0 && agents.length === 0;
  const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);
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
    const given = Buffer.from(bearer);
    if (service.some((k) => equal(k, given))) return identified({ kind: 'service' });
    const agent = agents.find((a) => equal(a.bytes, given));
    if (agent) return identified({ kind: 'agent', key: agent.key });
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
