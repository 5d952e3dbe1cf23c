/** Entry point of the platform worker process (`npm run worker`). */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Runtime } from '@temporalio/worker';
import * as path from 'node:path';
import { platformSchedules } from '../schedules/platform-schedules';
import { registerSchedules } from '../schedules/register-schedules';
import { loadConfigOrExit } from '../shared/load-config-or-exit';
import { createLogger } from '../shared/logger';
import { dataDir } from '../shared/paths';
import { temporalAddress } from '../shared/temporal-address';
import { llmSettings } from '../domain/llm/llm-settings';
import { memoryUrl, publicUrl } from '../shared/service-urls';
import { dataDirDeps } from './platform-activities';
import { createPlatformWorker } from './platform-worker';
import { ensureSearchAttributes } from './search-attribute-registration';
import { temporalLoggerFor } from './temporal-logger';
import { countingFailures, warehouseFailureCounter } from '../domain/warehouse/failure-counting-warehouse';
import { createWorkerMetrics, serveMetrics } from './worker-metrics';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('worker', config.LOG_LEVEL);
  const temporalLogger = temporalLoggerFor(log);
  Runtime.install({ logger: temporalLogger });
  const address = temporalAddress(config);
  const metrics = createWorkerMetrics();
  const metricsServer = await serveMetrics(
    metrics.registry,
    config.PLAT_WORKER_METRICS_HOST,
    config.PLAT_WORKER_METRICS_PORT,
  );
  const connection = await connectWithRetry(address, log);
  const activityDeps = await dataDirDeps(dataDir(config), {
    secretKey: config.PLAT_SECRET_KEY,
    metadataUrl: config.PLAT_METADATA_URL,
    llm: llmSettings(config),
    publicUrl: publicUrl(config),
    warehouse: config,
    memory: {
      workspaces: config.PLAT_MEMORY_WORKSPACES,
      url: memoryUrl(config),
      apiKey: config.PLAT_MEMORY_API_KEY ?? config.PLAT_MEMORY_API_KEYS[0],
    },
    opensearchUrl: config.OPENSEARCH_URL,
  });
  const worker = await createPlatformWorker({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.PLAT_TASK_QUEUE,
    bundleCacheDir: path.join(dataDir(config), 'cache'),
    deps: {
      ...activityDeps,
      engine: countingFailures(activityDeps.engine, warehouseFailureCounter(metrics.registry)),
      onStoredEvents: metrics.observe,
      gauges: metrics,
    },
    logger: temporalLogger,
    metrics: metrics.registry,
  });

  const clientConnection = await Connection.connect({ address });
  const client = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
  await ensureSearchAttributes(clientConnection, config.TEMPORAL_NAMESPACE, log);
  await registerSchedules(client, platformSchedules(config), log);
  await clientConnection.close();

  log.info({ task_queue: config.PLAT_TASK_QUEUE, temporal: address }, 'worker polling');
  // Worker.run() returns after SIGINT/SIGTERM once in-flight tasks have finished.
  await worker.run();
  await activityDeps.agentLogs?.close();
  await connection.close();
  metricsServer.close();
  log.info('worker stopped');
}

/** Waits for Temporal to accept connections (it may still be starting), up to 60 s. */
async function connectWithRetry(
  address: string,
  log: ReturnType<typeof createLogger>,
): Promise<NativeConnection> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await NativeConnection.connect({ address });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      log.warn({ temporal: address }, 'Temporal not reachable yet; retrying');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
