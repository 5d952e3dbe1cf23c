/**
 * `npm start`: the whole platform on embedded defaults, in one terminal. Ctrl-C stops every child.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PlatConfig } from '../shared/config';
import { loadConfigOrExit } from '../shared/load-config-or-exit';
import { dataDir } from '../shared/paths';
import { temporalAddress } from '../shared/temporal-address';
import { endChildrenWithLauncher, waitUntil, type ChildService } from './lib/child-service';
import { portInUse } from '../shared/free-port';
import { startLifeline, type Lifeline } from './lib/lifeline';
import { DEMO_DATABASE_NAME } from './demo-data/demo-database';
import { mariaDbClientTarget } from './demo-data/load-database';
import { loadDemoDatabase, loadZooSchema } from './demo-data/load-demo-database';
import { ZOO } from './demo-data/zoo';
import { startPrivateMariaDb } from './lib/mariadb-instance';
import { httpOk, startNodeService } from './lib/node-service';
import { startOpenSearch } from './lib/opensearch-node';
import { parseStartArgs, startHelp, type StartOptions } from './lib/start-options';
import { startTemporalDevServer } from './lib/temporal-dev-server';
import { alertsWebhookToken, provisionMonitoring, startPlatMonitoring } from './lib/plat-monitoring';
import { fleetSecretKey, provisionPostgres, startPlatPostgres } from './lib/plat-postgres';
import { redactUrl } from '../domain/metadata-store/metadata-db';

const children: ChildService[] = [];
let lifeline: Lifeline | undefined;
let stopping = false;

async function main(): Promise<void> {
  const opts = parseOrExit();
  const config = loadConfigOrExit();
  const started = Date.now();
  const data = dataDir(config);
  const logs = path.join(data, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
  process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));
  stopWhenOrphaned();

  await assertPortsFree(config, opts);
  // Every child from here on ends with us, even if we are SIGKILLed.
  lifeline = startLifeline();
  endChildrenWithLauncher(lifeline);
  const urls: [string, string][] = [];

  if (!config.TEMPORAL_ADDRESS) {
    step('Temporal dev server');
    fs.mkdirSync(path.join(data, 'temporal'), { recursive: true });
    const dev = await startTemporalDevServer({
      port: config.TEMPORAL_DEV_PORT,
      uiPort: config.TEMPORAL_UI_PORT,
      dbFile: path.join(data, 'temporal', 'temporal.db'),
      namespace: config.TEMPORAL_NAMESPACE,
      logFile: path.join(logs, 'temporal.log'),
    });
    watch(dev.service);
    urls.push(['Temporal Web UI', dev.uiUrl!]);
  }
  urls.push(['Temporal gRPC', temporalAddress(config)]);

  const env: NodeJS.ProcessEnv = { ...process.env, PLAT_DATA_DIR: data };
  if (opts.withOpenSearch && !config.OPENSEARCH_URL) {
    step('OpenSearch');
    const os = await startOpenSearch({
      port: config.OPENSEARCH_PORT,
      dataDir: path.join(data, 'opensearch'),
      logFile: path.join(logs, 'opensearch.log'),
    });
    watch(os.service);
    env.OPENSEARCH_URL = os.url;
    const ism = os.plugins.includes('opensearch-index-management');
    urls.push([
      'OpenSearch',
      `${os.url}  (${ism ? 'lifecycle by ISM' : `no ISM plugin (Maven Central lacks it): lifecycle by plat's engine, schedule plat-index-lifecycle every ${config.PLAT_LIFECYCLE_INTERVAL}`})`,
    ]);
  } else if (env.OPENSEARCH_URL) urls.push(['OpenSearch', redactUrl(env.OPENSEARCH_URL)]);

  if (opts.withDemoDb) {
    step(`demo MariaDB with database ${DEMO_DATABASE_NAME} (scale ${opts.demoScale})`);
    const db = await startPrivateMariaDb({
      dataDir: path.join(data, 'demo-mariadb'),
      port: config.PLAT_DEMO_DB_PORT,
      logFile: path.join(logs, 'mariadb.log'),
    });
    watch(db.service);
    const demo = await loadDemoDatabase(mariaDbClientTarget(db), { scale: opts.demoScale });
    const how =
      demo.status === 'loaded'
        ? `generated and loaded in ${(demo.durationMs / 1000).toFixed(1)} s`
        : 'up to date';
    urls.push([
      `Demo MySQL (${how})`,
      `jdbc:mysql://127.0.0.1:${db.port}/${DEMO_DATABASE_NAME}  user ${db.user} password ${db.password}`,
    ]);
    if (opts.withZoo) {
      step(`schema zoo: ${ZOO.length} small databases`);
      for (const zoo of ZOO) {
        await loadZooSchema(mariaDbClientTarget(db), zoo);
        urls.push([`  ${zoo.name}`, `jdbc:mysql://127.0.0.1:${db.port}/${zoo.name}  ${zoo.summary}`]);
      }
    }
  }

  if (opts.withPostgres && !config.PLAT_METADATA_URL) {
    step('PostgreSQL (shared metadata store)');
    await provisionPostgres();
    const pg = await startPlatPostgres({
      dataDir: data,
      port: config.PLAT_POSTGRES_PORT,
      logFile: path.join(logs, 'postgres.log'),
    });
    watch(pg.instance.service);
    env.PLAT_METADATA_URL = pg.url;
    const secret = fleetSecretKey(config.PLAT_SECRET_KEY, data);
    env.PLAT_SECRET_KEY = secret.key;
    urls.push([
      'Metadata store (PostgreSQL)',
      `${redactUrl(pg.url)}${secret.file ? `  (secret key in ${secret.file}: another host joins with PLAT_METADATA_URL and PLAT_SECRET_KEY)` : ''}`,
    ]);
  } else if (config.PLAT_METADATA_URL)
    urls.push(['Metadata store (PostgreSQL)', redactUrl(config.PLAT_METADATA_URL)]);

  const monitoringDir = path.join(data, 'monitoring');
  if (opts.withMonitoring) {
    await provisionMonitoring();
    env.PLAT_ALERTS_WEBHOOK_TOKEN = alertsWebhookToken(config, monitoringDir);
  }

  step('worker, gateway, memory service');
  const echo = (name: string) => (line: string) => {
    // Children log JSON to .data/logs; the terminal shows only what needs a person's eye.
    if (!/"level":"(INFO|DEBUG|TRACE)"/.test(line)) console.log(`[${name}] ${line}`);
  };
  const worker = watch(startNodeService('worker', 'workers/main.ts', logs, env, echo('worker')));
  const gateway = watch(
    startNodeService('gateway', 'gateway/platform/platform-main.ts', logs, env, echo('gateway')),
  );
  const memory = watch(
    startNodeService('memory', 'gateway/memory/memory-main.ts', logs, env, echo('memory')),
  );
  const gatewayUrl = `http://${displayHost(config.PLAT_GATEWAY_HOST)}:${config.PLAT_GATEWAY_PORT}`;
  const memoryUrl = `http://${displayHost(config.PLAT_MEMORY_HOST)}:${config.PLAT_MEMORY_PORT}`;
  await Promise.all([
    waitUntil('gateway', () => httpOk(`${gatewayUrl}/health`), { timeoutMs: 60_000, service: gateway }),
    waitUntil('memory service', () => httpOk(`${memoryUrl}/health`), { timeoutMs: 60_000, service: memory }),
  ]);
  // The deep check runs a workflow through the worker: it proves the worker polls.
  await waitUntil('worker (deep health check)', () => httpOk(`${gatewayUrl}/health?deep=1`), {
    timeoutMs: 120_000,
    intervalMs: 500,
    service: worker,
  });

  if (opts.withMonitoring) {
    step('Prometheus and Alertmanager');
    const monitoring = await startPlatMonitoring({
      config,
      monitoringDir,
      logDir: logs,
      gatewayUrl,
      memoryUrl,
      webhookToken: env.PLAT_ALERTS_WEBHOOK_TOKEN!,
    });
    watch(monitoring.stack.alertmanager);
    watch(monitoring.stack.prometheus);
    urls.push(...monitoring.lines);
  }

  urls.push(
    ['Web pages', `${gatewayUrl}/  (sign in, projects, monitor, results)`],
    ['Gateway', `${gatewayUrl}  (health: ${gatewayUrl}/health?deep=1)`],
    ['Memory service', `${memoryUrl}  (health: ${memoryUrl}/health)`],
    [
      'Metrics',
      `${gatewayUrl}/metrics  ${memoryUrl}/metrics  http://127.0.0.1:${config.PLAT_WORKER_METRICS_PORT}/metrics`,
    ],
    ['Logs', logs],
  );
  const width = Math.max(...urls.map(([k]) => k.length));
  console.log(
    [
      '',
      `plat is up (${((Date.now() - started) / 1000).toFixed(1)} s). Ctrl-C stops everything.`,
      ...urls.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
      '',
    ].join('\n'),
  );
}

/**
 * `npm start` runs us under `sh -c`; when npm is killed (not Ctrl-C, which reaches the whole
 * process group), the shell dies and we would keep running with every child. Follow it instead.
 */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0, 'parent process exited');
  }, 1000).unref();
}

