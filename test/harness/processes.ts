/** Child processes of the tests: plat's entry points started as `npm start` runs them. */
import { spawn, type ChildProcess } from 'node:child_process';
import { compiledNodeArgs } from '../../scripts/lib/compiled-runtime.cjs';
import { repoRoot } from '../../shared/paths';
import { testBundleCacheDir } from './workflow-bundle';

/** A started entry point, its combined output so far, and how it ended. */
export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string | null>;
}

/**
 * Runs `entry` (e.g. `workers/main.ts`) as `npm start` does, compiled, as its own process, with `env`
 * on top of ours.
 */
export function startProcess(entry: string, env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, compiledNodeArgs(entry), {
    cwd: repoRoot,
    // One workflow bundle for the run's workers (test/harness/workflow-bundle.ts).
    env: { ...process.env, PLAT_WORKFLOW_BUNDLE_DIR: testBundleCacheDir(), ...env },
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return {
    child,
    output: () => out,
    exited: new Promise((r) => child.on('exit', (code, signal) => r(code ?? signal))),
  };
}

/** The /proc lookup, kept importable from here (it lives on its own so light callers skip Temporal). */
export { processesMentioning } from './process-lookup';
