/** Entry point of the platform worker process (`npm run worker`). */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import * as path from 'node:path';
import { platformSchedules } from '../schedules/platform-schedules';
import { registerSchedules } from '../schedules/register-schedules';
import { closeHostWarehousePools } from '../domain/warehouse/process-pool/host-warehouse-pool';
import { loadConfigOrExit } from '../shared/load-config-or-exit';
import { createLogger } from '../shared/logger';
import { dataDir } from '../shared/paths';
import { temporalAddress } from '../shared/temporal-address';
import { llmSettings } from '../domain/llm/llm-settings';
import { memoryUrl, publicUrl } from '../shared/service-urls';
import { SourcePolicy } from '../domain/sources/source-policy';
import { dataDirDeps } from './platform-activities';
import { createPlatformWorker } from './platform-worker';
import { ensureSearchAttributes } from './search-attribute-registration';
import { temporalLoggerFor } from './temporal-logger';
import { countingFailures, warehouseFailureCounter } from '../domain/warehouse/failure-counting-warehouse';
import { createWorkerMetrics, serveMetrics } from './worker-metrics';
import { installRuntimeWithMetrics, sdkMetricsText } from './sdk-metrics';
import { applyWorkerArgs } from './worker-args';
import { parseSlots, parseWorkloads } from '../shared/task-queues';

async function main(): Promise<void> {
  applyWorkerArgs(process.argv.slice(2));
  const config = loadConfigOrExit();
  const log = createLogger('worker', config.LOG_LEVEL);
  const temporalLogger = temporalLoggerFor(log);
  const sdkMetrics = await installRuntimeWithMetrics(temporalLogger);
  const address = temporalAddress(config);
  const metrics = createWorkerMetrics();
  const metricsServer = await serveMetrics(
    metrics.registry,
    config.PLAT_WORKER_METRICS_HOST,
    config.PLAT_WORKER_METRICS_PORT,
    () => sdkMetricsText(sdkMetrics),
  );
  const connection = await connectWithRetry(address, log);
  const activityDeps = await dataDirDeps(dataDir(config), {
    secretKey: config.PLAT_SECRET_KEY,
    previousSecretKey: config.PLAT_SECRET_KEY_PREVIOUS,
    metadataUrl: config.PLAT_METADATA_URL,
    llm: llmSettings(config),
    publicUrl: publicUrl(config),
    warehouse: config,
    memory: {
      workspaces: config.PLAT_MEMORY_WORKSPACES,
      url: memoryUrl(config),
      apiKey: config.PLAT_MEMORY_API_KEY ?? config.PLAT_MEMORY_API_KEYS[0],
    },
    opensearch: config,
    hostLostAfterMs: config.PLAT_HOST_LOST_AFTER_SECONDS * 1000,
    partRows: config.PLAT_INGEST_PART_ROWS,
    maxRowsPerSecond: config.PLAT_INGEST_MAX_ROWS_PER_SECOND,
    sources: SourcePolicy.fromConfig(config),
  });
  const worker = await createPlatformWorker({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.PLAT_TASK_QUEUE,
    workloads: parseWorkloads(config.PLAT_WORKER_QUEUES),
    slots: parseSlots(config.PLAT_WORKER_SLOTS),
    shutdownGraceMs: config.PLAT_WORKER_SHUTDOWN_GRACE_SECONDS * 1000,
    bundleCacheDir: config.PLAT_WORKFLOW_BUNDLE_DIR ?? path.join(dataDir(config), 'cache'),
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

  log.info(
    {
      task_queues: worker.workers.map((w) => w.queue),
      host: activityDeps.host.id,
      temporal: address,
      grace_seconds: config.PLAT_WORKER_SHUTDOWN_GRACE_SECONDS,
    },
    'worker polling',
  );
  // run() returns after SIGINT/SIGTERM: polling stops, running activities get the grace time to
  // finish, then are cancelled (a copy checkpoints and its retry resumes; docs/fleet.md#drain).
  await worker.run();
  // The warehouse children end with this process anyway; stopped here, they end before it does.
  closeHostWarehousePools();
  await activityDeps.agentLogs?.close();
  await connection.close();
  metricsServer.close();
  // What is still open once drained is named, then ends with the process (docs/fleet.md#drain).
  log.info({ open: process.getActiveResourcesInfo() }, 'worker stopped');
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

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
