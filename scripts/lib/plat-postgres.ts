/**
 * `npm start -- --with-postgres`: a private PostgreSQL cluster under the data directory as plat's
 * shared metadata store (docs/fleet.md#one-machine-with-postgresql), and the secret key every process
 * of the fleet seals secrets with: PLAT_SECRET_KEY when set, else one generated once into the data
 * directory (another host joins with that value).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../shared/paths';
import { startPrivatePostgres, type PostgresInstance } from './postgres-instance';

const run = promisify(execFile);

/** The database plat's processes share in the private cluster. */
export const PLAT_DATABASE = 'plat';

/** Installs Debian's PostgreSQL when it is missing (provision.sh --with-postgres). */
export async function provisionPostgres(): Promise<void> {
  await run('bash', [path.join(repoRoot, 'scripts', 'provision.sh'), '--with-postgres'], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

export interface PlatPostgres {
  instance: PostgresInstance;
  /** PLAT_METADATA_URL of every child. */
  url: string;
}

export async function startPlatPostgres(opts: {
  dataDir: string;
  port: number;
  logFile: string;
}): Promise<PlatPostgres> {
  const instance = await startPrivatePostgres({
    dataDir: path.join(opts.dataDir, 'postgres'),
    port: opts.port,
    logFile: opts.logFile,
  });
  return { instance, url: await instance.ensureDatabase(PLAT_DATABASE) };
}

/** The fleet's secret key: the configured one, else one generated once into `<dataDir>/fleet-secret.key`. */
export function fleetSecretKey(
  configured: string | undefined,
  dataDir: string,
): { key: string; file?: string } {
  if (configured) return { key: configured };
  const file = path.join(dataDir, 'fleet-secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return { key: fs.readFileSync(file, 'utf8').trim(), file };
}
