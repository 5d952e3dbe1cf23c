/**
 * One warehouse child process (docs/security.md#warehouse-processes): started under an OS memory
 * limit (`ulimit -d`, the data segment, which counts every heap allocation of DuckDB and V8), at
 * the CPU priority the settings give it, and spoken to over IPC. A call past its deadline kills the
 * process; a process that dies fails the call under way with a clear error and nothing else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { WarehouseQueryError } from '../warehouse-engine';
import {
  deserializeError,
  type WarehouseChildAnswer,
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

/** V8's heap in a child: answers are capped far below it, and DuckDB's memory is outside it. */
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
  /** Calls made: a pool retires a child after many (see WarehouseProcessPool). */
  calls = 0;

  constructor(opts: WarehouseProcessOptions) {
    const [command, ...args] = childCommand(JSON.stringify(opts.child));
    const kb = Math.max(1, Math.floor(opts.memoryBytes / 1024));
    // The shell sets the limit (soft and hard: the child cannot raise it) and becomes node.
    this.proc = spawn(
      '/bin/sh',
      ['-c', 'ulimit -d "$1" || exit 97; shift; exec "$@"', 'sh', String(kb), command, ...args],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' },
    );
    this.pid = this.proc.pid ?? -1;
    if (opts.niceness > 0)
      try {
        os.setPriority(this.pid, Math.min(19, os.getPriority(process.pid) + opts.niceness));
      } catch {
        // Not permitted here: the limits still hold, only the priority is the parent's.
      }
    let signalReady: () => void = () => {};
    let failReady: (e: Error) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => ((signalReady = resolve), (failReady = reject)));
    // A caller that never awaits `ready` must not see it as an unhandled rejection.
    this.ready.catch(() => undefined);
    this.exited = new Promise<string>((resolve) => {
      this.proc.on('exit', (code, signal) => {
        const how = code === 97 ? 'could not take its memory limit (ulimit -d)' : describeExit(code, signal);
        this.ended = how;
        failReady(new WarehouseProcessEnded(how));
        for (const p of this.pending.values()) p.reject(new WarehouseProcessEnded(how));
        this.pending.clear();
        resolve(how);
      });
    });
    this.proc.on('error', (err) => failReady(err));
    this.proc.on('message', (answer: WarehouseChildAnswer) => {
      if ('ready' in answer) return signalReady();
      const p = this.pending.get(answer.id);
      if (!p) return;
      this.pending.delete(answer.id);
      if (answer.ok) p.resolve(answer.value);
      else p.reject(deserializeError(answer.error));
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
    this.calls++;
    const id = this.nextId++;
    const answered = new Promise<unknown>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.proc.send({ id, root, op, args });
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
      // Whichever lost the race settles later: nobody listens to it.
      answered.catch(() => undefined);
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
