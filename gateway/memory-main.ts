/** Entry point of the memory service (`npm run memory`). */
import { loadConfigOrExit } from '../shared/load-config-or-exit';
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
  const app = createMemoryApp({ apiKeys: config.PLAT_MEMORY_API_KEYS, log });
  await listenUntilSignalled(app, config.PLAT_MEMORY_HOST, config.PLAT_MEMORY_PORT, log);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
