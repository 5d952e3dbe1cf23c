/**
 * The child process of `bench:memory-scale`, so start-up and resident memory are those of a fresh
 * process: `serve <dataDir>` starts the memory service on it as `npm run memory` does (store open,
 * model warm-up, HTTP on an ephemeral port, then every user's indexes loaded in the background)
 * and prints two JSON lines: {base, open_ms, warm_ms} when listening, {indexes_ms, rss} when every
 * user's indexes are loaded; `read <dataDir>` only reads every memory row from the database (the
 * floor of loading them all) and prints {read_ms, rows, rss}. Runs until stdin closes.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { openMemoryDb } from '../../domain/memory/store/memory-db';
import { createMemoryService } from '../../gateway/memory/memory-service-wiring';
import { createMemoryApp } from '../../gateway/memory/memory-app';
import { createLogger } from '../../shared/logger';
import { benchConfig } from './memory-server';

async function serve(dataDir: string): Promise<void> {
  const started = performance.now();
  const service = await createMemoryService(dataDir, benchConfig());
  const opened = performance.now();
  await service.warmUp();
  const warmed = performance.now();
  const app = createMemoryApp({ apiKeys: [], log: createLogger('memory-scale', 'silent'), service });
  const server: http.Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  report({
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open_ms: opened - started,
    warm_ms: warmed - opened,
  });
  const listening = performance.now();
  await service.warmIndexes();
  global.gc?.();
  report({ indexes_ms: performance.now() - listening, rss: process.memoryUsage().rss });
}

const report = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function read(dataDir: string): Promise<void> {
  const started = performance.now();
  const { file: db } = await openMemoryDb(dataDir);
  const rows = db
    .prepare('SELECT id, user_id, agent_id, run_id, created_at, memory, vector FROM memories')
    .all() as unknown[];
  report({ read_ms: performance.now() - started, rows: rows.length, rss: process.memoryUsage().rss });
}

async function main(): Promise<void> {
  const [mode, dataDir] = process.argv.slice(2);
  if (!dataDir || (mode !== 'serve' && mode !== 'read')) throw new Error('usage: serve|read <dataDir>');
  if (mode === 'serve') await serve(dataDir);
  else await read(dataDir);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
