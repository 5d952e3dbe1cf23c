/** GET /health: the process is up; with `?deep=1`, Temporal answers and a worker runs a ping workflow. */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { apiRoute, type ApiRoute } from './api/api-route';
import type { Request } from 'express';
import type { IdTokens, TokenSubject } from './auth/id-tokens';
import { deepHealth, sharedDeepHealth } from './deep-health';
import { healthSchema } from './projects/project-responses';

const healthQuery = z
  .object({
    deep: z.enum(['0', '1', 'false', 'true']).optional().describe('1: also check Temporal and a worker'),
  })
  .strict();

export function healthRoute(deps: {
  client: Client;
  temporalAddress: string;
  taskQueue: string;
  deepHealthTimeoutMs?: number;
  /** Verifies an operator's bearer token: only operators see the checks' details. */
  tokens: IdTokens;
}): ApiRoute {
  const check = () => deepHealth(deps.client, deps.temporalAddress, deps.taskQueue, deps.deepHealthTimeoutMs);
  const shared = sharedDeepHealth(check);
  return apiRoute({
    operationId: 'health',
    method: 'get',
    path: '/health',
    summary:
      'Liveness; with deep=1, Temporal and a worker too (503 when either fails; the checks, with addresses and pids, for operators only)',
    secured: false,
    query: healthQuery,
    responses: {
      200: { description: 'up', schema: healthSchema },
      503: { description: 'Temporal or the worker did not answer', schema: healthSchema },
    },
    handle: async ({ req, query, res }) => {
      if (query.deep !== '1' && query.deep !== 'true') return { status: 'ok', service: 'gateway' };
      // An operator gets a check of their own, with its details; anyone else shares one, and hears
      // only whether the platform answers (docs/security.md#health).
      const operator = (await callerOf(req, deps.tokens))?.roles.includes('operator');
      const health = operator ? await check() : await shared();
      const answer = operator ? health : { status: health.status, service: health.service };
      if (health.status !== 'ok') res.status(503).json(answer);
      return answer;
    },
  });
}

/** The bearer token's subject when it verifies; nobody otherwise (an open route refuses no one). */
async function callerOf(req: Request, tokens: IdTokens): Promise<TokenSubject | undefined> {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  return match ? tokens.verify(match[1]).catch(() => undefined) : undefined;
}
