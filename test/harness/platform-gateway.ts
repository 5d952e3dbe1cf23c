/** The real platform gateway app on an ephemeral port, wired to a data directory of this run. */
import type { Client } from '@temporalio/client';
import * as fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createPlatformApp } from '../../gateway/platform/platform-app';
import { platformDeps } from '../../gateway/platform/platform-deps';
import { attachEventHub } from '../../gateway/ws/event-hub';
import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { harness } from './harness-state';

export interface TestGateway {
  base: string;
  dataDir: string;
  deps: Awaited<ReturnType<typeof platformDeps>>;
  stop(): Promise<void>;
}

export function newTestDataDir(): string {
  return fs.mkdtempSync(path.join(harness().runDir, 'data-'));
}

export async function startTestGateway(opts: {
  client: Client;
  taskQueue: string;
  dataDir?: string;
  selfSignup?: boolean;
  apiStage?: string;
  deepHealthTimeoutMs?: number;
  /** The OpenSearch cluster of /v1/search (none: those answer 503). */
  opensearchUrl?: string;
  /** More settings, as environment variables would give them (OPENSEARCH_AWS_REGION, PLAT_TRUST_PROXY, ...). */
  env?: Record<string, string>;
  /** The bearer token of Alertmanager's webhook at POST /v1/alerts (none: it answers 503). */
  alertsWebhookToken?: string;
  /** PLAT_ALARM_HOUR as the gateway reports the alarms' periods (default 1h). */
  alarmHour?: string;
}): Promise<TestGateway> {
  const dataDir = opts.dataDir ?? newTestDataDir();
  const config = loadConfig({
    ...(opts.opensearchUrl ? { OPENSEARCH_URL: opts.opensearchUrl } : {}),
    ...opts.env,
  });
  const deps = await platformDeps(dataDir, config);
  const app = createPlatformApp({
    client: opts.client,
    temporalAddress: harness().temporal.address,
    taskQueue: opts.taskQueue,
    log: createLogger('gateway-test', 'silent'),
    ...deps,
    selfSignup: opts.selfSignup ?? true,
    trustProxy: config.PLAT_TRUST_PROXY,
    apiStage: opts.apiStage,
    deepHealthTimeoutMs: opts.deepHealthTimeoutMs ?? 3000,
    temporalUi: { namespace: 'default', url: harness().temporal.uiUrl },
    alertsWebhookToken: opts.alertsWebhookToken,
    alarmHour: opts.alarmHour,
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const hub = attachEventHub(server, {
    ...deps,
    pollMs: 100,
    connectionsPerUser: config.PLAT_WS_CONNECTIONS_PER_USER,
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dataDir,
    deps,
    async stop() {
      hub.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The last access-log lines, while the cluster is still up; no timer left behind.
      await deps.accessLogs?.close();
    },
  };
}
