/** Runs `scripts/start.ts` (what `npm start` runs) as a child, as a user would in a terminal. */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

export interface Launch {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the output matches `pattern`; rejects if the launcher exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

/** `viaShell` runs it the way npm does, under `sh -c`, so a test can kill the shell alone. */
export function launchPlat(env: NodeJS.ProcessEnv, args: string[] = [], viaShell = false): Launch {
  const argv = ['--import', 'tsx', path.join(repoRoot, 'scripts', 'start.ts'), ...args];
  const child = spawn(
    viaShell ? 'sh' : process.execPath,
    viaShell ? ['-c', [process.execPath, ...argv].map((a) => `'${a}'`).join(' ')] : argv,
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => (clearInterval(poll), reject(new Error(`timed out waiting for ${pattern}:\n${out}`))),
          timeoutMs,
        );
        const poll = setInterval(() => {
          const match = pattern.exec(out);
          if (match) {
            clearInterval(poll);
            clearTimeout(timer);
            resolve(match[0]);
          }
        }, 100);
        void exited.then((code) => {
          if (pattern.test(out)) return;
          clearInterval(poll);
          clearTimeout(timer);
          reject(new Error(`launcher exited (${code}) before ${pattern}:\n${out}`));
        });
      });
    },
  };
}
