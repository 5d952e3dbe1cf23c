/** The memory service's HTTP application (port 8230). */
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { errorHandler, notFound } from '../http-errors';
import type { IdTokenVerifier } from '../auth/id-tokens';
import { identifyMemoryCaller } from './memory-callers';
import type { MemoryAgentKey } from '../../shared/memory-agent-keys';
import { createProcessMetrics } from '../metrics';
import { countFeedGaps } from './memory-metrics';
import type { MemoryService } from '../../domain/memory/memory-service';
import { memoryOpenApi } from './memory-openapi';
import { memoryRoutes } from './memory-routes';
import { mountMethodNotAllowed, mountRoutes } from '../api/mount-routes';

export interface MemoryAppDeps {
  /** Keys that act for anyone (PLAT_MEMORY_API_KEYS): the pipelines, the CLI. */
  apiKeys: string[];
  /** Keys scoped to users and agents (PLAT_MEMORY_AGENT_KEYS; docs/security.md#memory). */
  agentKeys?: MemoryAgentKey[];
  /** Verifies plat's ID tokens, which confine a caller to its own user; none: tokens are refused. */
  tokens?: Pick<IdTokenVerifier, 'verify'>;
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
  // /health first: orchestrators probe it without a key. Everything after knows its caller
  // (docs/security.md#memory) and needs credentials when keys are set.
  const open = routes.filter((r) => r.secured === false);
  app.use(mountMethodNotAllowed(mountRoutes(express.Router(), open), open));
  const agentKeys = deps.agentKeys ?? [];
  app.use(identifyMemoryCaller({ serviceKeys: deps.apiKeys, agentKeys, tokens: deps.tokens }));
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
    const keysRequired = deps.apiKeys.length + agentKeys.length > 0;
    res.json(memoryOpenApi(routes, `${req.protocol}://${req.get('host')}`, keysRequired));
  });
  const secured = routes.filter((r) => r.secured !== false);
  app.use(mountMethodNotAllowed(mountRoutes(express.Router(), secured), secured));

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
