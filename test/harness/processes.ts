/** Child processes of the tests: plat's entry points started as `npm start` runs them, and a /proc lookup. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';
import { testBundleCacheDir } from './workflow-bundle';

/** A started entry point, its combined output so far, and how it ended. */
export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | string | null>;
}

/** Runs `entry` (e.g. `workers/main.ts`) with tsx, as its own process, with `env` on top of ours. */
export function startProcess(entry: string, env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], {
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

/** Finds live processes by a marker in their command line or environment (Linux /proc). */

export function processesMentioning(marker: string): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      const state = /State:\s+(\w)/.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (state !== 'Z' && (cmd.includes(marker) || env.includes(marker)))
        found.push({ pid: Number(entry), cmd });
    } catch {
      /* exited while we looked, or not ours to read */
    }
  }
  return found;
}
