/**
 * One warehouse child process (docs/security.md#warehouse-processes): started under an OS memory
 * limit (`ulimit -d`, the data segment, which counts every heap allocation of DuckDB and V8), at
 * the CPU priority the settings give it, and spoken to over IPC. A call past its deadline kills the
 * process; a process that dies fails the call under way with a clear error and nothing else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createLogger } from '../../../shared/logger';
import * as path from 'node:path';
import { WarehouseQueryError } from '../warehouse-engine';
import {
  deserializeError,
  type SerializedError,
  type WarehouseChildOp,
  type WarehouseChildOps,
  type WarehouseChildSettings,
} from './warehouse-child-protocol';

/** How one child is started. */
export interface WarehouseProcessOptions {
  child: WarehouseChildSettings;
  /** The OS limit on the child's data segment, in bytes (heap, DuckDB's buffers, V8's heap). */
  memoryBytes: number;
  /** How much lower the child's CPU priority is than its parent's (nice, 0 to 19). */
  niceness: number;
}

/** The children's own lines: what they write to stderr (a crash report of V8 or DuckDB), with their pid. */
const childLog = createLogger('warehouse-child');

/**
 * Relays a child's stderr into the logs line by line, so that its crash report is a log line of
 * the parent's and never mixes into the parent's own stderr (a test runner reads a V8 report there
 * as its own worker running out of memory).
 */
function relayStderr(proc: ChildProcess, pid: number): void {
  let partial = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) childLog.warn({ pid }, line);
  });
  proc.stderr?.on('end', () => {
    if (partial.trim()) childLog.warn({ pid }, partial);
  });
}

/** How a child ended, in words a user can act on. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal === 'SIGKILL') return 'was killed (out of memory, or past its deadline)';
  if (signal === 'SIGABRT') return 'aborted (DuckDB failed inside)';
  if (signal) return `ended on ${signal}`;
  return `exited with code ${code}`;
}

/** Its call was under way when the child died: the call fails, the parent goes on. */
export class WarehouseProcessEnded extends WarehouseQueryError {
  constructor(how: string) {
    super('failed', `the warehouse process running this work ${how}; nothing else was affected`);
    this.name = 'WarehouseProcessEnded';
  }
}

/**
 * The environment a child runs with: what node and DuckDB need, nothing of the parent's secrets
 * (keys, passwords, tokens).
 */
function childEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG', 'LC_ALL', 'NODE_EXTRA_CA_CERTS'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
}

/** Longest a child may take to load DuckDB and say it is ready (0.25 s of CPU when idle). */
const START_TIMEOUT_MS = 60_000;

/** V8's heap in a child: answers are capped below it, and DuckDB's memory is outside it. */
const CHILD_HEAP_MB = 256;

export class WarehouseProcess {
  readonly pid: number;
  /** Settles when the process has exited, with how. */
  readonly exited: Promise<string>;
  /** Settles once the child has loaded DuckDB (or rejects when it died first). */
  readonly ready: Promise<void>;
  private readonly proc: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private ended: string | undefined;
  /** Pieces of work leased to it: a pool retires a child after many (see WarehouseProcessPool). */
  leases = 0;

