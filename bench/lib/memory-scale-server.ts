/**
 * The child process of `bench:memory-scale`, so start-up and resident memory are those of a fresh
 * process: `serve <dataDir>` starts the memory service on it (store open, model warm-up, HTTP on an
 * ephemeral port) and prints one JSON line {base, open_ms, warm_ms, rss}; `read <dataDir>` only
 * reads every memory row from the database (the floor of any start-up from it) and prints
 * {read_ms, rows, rss}. Runs until stdin closes.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { openMemoryDb } from '../../activities/memory/store/memory-db';
import { createMemoryService } from '../../gateway/memory/memory-service-wiring';
import { createMemoryApp } from '../../gateway/memory-app';
import { createLogger } from '../../shared/logger';
import { benchConfig } from './memory-server';

async function serve(dataDir: string): Promise<Record<string, unknown>> {
  const started = performance.now();
  const service = await createMemoryService(dataDir, benchConfig());
  const opened = performance.now();
  await service.warmUp();
  const warmed = performance.now();
  const app = createMemoryApp({ apiKeys: [], log: createLogger('memory-scale', 'silent'), service });
  const server: http.Server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  global.gc?.();
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open_ms: opened - started,
    warm_ms: warmed - opened,
    rss: process.memoryUsage().rss,
  };
}

function read(dataDir: string): Record<string, unknown> {
  const started = performance.now();
  const db = openMemoryDb(dataDir);
  const rows = db
    .prepare('SELECT id, user_id, agent_id, run_id, created_at, memory, vector FROM memories')
    .all() as unknown[];
  return { read_ms: performance.now() - started, rows: rows.length, rss: process.memoryUsage().rss };
}

async function main(): Promise<void> {
  const [mode, dataDir] = process.argv.slice(2);
  if (!dataDir || (mode !== 'serve' && mode !== 'read')) throw new Error('usage: serve|read <dataDir>');
  const report = mode === 'serve' ? await serve(dataDir) : read(dataDir);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
