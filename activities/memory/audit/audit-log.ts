/**
 * The memory service's audit log: JSON lines in `audit_logs/audit-YYYY-MM-DD.jsonl` (UTC date).
 * Each entry is one `appendFile` of a whole line on a file opened for append, and writes are
 * chained, so lines never interleave even under concurrent adds.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface AuditEntry {
  type: string;
  [field: string]: unknown;
}

export class AuditLog {
  private tail: Promise<void> = Promise.resolve();

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
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.appendFile(this.fileFor(at), line);
    });
    this.tail = write.catch(() => {});
    return write;
  }
}
