/**
 * A private PostgreSQL cluster for `npm start -- --with-postgres` and the tests: its own data
 * directory and port, TCP on 127.0.0.1 only, password authentication. PostgreSQL refuses to run
 * as root; as root it runs in a user namespace where it is an ordinary user, so any data directory
 * root can reach works (a private, mode-700 checkout included) without a system account.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { spawnService, stopOnFailure, waitUntil, type ChildService } from './child-service';
import { postgresProgram } from './tool-paths';

const run = promisify(execFile);

/** The account plat creates in a private cluster. */
export const PRIVATE_PG_USER = 'plat';
export const PRIVATE_PG_PASSWORD = 'plat-dev-only';

export interface PostgresOptions {
  dataDir: string;
  port: number;
  logFile: string;
  /** false (tests): no fsync, faster and not crash-safe. Default true. */
  durable?: boolean;
  readyTimeoutMs?: number;
}

export interface PostgresInstance {
  service: ChildService;
  host: '127.0.0.1';
  port: number;
  /** The URL of database `name` (no check that it exists). */
  urlOf(name: string): string;
  /** Creates database `name` unless it exists; answers its URL. */
  ensureDatabase(name: string): Promise<string>;
}

const isRoot = () => process.getuid?.() === 0;

/** `command args` as an ordinary user when we are root (see the file comment). */
function asOrdinaryUser(command: string, args: string[]): [string, string[]] {
  return isRoot()
    ? ['unshare', ['--user', '--map-user=65534', '--map-group=65534', command, ...args]]
    : [command, args];
}

export async function startPrivatePostgres(opts: PostgresOptions): Promise<PostgresInstance> {
  const dataDir = path.resolve(opts.dataDir);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await initCluster(dataDir);
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'max_connections=200',
    ...(opts.durable === false ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : []),
  ];
  const [command, args] = asOrdinaryUser(postgresProgram('postgres'), [
    '-D',
    dataDir,
    '-p',
    String(opts.port),
    ...settings.flatMap((s) => ['-c', s]),
  ]);
  // SIGINT is PostgreSQL's fast shutdown: it ends open sessions instead of waiting for them (SIGTERM).
  const service = spawnService('postgres', command, args, opts.logFile, { stopSignal: 'SIGINT' });
  const urlOf = (name: string) =>
    `postgres://${PRIVATE_PG_USER}:${PRIVATE_PG_PASSWORD}@127.0.0.1:${opts.port}/${encodeURIComponent(name)}`;
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: urlOf('postgres') });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  await stopOnFailure(service, () =>
    waitUntil(
      `PostgreSQL on port ${opts.port}`,
      () => admin(async (c) => (await c.query('SELECT 1')).rowCount === 1),
      { timeoutMs: opts.readyTimeoutMs ?? 60_000, intervalMs: 200, service },
    ),
  );
  return {
    service,
    host: '127.0.0.1',
    port: opts.port,
    urlOf,
    ensureDatabase: (name) =>
      admin(async (client) => {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (!exists.rowCount) {
          await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: Error) => {
            // Another process created it between the check and the create.
            if (!/already exists/.test(err.message)) throw err;
          });
        }
        return urlOf(name);
      }),
  };
}

async function initCluster(dataDir: string): Promise<void> {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const pwfile = `${dataDir}.pw`;
  fs.writeFileSync(pwfile, PRIVATE_PG_PASSWORD, { mode: 0o600 });
  try {
    const [command, args] = asOrdinaryUser(postgresProgram('initdb'), [
      '-D',
      dataDir,
      '-U',
      PRIVATE_PG_USER,
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '-E',
      'UTF8',
      '--no-locale',
      '--no-instructions',
    ]);
    await run(command, args);
  } catch (err) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`initdb failed for ${dataDir}: ${(err as { stderr?: string }).stderr ?? String(err)}`, {
      cause: err,
    });
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
}
