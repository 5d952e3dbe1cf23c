/**
 * An exclusive lease shared by the processes of one machine: a file that names its holder. Taking it
 * is atomic (a hard link to a complete file, which fails when the lease exists), and a lease whose
 * holder has ended is taken over by exactly one process (the one that makes the holding's marker
 * directory).
 */
import * as fs from 'node:fs';

/** Who holds a lease: a process, and a token unique to this holding. */
export interface LeaseHolder {
  pid: number;
  token: string;
  /** What it is held for (a test file), for messages. */
  purpose?: string;
}

/** Takes the lease at `file` for `holder`: false when it is held, or its directory is gone. */
export function tryLease(file: string, holder: LeaseHolder): boolean {
  const tmp = `${file}.${holder.token}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(holder));
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if (['EEXIST', 'ENOENT'].includes((err as NodeJS.ErrnoException).code ?? '')) return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The holder of the lease at `file`, or undefined when it is free. */
export function leaseHolder(file: string): LeaseHolder | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as LeaseHolder;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lease at `file` over from `gone` (whose process has ended) for `holder`: false when
 * another process took it over first, or it changed hands meanwhile.
 */
export function takeOverLease(file: string, gone: LeaseHolder, holder: LeaseHolder): boolean {
  try {
    fs.mkdirSync(`${file}.taken-from-${gone.token}`);
  } catch {
    return false;
  }
  if (leaseHolder(file)?.token !== gone.token) return false;
  const tmp = `${file}.${holder.token}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(holder));
  fs.renameSync(tmp, file);
  return true;
}

/** Gives the lease at `file` up, if `holder` still holds it. */
export function releaseLease(file: string, holder: LeaseHolder): void {
  if (leaseHolder(file)?.token === holder.token) fs.rmSync(file, { force: true });
}
