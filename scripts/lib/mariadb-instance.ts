/**
 * A private MariaDB for tests and the demo: its own datadir, socket and port, started with
 * --no-defaults so no system configuration or system instance is ever touched.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { spawnService, stopOnFailure, waitUntil, type ChildService } from './child-service';
import { mariadbProgram } from './tool-paths';

const run = promisify(execFile);

/** The account plat creates on a private instance (TCP, password auth). */
export const PRIVATE_DB_USER = 'plat';
export const PRIVATE_DB_PASSWORD = 'plat-dev-only';

export interface MariaDbOptions {
  dataDir: string;
  port: number;
  logFile: string;
  readyTimeoutMs?: number;
  /** Keep a binary log (as most production servers do); off by default, as the sample needs none. */
  binaryLog?: boolean;
  /** InnoDB's buffer pool (default 256M, enough for the samples and tests). */
  bufferPoolSize?: string;
}

export interface MariaDbInstance {
  service: ChildService;
  host: '127.0.0.1';
  port: number;
  socket: string;
  user: string;
  password: string;
  /** Runs SQL (may contain DELIMITER) through the command-line client as root over the socket. */
  sql(script: string, database?: string): Promise<string>;
}

const isRoot = () => process.getuid?.() === 0;

export async function startPrivateMariaDb(opts: MariaDbOptions): Promise<MariaDbInstance> {
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  // Unix socket paths are limited to ~107 bytes, so keep the socket short and unique per port.
  const socket = path.join('/tmp', `plat-mariadb-${opts.port}.sock`);
  const userArgs = isRoot() ? ['--user=root'] : [];
  if (!fs.existsSync(path.join(dataDir, 'mysql'))) {
    await run(mariadbProgram('mariadb-install-db'), [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--auth-root-authentication-method=socket',
      '--skip-test-db',
      ...userArgs,
    ]);
  }
  const service = spawnService(
    'mariadb',
    mariadbProgram('mariadbd'),
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      `--port=${opts.port}`,
      `--socket=${socket}`,
      '--bind-address=127.0.0.1',
      `--pid-file=${path.join(dataDir, 'mariadbd.pid')}`,
      ...(opts.binaryLog ? ['--log-bin=mariadb-bin', '--server-id=1'] : ['--skip-log-bin']),
      `--innodb-buffer-pool-size=${opts.bufferPoolSize ?? '256M'}`,
      '--character-set-server=utf8mb4',
      '--collation-server=utf8mb4_general_ci',
      ...userArgs,
    ],
    opts.logFile,
  );
  const sql = async (script: string, database?: string) => {
    const args = ['--no-defaults', `--socket=${socket}`, '-uroot', '--batch', '--skip-column-names'];
    if (database) args.push(database);
    return pipeInto(mariadbProgram('mariadb'), args, script);
  };
  await stopOnFailure(service, async () => {
    await waitUntil(`MariaDB on port ${opts.port}`, async () => (await sql('SELECT 1')).trim() === '1', {
      timeoutMs: opts.readyTimeoutMs ?? 60_000,
      intervalMs: 300,
      service,
    });
    await sql(
      `CREATE USER IF NOT EXISTS '${PRIVATE_DB_USER}'@'%' IDENTIFIED BY '${PRIVATE_DB_PASSWORD}';\n` +
        `GRANT ALL PRIVILEGES ON *.* TO '${PRIVATE_DB_USER}'@'%';`,
    );
  });
  return {
    service,
    host: '127.0.0.1',
    port: opts.port,
    socket,
    user: PRIVATE_DB_USER,
    password: PRIVATE_DB_PASSWORD,
    sql,
  };
}

/** Loads the Sakila sample's SQL files from `datasetDir` (a test fixture) unless database `sakila` exists. */
export async function loadSakila(db: MariaDbInstance, datasetDir: string): Promise<'loaded' | 'present'> {
  const present = (await db.sql("SHOW DATABASES LIKE 'sakila'")).trim() === 'sakila';
  if (present) return 'present';
  for (const file of ['sakila-schema.sql', 'sakila-data.sql']) {
    const full = path.join(datasetDir, file);
    if (!fs.existsSync(full)) throw new Error(`Sakila sample not found at ${full}`);
    await db.sql(fs.readFileSync(full, 'utf8'));
  }
  return 'loaded';
}

function pipeInto(program: string, args: string[], input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(program, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(program)} failed: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    // If the client exits early (server not up yet), the write fails with EPIPE; the exit callback reports it.
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}
