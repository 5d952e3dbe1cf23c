/**
 * A child process plat started and must stop: its own process group (so grandchildren go too),
 * output to a log file, and a stop that escalates from SIGTERM to SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DailyLogFile } from './daily-log-file';
import type { Lifeline } from './lifeline';

export interface ChildService {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<number | string>;
  /** Asks the process group to stop (SIGTERM), SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Also copy each output line here (e.g. to the console with a prefix). */
  onLine?: (line: string) => void;
  /**
   * Write `logFile` as one file per UTC day behind a symlink (plat's own services, whose logs have a
   * retention period); needs `onLine`, since the output then passes through this process.
   */
  dailyLog?: boolean;
  /** The signal that asks it to stop (default SIGTERM; PostgreSQL's fast shutdown is SIGINT). */
  stopSignal?: NodeJS.Signals;
}

let lifeline: Lifeline | undefined;

/** Every service spawned from now on is registered with `line`, so it ends when this process does. */
export function endChildrenWithLauncher(line: Lifeline): void {
  lifeline = line;
}

/** Starts `command args` detached in its own process group, appending its output to `logFile`. */
export function spawnService(
  name: string,
  command: string,
  args: string[],
  logFile: string,
  opts: SpawnOptions = {},
): ChildService {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const daily = opts.dailyLog && opts.onLine ? new DailyLogFile(logFile) : undefined;
  const log = daily ? undefined : fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    detached: true,
    stdio: ['ignore', opts.onLine ? 'pipe' : log!, opts.onLine ? 'pipe' : log!],
  });
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  if (opts.onLine) {
    const onLine = opts.onLine;
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream?.on('data', (chunk: Buffer) => {
        if (daily) daily.write(chunk);
        else fs.writeSync(log!, chunk);
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        lines.forEach(onLine);
      });
    }
  }
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      if (daily) daily.close();
      else fs.closeSync(log!);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  const pid = child.pid;
  const line = lifeline;
  line?.register(pid);
  let done = false;
  void exited.then(() => {
    done = true;
    line?.release(pid);
  });

  return {
    name,
    pid,
    logFile,
    exited,
    async stop(graceMs = 10_000) {
      if (done) return;
      signalGroup(pid, opts.stopSignal ?? 'SIGTERM');
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // The leader is gone; make sure nothing it spawned lingers in its group.
      signalGroup(pid, 'SIGKILL');
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** Polls `probe` until it resolves truthy; on timeout throws, quoting the log tail if given. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  opts: { timeoutMs: number; intervalMs?: number; service?: ChildService },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown;
  let exitedWith: number | string | undefined;
  void opts.service?.exited.then((code) => (exitedWith = code));
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (err) {
      lastError = err;
    }
    if (exitedWith !== undefined) break;
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 200));
  }
  const why = exitedWith !== undefined ? `it exited (${exitedWith})` : `not ready after ${opts.timeoutMs} ms`;
  const tail = opts.service
    ? `\n--- last lines of ${opts.service.logFile} ---\n${logTail(opts.service.logFile)}`
    : '';
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`${what}: ${why}${cause}${tail}`);
}

/**
 * `ready()` (a new service's wait until it answers, and any setup after it); if it throws, the
 * services are stopped before the error goes on, so a failed start leaves no process behind.
 */
export async function stopOnFailure<T>(
  services: Pick<ChildService, 'stop'>,
  ready: () => Promise<T>,
): Promise<T> {
  try {
    return await ready();
  } catch (err) {
    await services.stop();
    throw err;
  }
}

/** The last `lines` lines of a log file, for error messages. */
export function logTail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
