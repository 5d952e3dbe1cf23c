/**
 * dbt (dbt-core with dbt-duckdb, PyPI, pinned in scripts/versions.env, installed by
 * `provision.sh --tests` into `.tools/dbt-venv`): builds an exported dbt project.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { toolsDir } from '../../shared/paths';

/** `DBT_PATH`, else the pinned one provisioning installed. */
export function dbtPath(): string {
  const explicit = process.env.DBT_PATH;
  if (explicit) return explicit;
  const pinned = path.join(toolsDir(), 'dbt-venv', 'bin', 'dbt');
  if (!fs.existsSync(pinned))
    throw new Error(`dbt is not installed at ${pinned}: run bash scripts/provision.sh --tests`);
  return pinned;
}

/** Runs `dbt <args>` in a project folder; resolves with its exit code and output, whatever the code. */
export function runDbt(
  projectDir: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      dbtPath(),
      [...args, '--profiles-dir', projectDir, '--project-dir', projectDir, '--no-use-colors'],
      {
        cwd: projectDir,
        env: {
          ...process.env,
          ...env,
          DBT_SEND_ANONYMOUS_USAGE_STATS: 'false',
          DBT_LOG_PATH: path.join(projectDir, 'logs'),
          DBT_TARGET_PATH: path.join(projectDir, 'target'),
        },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 300_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/** Writes the `dbt/` files of a project's pipeline templates into a new temporary folder, and answers it. */
export function writeDbtProject(files: { path: string; content: string }[], prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const f of files.filter((x) => x.path.startsWith('dbt/'))) {
    const target = path.join(dir, f.path.slice('dbt/'.length));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, f.content);
  }
  return dir;
}
