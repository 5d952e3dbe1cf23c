/**
 * A log written as one file per UTC day (named by domain/retention/daily-log-names.ts), with `<name>.log` a symlink to the
 * current day's file. Retention removes whole days (docs/monitoring.md#retention); the stable name
 * keeps `tail -f .data/logs/worker.log` working.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dailyLogName, earlierLogName } from '../../domain/retention/daily-log-names';

export class DailyLogFile {
  private fd: number | undefined;
  private day = '';

  /** `link` is the stable path, e.g. `.data/logs/worker.log`. */
  constructor(readonly link: string) {}

  write(chunk: Buffer): void {
    const today = new Date().toISOString().slice(0, 10);
    if (today !== this.day || this.fd === undefined) this.open(today);
    fs.writeSync(this.fd!, chunk);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private open(day: string): void {
    this.close();
    const base = path.basename(this.link, '.log');
    const file = dailyLogName(base, day);
    this.fd = fs.openSync(path.join(path.dirname(this.link), file), 'a');
    this.day = day;
    // A plain file left by an older plat is kept under a dated name of its own, not lost.
    if (fs.existsSync(this.link) && !fs.lstatSync(this.link).isSymbolicLink()) {
      fs.renameSync(this.link, path.join(path.dirname(this.link), earlierLogName(base, day)));
    }
    const next = `${this.link}.${process.pid}.tmp`;
    fs.rmSync(next, { force: true });
    fs.symlinkSync(file, next);
    fs.renameSync(next, this.link);
  }
}
