/** Prometheus metrics for one process, served at `/metrics`. */
import type { RequestHandler } from 'express';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

export interface ProcessMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  /** Counts every request by route template and status. */
  countRequests: RequestHandler;
  /** Serves the registry in the Prometheus text format. */
  serve: RequestHandler;
}

export function createProcessMetrics(service: string): ProcessMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: 'plat_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  return {
    registry,
    httpRequests,
    countRequests: (req, res, next) => {
      res.on('finish', () => {
        const route = (req.route?.path as string | undefined) ?? 'unmatched';
        httpRequests.inc({ method: req.method, route, status: String(res.statusCode) });
      });
      next();
    },
    serve: async (_req, res) => {
      res.type(registry.contentType).send(await registry.metrics());
    },
  };
}
