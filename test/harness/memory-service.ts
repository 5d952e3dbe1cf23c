/** The real memory service in-process on a port, with a switch that makes chosen requests fail (outages). */
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryService } from '../../gateway/memory/memory-service-wiring';
import type { MemoryService } from '../../domain/memory/memory-service';
import { loadConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';
import { createMemoryApp, type MemoryAppDeps } from '../../gateway/memory/memory-app';
import type { MemoryAgentKey } from '../../shared/memory-agent-keys';
import { errorHandler } from '../../gateway/http-errors';
import { newTestDataDir } from './platform-gateway';

export interface TestMemoryService {
  url: string;
  service: MemoryService;
  /** While set, requests it matches answer 503 (the service is "down" for them). */
  failWhen(match: ((req: express.Request) => boolean) | undefined): void;
  stop(): Promise<void>;
}

/**
 * `dataDir` lets a test restart the service on the same data; `env` are settings (e.g.
 * PLAT_MEMORY_AUTOSHARE); `apiKeys` makes every call but /health need one.
 */
export async function startTestMemoryService(
  opts: {
    dataDir?: string;
    env?: Record<string, string>;
    apiKeys?: string[];
    /** Scoped keys and the ID-token verifier (docs/security.md#memory), as memory-main wires them. */
    agentKeys?: MemoryAgentKey[];
    tokens?: MemoryAppDeps['tokens'];
  } = {},
): Promise<TestMemoryService> {
  const service = await createMemoryService(opts.dataDir ?? newTestDataDir(), loadConfig(opts.env ?? {}));
  let failing: ((req: express.Request) => boolean) | undefined;
  const outer = express();
  outer.use(express.json({ limit: '5mb' }));
  outer.use((req, res, next) => {
    if (failing?.(req)) res.status(503).json({ error: { code: 'unavailable', message: 'test outage' } });
    else next();
  });
  const log = createLogger('memory-test', 'silent');
  outer.use(
    createMemoryApp({
      apiKeys: opts.apiKeys ?? [],
      agentKeys: opts.agentKeys,
      tokens: opts.tokens,
      log,
      service,
    }),
  );
  // A body the outer parser refuses answers in the service's own error format, as without the wrapper.
  outer.use(errorHandler(log));
  const server: Server = outer.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    service,
    failWhen: (match) => {
      failing = match;
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
