/** The platform gateway's HTTP application (REST API, health, metrics). */
import express, { type Express } from 'express';
import * as path from 'node:path';
import { repoRoot } from '../shared/paths';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { deepHealth } from './deep-health';
import { errorHandler, notFound } from './http-errors';
import { createProcessMetrics } from './metrics';

export interface PlatformAppDeps {
  client: Client;
  temporalAddress: string;
  taskQueue: string;
  log: Logger;
  /** How long the deep health check waits for a worker (default 15 s). */
  deepHealthTimeoutMs?: number;
}

export function createPlatformApp(deps: PlatformAppDeps): Express {
  const app = express();
  const metrics = createProcessMetrics('gateway');
  app.disable('x-powered-by');
  app.use(metrics.countRequests);
  app.use(express.json({ limit: '1mb' }));

  app.get('/health', async (req, res) => {
    if (!['1', 'true'].includes(String(req.query.deep ?? ''))) {
      res.json({ status: 'ok', service: 'gateway' });
      return;
    }
    const health = await deepHealth(
      deps.client,
      deps.temporalAddress,
      deps.taskQueue,
      deps.deepHealthTimeoutMs,
    );
    res.status(health.status === 'ok' ? 200 : 503).json(health);
  });
  app.get('/metrics', metrics.serve);
  app.use(express.static(path.join(repoRoot, 'web'), { index: 'index.html' }));

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
