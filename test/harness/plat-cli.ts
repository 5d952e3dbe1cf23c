/**
 * The `plat` CLI as a user runs it (`scripts/plat.cjs`), spawned without blocking the test's process,
 * which may itself serve the gateway or memory service the CLI talks to.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

/** The launcher a user runs. */
export const PLAT_CLI = path.join(repoRoot, 'scripts', 'plat.cjs');

/** How a CLI run ended: its exit status and everything it printed. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `plat ARGS` with `env` (the whole environment), `input` on its standard input. */
export function runPlat(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PLAT_CLI, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // 'close', not 'exit': the pipes may still hold output when the process has exited.
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}
