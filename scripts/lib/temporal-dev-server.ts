/**
 * Starts the Temporal CLI dev server ourselves and waits until it serves: the SDK's ephemeral server
 * gets only 5 s to start, too short on a loaded 2-core machine.
 */
import { Connection } from '@temporalio/client';
import { PLAT_SEARCH_ATTRIBUTES } from '../../shared/search-attributes';
import { spawnService, stopOnFailure, waitUntil, type ChildService } from './child-service';
import { temporalCliPath } from './tool-paths';

export interface DevServerOptions {
  port: number;
  /** Web UI port; omit for a headless server. */
  uiPort?: number;
  /** SQLite file that keeps workflows across restarts; omit for in-memory. */
  dbFile?: string;
  namespace?: string;
  logFile: string;
  readyTimeoutMs?: number;
}

export interface DevServer {
  service: ChildService;
  address: string;
  uiUrl?: string;
}

export async function startTemporalDevServer(opts: DevServerOptions): Promise<DevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port)];
  args.push('--namespace', opts.namespace ?? 'default', '--log-level', 'warn');
  for (const key of PLAT_SEARCH_ATTRIBUTES) args.push('--search-attribute', `${key.name}=Keyword`);
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) args.push('--db-filename', opts.dbFile, '--sqlite-pragma', 'journal_mode=WAL');
  const service = spawnService('temporal', temporalCliPath(), args, opts.logFile);
  const address = `127.0.0.1:${opts.port}`;
  await stopOnFailure(service, () =>
    waitUntil(`Temporal dev server on ${address}`, () => temporalServing(address), {
      timeoutMs: opts.readyTimeoutMs ?? 60_000,
      service,
    }),
  );
  return { service, address, uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : undefined };
}

/** True when the frontend at `address` answers its gRPC health check. */
export async function temporalServing(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    const res = await connection.healthService.check({});
    return res.status === 1; // SERVING
  } finally {
    await connection.close();
  }
}
