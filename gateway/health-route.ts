/** GET /health: the process is up; with `?deep=1`, Temporal answers and a worker runs a ping workflow. */
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { apiRoute, type ApiRoute } from './api/api-route';
import { deepHealth } from './deep-health';
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
}): ApiRoute {
  return apiRoute({
    operationId: 'health',
    method: 'get',
    path: '/health',
    summary: 'Liveness; with deep=1, Temporal and a worker too (503 naming what failed)',
    secured: false,
    query: healthQuery,
    responses: {
      200: { description: 'up', schema: healthSchema },
      503: { description: 'Temporal or the worker did not answer', schema: healthSchema },
    },
    handle: async ({ query, res }) => {
      if (query.deep !== '1' && query.deep !== 'true') return { status: 'ok', service: 'gateway' };
      const health = await deepHealth(
        deps.client,
        deps.temporalAddress,
        deps.taskQueue,
        deps.deepHealthTimeoutMs,
      );
      if (health.status !== 'ok') res.status(503).json(health);
      return health;
    },
  });
}
