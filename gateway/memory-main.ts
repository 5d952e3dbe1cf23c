/** Entry point of the memory service (`npm run memory`). */
import { createMemoryService } from './memory/memory-service-wiring';
import { loadConfigOrExit } from '../shared/load-config-or-exit';
import { dataDir } from '../shared/paths';
import { createLogger } from '../shared/logger';
import { listenUntilSignalled } from './listen';
import { createMemoryApp } from './memory-app';
import { assertBindAllowed } from './memory-auth';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('memory', config.LOG_LEVEL);
  try {
    assertBindAllowed(config.PLAT_MEMORY_HOST, config.PLAT_MEMORY_API_KEYS);
  } catch (err) {
    log.fatal((err as Error).message);
    process.exit(1);
  }
  const service = await createMemoryService(dataDir(config), config);
  try {
    await service.warmUp(); // load the embedding model now, not on the first request
    const redone = await service.reembedStale();
    if (redone)
      log.warn(
        { memories: redone, embedder: service.embedderId },
        're-embedded memories made by another model',
      );
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
  const app = createMemoryApp({ apiKeys: config.PLAT_MEMORY_API_KEYS, log, service });
  await listenUntilSignalled(app, config.PLAT_MEMORY_HOST, config.PLAT_MEMORY_PORT, log);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
