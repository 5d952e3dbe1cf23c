/**
 * A host's identity: a name made once per data directory and kept in `<data>/host-id`. Workers on
 * the same data directory share it, and so share one host queue (docs/fleet.md#project-files).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The data directory's host id, made on first use: `<hostname>-<6 hex>`, safe in a queue name. */
export function hostId(dataDir: string): string {
  const file = path.join(dataDir, 'host-id');
  const existing = readHostId(dataDir);
  if (existing) return existing;
  const name = os
    .hostname()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  const id = `${name || 'host'}-${randomBytes(3).toString('hex')}`;
  fs.mkdirSync(dataDir, { recursive: true });
  // Written whole under a private name, then linked into place: two processes starting together on
  // one directory agree on the first one's id, and no one ever reads a half-written file.
  const tmp = `${file}.${process.pid}-${randomBytes(3).toString('hex')}`;
  fs.writeFileSync(tmp, `${id}\n`);
  try {
    fs.linkSync(tmp, file);
    return id;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return readHostId(dataDir)!;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** The data directory's host id if one has been made. */
export function readHostId(dataDir: string): string | undefined {
  try {
    return fs.readFileSync(path.join(dataDir, 'host-id'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
