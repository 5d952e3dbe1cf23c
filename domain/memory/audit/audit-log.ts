/**
 * The memory service's audit log: one JSON line per entry, `{"timestamp": …, "type": …, …}`, appended
 * in the order entries arrive (appends are chained, so lines never interleave even under concurrent
 * adds). One implementation for every instance; where the lines go is its `AuditLines`: the daily
 * files `audit_logs/audit-YYYY-MM-DD.jsonl` the memory API names (audit-files.ts), or, in a fleet,
 * rows of the shared PostgreSQL so every instance's entries land in one place (audit-table.ts).
 */

export interface AuditEntry {
  type: string;
  [field: string]: unknown;
}

/** Where audit entries go. */
export interface AuditSink {
  /** Appends one entry (with its timestamp); resolves when it is stored. */
  append(entry: AuditEntry): Promise<void>;
  close(): Promise<void>;
}

/** Where an audit log's lines are stored. */
export interface AuditLines {
  /** Stores one line (JSON, no newline) of an entry made at `at`. */
  write(at: Date, line: string): Promise<void>;
  close(): Promise<void>;
}

export class AuditLog implements AuditSink {
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly lines: AuditLines,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Appends one entry (with its timestamp); resolves when it is stored. */
  append(entry: AuditEntry): Promise<void> {
    const at = this.now();
    const line = JSON.stringify({ timestamp: at.toISOString(), ...entry });
    const write = this.tail.then(() => this.lines.write(at, line));
    this.tail = write.catch(() => {});
    return write;
  }

  /** Waits for the appends under way, then closes the store (appends after this reopen it). */
  async close(): Promise<void> {
    await this.tail;
    await this.lines.close();
  }
}
