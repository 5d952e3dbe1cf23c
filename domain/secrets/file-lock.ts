/**
 * A lock between the processes of one host over one file: writers of a parameter file (put, delete,
 * reseal) hold it, so a rotation never writes back a value another process replaced or deleted.
 * Readers take no lock: every write is a rename, so a reader sees one whole version or the other.
 */
import * as fs from 'node:fs';

/** A lock older than this was left by a process that died holding it (holders keep it for ms). */
const STALE_MS = 10_000;
const WAIT_MS = 30_000;

/** Runs `fn` holding the lock of `file` (a directory `<file>.lock`: mkdir is atomic). */
export function withFileLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    breakIfStale(lock);
    if (Date.now() > deadline) throw new Error(`${lock} has been held for ${WAIT_MS / 1000} s`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function breakIfStale(lock: string): void {
  try {
    if (Date.now() - fs.statSync(lock).mtimeMs > STALE_MS) fs.rmSync(lock, { recursive: true, force: true });
  } catch {
    // Released meanwhile: the next attempt takes it.
  }
}
