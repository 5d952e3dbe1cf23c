/** The memory service's HTTP application (port 8230). */
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { errorHandler, notFound } from './http-errors';
import { requireApiKey } from './memory-auth';
import { createProcessMetrics } from './metrics';
import type { MemoryService } from '../activities/memory/memory-service';
import { memoryOpenApi } from './memory/memory-openapi';
import { memoryRoutes } from './memory/memory-routes';

export interface MemoryAppDeps {
  apiKeys: string[];
  log: Logger;
  service: MemoryService;
}

export function createMemoryApp(deps: MemoryAppDeps): Express {
  const app = express();
  const metrics = createProcessMetrics('memory');
  app.disable('x-powered-by');
  app.use(metrics.countRequests);
  // Liveness for orchestrators, which carry no API key; it reveals nothing.
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: 'memory' });
  });
  app.use(requireApiKey(deps.apiKeys));
  app.use(express.json({ limit: '1mb' }));
  app.get('/metrics', metrics.serve);
  app.get('/openapi.json', (req, res) => {
    res.json(memoryOpenApi(`${req.protocol}://${req.get('host')}`));
  });
  app.use(memoryRoutes(deps.service));

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
