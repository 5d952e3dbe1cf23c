/** The platform gateway's HTTP application (REST API, auth, health, metrics, web UI). */
import { registerRefreshStaleness } from '../projects/refresh-metrics';
import { RefreshService } from '../projects/refresh-service';
import { refreshApi } from '../projects/refresh-api';
import { RefreshScheduleService } from '../projects/refresh-schedule-service';
import type { AttemptCounters } from '../../domain/metadata-store/attempt-counters';
import { sharedRateLimit } from '../shared-rate-limit';
import { perUserRateLimit } from '../rate-limit';
import { QuerySlots } from '../projects/query-slots';
import type { LeaseSlots } from '../../domain/metadata-store/lease-slots';
import { countingFailures, warehouseFailureCounter } from '../../domain/warehouse/failure-counting-warehouse';
import express, { type Express } from 'express';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ParameterStore } from '../../domain/secrets/parameter-store';
import type { SourcePolicy } from '../../domain/sources/source-policy';
import { authApi, requireUser } from '../auth/auth-routes';
import type { IdTokens } from '../auth/id-tokens';
import type { UserStore } from '../auth/user-store';
import { requireOperator } from '../auth/require-operator';
import { userRolesApi } from '../auth/user-roles-api';
import type { SignInLimits } from '../auth/sign-in-limits';
import type { TrustProxy } from '../../shared/trust-proxy';
import { errorHandler, notFound } from '../http-errors';
import { accessLog } from '../access-log';
import type { LogShipper } from '../../domain/search-ops/plat-logs/log-shipper';
import { createProcessMetrics } from '../metrics';
import { platformOpenApi } from '../openapi';
import { ProjectService } from '../projects/project-service';
import { projectApi, underPrefix } from '../projects/project-api';
import { pricingRoute } from '../projects/pricing-route';
import { healthRoute } from '../health-route';
import { indexOpsApi } from '../search/index-ops-api';
import { lifecycleApi } from '../search/lifecycle-api';
import { searchApi } from '../search/search-api';
import { simulateApi } from '../search/simulate-api';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { mountMethodNotAllowed, mountRoutes } from '../api/mount-routes';
import { mountWebPages, uiConfigRoute, type TemporalUiSettings } from '../web/web-pages';

import type { WarehouseEngine } from '../../domain/warehouse/warehouse-engine';
import type { AlarmStore } from '../../domain/monitoring/alarm-store';
import { alarmRoutes } from '../alarms/alarm-routes';

export interface PlatformAppDeps {
  client: Client;
  temporalAddress: string;
  taskQueue: string;
  log: Logger;
  store: ProjectStore;
  secrets: ParameterStore;
  /** Which sources a new project may have (PLAT_SOURCE_ALLOW, PLAT_SOURCE_DENY, plat's services). */
  sources: SourcePolicy;
  /** The warehouse engine behind `/query` (embedded DuckDB, or Athena). */
  engine: WarehouseEngine;
  /** This host's id: a project whose files another host holds is queried there (docs/fleet.md#project-files). */
  hostId?: string;
  users: UserStore;
  tokens: IdTokens;
  selfSignup: boolean;
  /** Sign-in attempts per address and failures per user name, shared by every gateway. */
  signInLimits: SignInLimits;
  /** PLAT_TRUST_PROXY: the proxies whose X-Forwarded-For names the client (unset: none). */
  trustProxy?: TrustProxy;
  apiStage?: string;
  /** Project creations per user and minute (default 20). */
  createsPerMinute?: number;
  /** Where per-user limits are counted for the whole fleet (the metadata store); absent, per process. */
  counters?: AttemptCounters;
  /** `/query` calls one user may have running at once, on all gateways together. */
  queriesPerUser?: number;
  /** Where those are counted across gateways (the metadata store); absent, in this process only. */
  querySlots?: LeaseSlots;
  /** Refreshes one owner's projects may have running at once (PLAT_REFRESHES_PER_USER). */
  refreshesPerUser?: number;
  /** The OpenSearch cluster of the /v1/search operations; absent, they answer 503. */
  search?: OpenSearchClient;
  /** API access logs to OpenSearch (the `plat-access-logs` alias), when it is configured. */
  accessLogs?: LogShipper;
  /** How long the deep health check waits for a worker (default 15 s). */
  deepHealthTimeoutMs?: number;
  /** Where the Temporal Web UI is, for the monitor page's workflow link. */
  temporalUi?: TemporalUiSettings;
  /** What Alertmanager reported, and the bearer token its webhook presents (unset: 503). */
  alarms: AlarmStore;
  alertsWebhookToken?: string;
  /** PLAT_ALARM_HOUR: the alarms' periods as Prometheus evaluates them (default 1h). */
  alarmHour?: string;
}

