/** The platform gateway's HTTP application (REST API, auth, health, metrics, web UI). */
import express, { type Express } from 'express';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ProjectStore } from '../activities/analysis/project-store';
import type { ParameterStore } from '../activities/secrets/parameter-store';
import { repoRoot } from '../shared/paths';
import { authRoutes, requireUser } from './auth/auth-routes';
import type { IdTokens } from './auth/id-tokens';
import type { UserStore } from './auth/user-store';
import { deepHealth } from './deep-health';
import { errorHandler, notFound } from './http-errors';
import { accessLog } from './access-log';
import { createProcessMetrics } from './metrics';
import { platformOpenApi } from './openapi';
import { ProjectService } from './projects/project-service';
import { projectPrefixes, projectRoutes } from './projects/project-routes';

import type { WarehouseEngine } from '../activities/warehouse/warehouse-engine';

export interface PlatformAppDeps {
  client: Client;
  temporalAddress: string;
  taskQueue: string;
  log: Logger;
  store: ProjectStore;
  secrets: ParameterStore;
  /** Root of the embedded warehouse (for SQL access). */
  /** The warehouse engine behind `/query` (embedded DuckDB, or Athena). */
  engine: WarehouseEngine;
  users: UserStore;
  tokens: IdTokens;
  selfSignup: boolean;
  apiStage?: string;
  /** Project creations per user and minute (default 20). */
  createsPerMinute?: number;
  /** How long the deep health check waits for a worker (default 15 s). */
  deepHealthTimeoutMs?: number;
}

export function createPlatformApp(deps: PlatformAppDeps): Express {
  const app = express();
  const metrics = createProcessMetrics('gateway');
  app.disable('x-powered-by');
  app.use(metrics.countRequests);
  app.use(accessLog(deps.log));
  app.use(express.json({ limit: '2mb' }));

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
  app.get('/openapi.json', (req, res) => {
    res.json(platformOpenApi(`${req.protocol}://${req.get('host')}`));
  });
  app.use(authRoutes(deps));

  const service = new ProjectService({
    client: deps.client,
    taskQueue: deps.taskQueue,
    store: deps.store,
    secrets: deps.secrets,
  });
  const routes = projectRoutes(service, deps.store, deps.engine, deps.createsPerMinute);
  for (const prefix of projectPrefixes(deps.apiStage)) app.use(prefix, requireUser(deps.tokens), routes);

  // Pages that render a project's reports; they fetch the data with the user's token.
  const page = (file: string) => (_req: express.Request, res: express.Response) =>
    res.sendFile(path.join(repoRoot, 'web', file));
  app.get('/ui/projects/:id/dashboard', page('dashboard.html'));
  app.get('/ui/projects/:id/profile', page('profile.html'));
  app.use(express.static(path.join(repoRoot, 'web'), { index: 'index.html' }));
  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
