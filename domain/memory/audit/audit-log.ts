/**
 * The memory service's audit log: JSON lines in `audit_logs/audit-YYYY-MM-DD.jsonl` (UTC date).
 * Each entry is one write of a whole line to the day's file, held open for append (an open and a
 * close per line cost tens of milliseconds on a disk busy with database syncs), and writes are
 * chained, so lines never interleave even under concurrent adds.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface AuditEntry {
  type: string;
  [field: string]: unknown;
}

/** Where audit entries go: day files on one host, a table of the shared PostgreSQL in a fleet. */
export interface AuditSink {
  /** Appends one entry (with its timestamp); resolves when it is stored. */
  append(entry: AuditEntry): Promise<void>;
  close(): Promise<void>;
}

export class AuditLog implements AuditSink {
  private tail: Promise<void> = Promise.resolve();
  /** The open file of the day last written. */
  private open?: { file: string; handle: fs.promises.FileHandle };

  constructor(
    readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The file of a UTC day. */
  fileFor(day: Date): string {
    return path.join(this.dir, `audit-${day.toISOString().slice(0, 10)}.jsonl`);
  }

  /** Appends one entry (with its timestamp); resolves when it is on disk. */
  append(entry: AuditEntry): Promise<void> {
    const at = this.now();
    const line = `${JSON.stringify({ timestamp: at.toISOString(), ...entry })}\n`;
    const write = this.tail.then(async () => {
      const handle = await this.handleFor(this.fileFor(at));
      await handle.write(line);
    });
    this.tail = write.catch(() => {});
    return write;
  }

  /** Closes the open file (appends after this reopen it). */
  async close(): Promise<void> {
    await this.tail;
    await this.open?.handle.close();
    this.open = undefined;
  }

  private async handleFor(file: string): Promise<fs.promises.FileHandle> {
    if (this.open?.file === file) return this.open.handle;
    const previous = this.open;
    this.open = undefined;
    await previous?.handle.close();
    await fs.promises.mkdir(this.dir, { recursive: true });
    const handle = await fs.promises.open(file, 'a');
    this.open = { file, handle };
    return handle;
  }
}
