/**
 * Children that end with their launcher, however it ends. Each child runs in its own process group
 * (so Ctrl-C reaches the launcher first and it can stop them in order); a SIGKILLed launcher cannot
 * stop anything, so a reaper process (`reaper.cjs`) holds a pipe from it and stops every registered
 * group once that pipe closes. See docs/architecture.md#processes.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from '../../shared/paths';

/** The launcher's end of the reaper's pipe. */
export interface Lifeline {
  /** The process group `pgid` (a detached child's pid) ends when the launcher does. */
  register(pgid: number): void;
  /** The group has stopped; forget it (its id may be reused). */
  release(pgid: number): void;
  /** Closes the pipe and waits (up to `waitMs`) for the reaper to finish: call it when every child has stopped. */
  close(waitMs?: number): Promise<void>;
}

/** Starts the reaper; `graceMs` is how long it waits after SIGTERM before SIGKILL. */
export function startLifeline(graceMs = 10_000): Lifeline {
  const reaper = spawn(
    process.execPath,
    [path.join(repoRoot, 'scripts', 'lib', 'reaper.cjs'), String(graceMs)],
    {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  reaper.unref();
  const pipe = reaper.stdin!;
  // The pipe must not keep the launcher alive, nor crash it if the reaper is gone.
  (pipe as unknown as { unref?: () => void }).unref?.();
  pipe.on('error', () => {});
  const ended = new Promise<void>((resolve) => reaper.once('exit', () => resolve()));
  const send = (line: string) => {
    if (!pipe.destroyed) pipe.write(`${line}\n`);
  };
  return {
    register: (pgid) => send(`add ${pgid}`),
    release: (pgid) => send(`remove ${pgid}`),
    async close(waitMs = 2_000) {
      pipe.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
    },
  };
}
