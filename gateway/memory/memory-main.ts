/** Entry point of the memory service (`npm run memory`). */
import { createMemoryService } from './memory-service-wiring';
import { loadConfigOrExit } from '../../shared/load-config-or-exit';
import { dataDir } from '../../shared/paths';
import { createLogger } from '../../shared/logger';
import type { Logger } from 'pino';
import type { MemoryService } from '../../domain/memory/memory-service';
import { listenUntilSignalled } from '../listen';
import { createMemoryApp } from './memory-app';
import { assertBindAllowed } from './memory-auth';
import { memoryTokenVerifier } from './memory-token-verifier';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('memory', config.LOG_LEVEL);
  try {
    assertBindAllowed(config.PLAT_MEMORY_HOST, [
      ...config.PLAT_MEMORY_API_KEYS,
      ...config.PLAT_MEMORY_AGENT_KEYS.map((k) => k.key),
    ]);
  } catch (err) {
    log.fatal((err as Error).message);
    process.exit(1);
  }
  const service = await createMemoryService(dataDir(config), config);
  try {
    await service.warmUp(); // load the embedding model now, not on the first request
  } catch (err) {
    log.fatal((err as Error).message);
    process.exit(1);
  }
  log.info({ store: service.storeKind, embedder: service.embedderId }, 'memory service ready');
  const warming = Date.now();
  service.warmIndexes().then(
    () => log.info({ ms: Date.now() - warming }, 'search indexes loaded for every user'),
    (err: Error) => log.error({ err: err.message }, 'loading search indexes failed; users load on first use'),
  );
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const reembedding = reembedInBackground(service, log, stopped);
  const app = createMemoryApp({
    apiKeys: config.PLAT_MEMORY_API_KEYS,
    agentKeys: config.PLAT_MEMORY_AGENT_KEYS,
    tokens: memoryTokenVerifier(config),
    log,
    service,
  });
  // On a signal, a running re-embedding ends its batch first: the model's thread must be idle at exit.
  await listenUntilSignalled(app, config.PLAT_MEMORY_HOST, config.PLAT_MEMORY_PORT, log, async () => {
    service.stopReembedding();
    stop();
    await reembedding;
  });
}

/** How often an instance whose fleet peer holds the re-embedding looks whether it is its turn. */
const REEMBED_RETRY_MS = 60_000;

/**
 * After a model change, memories embedded by the old model are redone beside serving
 * (docs/memory-search.md#the-embedding-model); progress is logged every 10 s and shown by GET /health.
 * In a fleet one instance re-embeds at a time (docs/fleet.md#memory): the others look again every
 * minute, so the work goes on if that instance stops.
 */
async function reembedInBackground(
  service: MemoryService,
  log: Logger,
  stopped: Promise<void>,
): Promise<void> {
  const pending = service.reembedProgress().pending;
  if (!pending) return;
  log.warn(
    { memories: pending, embedder: service.embedderId },
    're-embedding memories made by another model in the background; until then they are found by their terms only',
  );
  let stopping = false;
  void stopped.then(() => (stopping = true));
  let told = false;
  for (;;) {
    await reembedOnce(service, log);
    if (!service.reembedProgress().elsewhere || stopping) return;
    if (!told) log.info('another instance of the fleet is re-embedding; this one looks again every minute');
    told = true;
    await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, REEMBED_RETRY_MS).unref())]);
    if (stopping) return;
  }
}

async function reembedOnce(service: MemoryService, log: Logger): Promise<void> {
  let logged = Date.now();
  const started = Date.now();
  try {
    const done = await service.reembedStale({
      onProgress: (p) => {
        if (Date.now() - logged < 10_000) return;
        logged = Date.now();
        log.info({ done: p.done, total: p.total, percent: p.percent }, 're-embedding memories');
      },
    });
    if (!service.reembedProgress().elsewhere)
      log.info({ memories: done, s: Math.round((Date.now() - started) / 1000) }, 're-embedding done');
  } catch (err) {
    log.error({ err: (err as Error).message }, 're-embedding failed; it resumes at the next start');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
