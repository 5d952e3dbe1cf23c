/** Entry point of the platform gateway (`npm run gateway`). */
// First: sizes the thread pool before anything starts it.
import '../thread-pool-size';
import { Client, Connection } from '@temporalio/client';
import { loadConfigOrExit } from '../../shared/load-config-or-exit';
import { createLogger } from '../../shared/logger';
import { temporalAddress } from '../../shared/temporal-address';
import { listenUntilSignalled } from '../listen';
import { createPlatformApp } from './platform-app';
import { attachEventHub } from '../ws/event-hub';
import { platformDeps } from './platform-deps';
import { dataDir } from '../../shared/paths';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('gateway', config.LOG_LEVEL);
  const address = temporalAddress(config);
  // Lazy: the gateway serves (and reports Temporal as unavailable) even while Temporal is down.
  const connection = Connection.lazy({ address });
  const client = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const deps = await platformDeps(dataDir(config), config);
  const app = createPlatformApp({
    client,
    temporalAddress: address,
    taskQueue: config.PLAT_TASK_QUEUE,
    log,
    ...deps,
    selfSignup: config.PLAT_SELF_SIGNUP,
    trustProxy: config.PLAT_TRUST_PROXY,
    apiStage: config.PLAT_API_STAGE,
    createsPerMinute: config.PLAT_PROJECT_CREATES_PER_MINUTE,
    queriesPerUser: config.PLAT_QUERIES_PER_USER,
    refreshesPerUser: config.PLAT_REFRESHES_PER_USER,
    alertsWebhookToken: config.PLAT_ALERTS_WEBHOOK_TOKEN,
    alarmHour: config.PLAT_ALARM_HOUR,
    temporalUi: {
      namespace: config.TEMPORAL_NAMESPACE,
      url: config.TEMPORAL_UI_URL,
      // `npm start` runs the dev server, and its UI, when no cluster is configured.
      embeddedPort: config.TEMPORAL_ADDRESS ? undefined : config.TEMPORAL_UI_PORT,
    },
  });
  const server = await listenUntilSignalled(
    app,
    config.PLAT_GATEWAY_HOST,
    config.PLAT_GATEWAY_PORT,
    log,
    async () => {
      hub.close();
      await deps.accessLogs?.close();
      await connection.close();
    },
  );
  const hub = attachEventHub(server, { ...deps, connectionsPerUser: config.PLAT_WS_CONNECTIONS_PER_USER });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