/** `/projects`, `/v1/projects` and, with a stage, `/<stage>/projects` and `/<stage>/v1/projects`. */
export function projectPrefixes(stage?: string): string[] {
  const base = ['/projects', '/v1/projects'];
  return stage ? [...base, ...base.map((p) => `/${stage}${p}`)] : base;
}

/**
 * Every route of the platform API, in three groups: open (no credentials), the project routes (served
 * under each prefix) and the operators' routes. The app serves them and `/openapi.json` describes them.
 */
export function platformRoutes(deps: PlatformAppDeps) {
  const service = new ProjectService({
    client: deps.client,
    taskQueue: deps.taskQueue,
    store: deps.store,
    secrets: deps.secrets,
    sources: deps.sources,
  });
  const open = [healthRoute(deps), ...authApi(deps), uiConfigRoute(deps), pricingRoute()];
  const refreshes = new RefreshService({
    client: deps.client,
    taskQueue: deps.taskQueue,
    store: deps.store,
    perUser: deps.refreshesPerUser,
  });
  const projects = [
    ...projectApi(
      service,
      deps.store,
      { engine: deps.engine, client: deps.client, taskQueue: deps.taskQueue, hostId: deps.hostId },
      // Creating a project starts agents: limited per user across every gateway of the fleet.
      deps.counters
        ? sharedRateLimit(deps.counters, 'create-project', deps.createsPerMinute ?? 20)
        : perUserRateLimit(deps.createsPerMinute ?? 20),
      deps.search,
      new QuerySlots({ perUser: deps.queriesPerUser, shared: deps.querySlots }),
    ),
    ...refreshApi(
      refreshes,
      new RefreshScheduleService({
        client: deps.client,
        taskQueue: deps.taskQueue,
        store: deps.store,
        refreshes,
      }),
    ),
  ];
  const search = [
    ...searchApi(deps.search),
    ...lifecycleApi(deps.search),
    ...indexOpsApi(deps.search),
    ...simulateApi(deps.search),
  ];
  const alarms = alarmRoutes(deps.alarms, deps.alertsWebhookToken, deps.alarmHour);
  // Search operations, alarms and roles are the operators' (each route says so with `role`).
  const operated = [...search, ...alarms, ...userRolesApi(deps.users)];
  return { open, projects, operated };
}

export function createPlatformApp(deps: PlatformAppDeps): Express {
  const app = express();
  const metrics = createProcessMetrics('gateway');
  registerRefreshStaleness(metrics.registry, deps.store);
  app.disable('x-powered-by');
  // Only named proxies may set the client's address: per-address limits count by it.
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);
  app.use(metrics.countRequests);
  app.use(accessLog(deps.log, deps.accessLogs));
  app.use(express.json({ limit: '2mb' }));

  const { open, projects, operated } = platformRoutes({
    ...deps,
    engine: countingFailures(deps.engine, warehouseFailureCounter(metrics.registry)),
  });
  app.get('/metrics', metrics.serve);
  app.get('/openapi.json', (req, res) => {
    res.json(platformOpenApi([...open, ...projects, ...operated], `${req.protocol}://${req.get('host')}`));
  });
  const router = express.Router();
  mountRoutes(router, open);
  const served = projectPrefixes(deps.apiStage).flatMap((prefix) => underPrefix(projects, prefix));
  mountRoutes(router, [...served, ...operated], {
    guard: requireUser(deps.tokens),
    operatorGuard: requireOperator,
  });
  mountMethodNotAllowed(router, [...open, ...served, ...operated]);
  app.use(router);

  mountWebPages(app);
  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
