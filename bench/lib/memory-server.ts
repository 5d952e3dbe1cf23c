/**
 * The memory service for benchmarks: the real `createMemoryService` + `createMemoryApp` on an
 * ephemeral loopback port, and a keep-alive JSON client (one socket, as a sequential agent would use).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultEmbedder } from '../../domain/memory/embedding/default-embedder';
import type { Embedder } from '../../domain/memory/embedding/embedder';
import { createMemoryService, type MemorySettings } from '../../gateway/memory/memory-service-wiring';
import type { MemoryService } from '../../domain/memory/memory-service';
import { createMemoryApp } from '../../gateway/memory/memory-app';
import { loadConfig, type PlatConfig } from '../../shared/config';
import { createLogger } from '../../shared/logger';

/** The configuration from the environment, with the embedded store and no autoshare forced. */
export function benchConfig(): PlatConfig {
  return loadConfig({ ...process.env, PLAT_MEMORY_STORE: 'embedded', PLAT_MEMORY_AUTOSHARE: 'false' });
}

/** The embedder the service uses (one per models directory and process: the same worker thread). */
export function serviceEmbedder(config: MemorySettings): Embedder {
  return defaultEmbedder(config);
}

export interface JsonClient {
  post<T>(route: string, body: unknown): Promise<T>;
  close(): void;
}

/** POSTs JSON over one kept-alive connection; non-2xx answers throw with the body. */
export function jsonClient(base: string): JsonClient {
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    post<T>(route: string, body: unknown): Promise<T> {
      const payload = Buffer.from(JSON.stringify(body));
      return new Promise<T>((resolve, reject) => {
        const req = http.request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            path: route,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': payload.length },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              if ((res.statusCode ?? 0) >= 300) reject(new Error(`${route} → ${res.statusCode}: ${text}`));
              else resolve(JSON.parse(text) as T);
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

export interface BenchMemoryServer {
  service: MemoryService;
  client: JsonClient;
  base: string;
  stop(): Promise<void>;
}

/** The service on `dataDir`, warmed up (model loaded), listening on 127.0.0.1:<ephemeral>. */
export async function startMemoryServer(
  dataDir: string,
  config: PlatConfig,
  opts: { now?: () => Date } = {},
): Promise<BenchMemoryServer> {
  const service = await createMemoryService(dataDir, config, opts);
  await service.warmUp();
  const app = createMemoryApp({ apiKeys: [], log: createLogger('memory-bench', 'silent'), service });
  const server = app.listen(0, '127.0.0.1');
  // A bench may spend seconds in-process between two requests (a second store's first search loads
  // 110,000 vectors): the kept-alive connection must not close meanwhile, or the next request races
  // the close and fails with ECONNRESET (Node's default is 5 s).
  server.keepAliveTimeout = 120_000;
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = jsonClient(base);
  return {
    service,
    client,
    base,
    stop: async () => {
      client.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await service.close();
    },
  };
}

export interface SearchItem {
  id: string;
  memory: string;
  score: number;
  original_score?: number;
  created_at: string;
  memory_type: string;
  metadata: Record<string, unknown>;
  /** The calibrated relevance min_score applies to (docs/memory-search.md#now-and-then). */
  signals?: { relevance?: number };
}

export interface AddResponse {
  results: { id: string; memory: string; event: string }[];
}
