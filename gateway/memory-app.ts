/** The memory service's HTTP application (port 8230). */
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { errorHandler, notFound } from './http-errors';
import { requireApiKey } from './memory-auth';
import { createProcessMetrics } from './metrics';
import { countFeedGaps } from './memory/memory-metrics';
import type { MemoryService } from '../domain/memory/memory-service';
import { memoryOpenApi } from './memory/memory-openapi';
import { memoryRoutes } from './memory/memory-routes';
import { mountMethodNotAllowed, mountRoutes } from './api/mount-routes';

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
  countFeedGaps(metrics.registry, deps.service);
  const routes = memoryRoutes(deps.service);
  // /health first: orchestrators probe it without a key. Everything after needs one (when keys are set).
  const open = routes.filter((r) => r.secured === false);
  app.use(mountMethodNotAllowed(mountRoutes(express.Router(), open), open));
  app.use(requireApiKey(deps.apiKeys));
  app.use(express.json({ limit: '1mb' }));
  new Gauge({
    name: 'plat_memory_reembed_pending',
    help: 'Memories still holding a vector of another embedding model (re-embedded in the background)',
    registers: [metrics.registry],
    collect() {
      this.set(deps.service.reembedProgress().pending);
    },
  });
  app.get('/metrics', metrics.serve);
  app.get('/openapi.json', (req, res) => {
    res.json(memoryOpenApi(routes, `${req.protocol}://${req.get('host')}`, deps.apiKeys.length > 0));
  });
  const secured = routes.filter((r) => r.secured !== false);
  app.use(mountMethodNotAllowed(mountRoutes(express.Router(), secured), secured));

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