function step(what: string): void {
  console.log(`starting ${what}...`);
}

/** Tracks a child; if it dies while we are not stopping, the platform is broken: stop it all. */
function watch(service: ChildService): ChildService {
  children.push(service);
  void service.exited.then((code) => {
    if (stopping) return;
    console.error(`${service.name} exited unexpectedly (${code}); see ${service.logFile}`);
    void shutdown(1);
  });
  return service;
}

async function shutdown(code: number, signal?: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  if (signal) console.log(`\n${signal}: stopping plat...`);
  // Reverse order: clients first, Temporal last, so workers finish their tasks against a live server.
  for (const child of [...children].reverse()) await child.stop();
  await lifeline?.close();
  console.log('stopped.');
  process.exit(code);
}

async function assertPortsFree(config: PlatConfig, opts: StartOptions): Promise<void> {
  const wanted: [number, string][] = [
    [config.PLAT_GATEWAY_PORT, 'PLAT_GATEWAY_PORT'],
    [config.PLAT_MEMORY_PORT, 'PLAT_MEMORY_PORT'],
    [config.PLAT_WORKER_METRICS_PORT, 'PLAT_WORKER_METRICS_PORT'],
  ];
  if (!config.TEMPORAL_ADDRESS)
    wanted.push(
      [config.TEMPORAL_DEV_PORT, 'TEMPORAL_DEV_PORT'],
      [config.TEMPORAL_UI_PORT, 'TEMPORAL_UI_PORT'],
    );
  if (opts.withDemoDb) wanted.push([config.PLAT_DEMO_DB_PORT, 'PLAT_DEMO_DB_PORT']);
  if (opts.withPostgres && !config.PLAT_METADATA_URL)
    wanted.push([config.PLAT_POSTGRES_PORT, 'PLAT_POSTGRES_PORT']);
  if (opts.withMonitoring)
    wanted.push([config.PROMETHEUS_PORT, 'PROMETHEUS_PORT'], [config.ALERTMANAGER_PORT, 'ALERTMANAGER_PORT']);
  if (opts.withOpenSearch && !config.OPENSEARCH_URL) wanted.push([config.OPENSEARCH_PORT, 'OPENSEARCH_PORT']);
  const busy = [];
  for (const [port, variable] of wanted) if (await portInUse(port)) busy.push(`port ${port} (${variable})`);
  if (busy.length) {
    console.error(
      `Already in use: ${busy.join(', ')}.\nIs plat already running? Stop it, or choose other ports with those variables.`,
    );
    process.exit(1);
  }
}

function displayHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

function parseOrExit(): StartOptions {
  try {
    const opts = parseStartArgs(process.argv.slice(2));
    if (opts.help) {
      console.log(startHelp());
      process.exit(0);
    }
    if (process.env.PLAT_WITH_OPENSEARCH === 'true') opts.withOpenSearch = true;
    if (process.env.PLAT_WITH_MONITORING === 'true') opts.withMonitoring = true;
    if (process.env.PLAT_WITH_POSTGRES === 'true') opts.withPostgres = true;
    return opts;
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}

main().catch(async (err) => {
  console.error(`plat could not start: ${(err as Error).message}`);
  await shutdown(1);
});