  constructor(opts: WarehouseProcessOptions) {
    const [command, ...args] = childCommand(JSON.stringify(opts.child));
    const kb = Math.max(1, Math.floor(opts.memoryBytes / 1024));
    const niceness = String(Math.max(0, Math.min(19, Math.round(opts.niceness))));
    // The shell sets the limit (soft and hard: the child cannot raise it) and becomes node, niced
    // before it starts a thread. The child gets no secret of its parent's environment.
    this.proc = spawn(
      '/bin/sh',
      [
        '-c',
        'ulimit -d "$1" || exit 97; n="$2"; shift 2; if [ "$n" -gt 0 ]; then exec nice -n "$n" "$@"; fi; exec "$@"',
        'sh',
        String(kb),
        niceness,
        command,
        ...args,
      ],
      { stdio: ['ignore', 'inherit', 'pipe', 'ipc'], serialization: 'advanced', env: childEnv() },
    );
    this.pid = this.proc.pid ?? -1;
    relayStderr(this.proc, this.pid);
    let signalReady: () => void = () => {};
    let failReady: (e: Error) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => ((signalReady = resolve), (failReady = reject)));
    // A caller that never awaits `ready` must not see it as an unhandled rejection.
    this.ready.catch(() => undefined);
    // A child that never gets ready (stuck loading) holds no lease for ever.
    const startTimer = setTimeout(() => this.kill(), START_TIMEOUT_MS);
    startTimer.unref();
    this.ready.then(
      () => clearTimeout(startTimer),
      () => clearTimeout(startTimer),
    );
    let settleExited: (how: string) => void = () => {};
    this.exited = new Promise<string>((resolve) => (settleExited = resolve));
    const end = (how: string) => {
      if (this.ended) return;
      this.ended = how;
      failReady(new WarehouseProcessEnded(how));
      for (const p of this.pending.values()) p.reject(new WarehouseProcessEnded(how));
      this.pending.clear();
      settleExited(how);
    };
    this.proc.on('exit', (code, signal) =>
      end(code === 97 ? 'could not take its memory limit (ulimit -d)' : describeExit(code, signal)),
    );
    // A process that could not be started emits 'error' and no 'exit'.
    this.proc.on('error', (err) => {
      if (this.proc.pid === undefined) end(`could not be started: ${err.message}`);
    });
    this.proc.on('message', (answer: unknown) => {
      // A child is not trusted to speak well: anything but a known answer is ignored.
      if (!answer || typeof answer !== 'object') return;
      if ('ready' in answer) return signalReady();
      const { id, ok } = answer as { id?: unknown; ok?: unknown };
      const p = typeof id === 'number' ? this.pending.get(id) : undefined;
      if (!p) return;
      this.pending.delete(id as number);
      if (ok === true) p.resolve((answer as { value?: unknown }).value);
      else p.reject(deserializeError((answer as { error?: SerializedError }).error));
    });
  }

  /** Whether the process is gone (or going). */
  get dead(): boolean {
    return this.ended !== undefined || this.proc.killed;
  }

  /**
   * Runs `op` in the child. Past `deadlineMs` the child is killed and the call fails `timeout`: the
   * work stops there, whatever DuckDB was doing (folding a constant notices no interrupt).
   */
  async call<K extends WarehouseChildOp>(
    root: string,
    op: K,
    args: WarehouseChildOps[K],
    deadlineMs?: number,
  ): Promise<unknown> {
    if (this.ended) throw new WarehouseProcessEnded(this.ended);
    const id = this.nextId++;
    const answered = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    // Settled by whichever of the answer, the deadline or the exit comes first; never unhandled.
    answered.catch(() => undefined);
    try {
      this.proc.send({ id, root, op, args });
    } catch (err) {
      this.pending.delete(id);
      throw err;
    }
    if (deadlineMs === undefined) return answered;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.kill();
        reject(
          new WarehouseQueryError(
            'timeout',
            `query exceeded ${deadlineMs} ms`,
            this.exited.catch(() => {}),
          ),
        );
      }, deadlineMs);
    });
    try {
      return await Promise.race([answered, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Lets the parent exit while this child idles (and keeps it running while leased). */
  hold(held: boolean): void {
    if (held) {
      this.proc.ref();
      this.proc.channel?.ref();
    } else {
      this.proc.unref();
      this.proc.channel?.unref();
    }
  }

  kill(): void {
    if (!this.ended) this.proc.kill('SIGKILL');
  }
}

/**
 * The command that starts a child: its compiled JavaScript beside this file when plat runs
 * compiled (docs/architecture.md#compiled-runtime), else the sources through the compiled runtime
 * (tests load TypeScript).
 */
function childCommand(settingsJson: string): string[] {
  const node = [process.execPath, `--max-old-space-size=${CHILD_HEAP_MB}`, '--enable-source-maps'];
  if (__filename.endsWith('.js'))
    return [...node, path.join(__dirname, 'warehouse-child-main.js'), settingsJson];
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  return [
    ...node,
    path.join(repoRoot, 'scripts', 'run-compiled.cjs'),
    'domain/warehouse/process-pool/warehouse-child-main.ts',
    settingsJson,
  ];
}
