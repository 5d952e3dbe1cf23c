/**
 * The embedded memory store serves one instance per data directory: its indexes live in the
 * process and never see another process's writes (docs/fleet.md#memory). A second instance on the
 * same directory is refused with a message, instead of answering stale searches.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../../../shared/process-alive';

/** Claims `<memoryDir>/instance.lock` for this process; throws when a live process holds it. */
export function claimMemoryDir(memoryDir: string): void {
  fs.mkdirSync(memoryDir, { recursive: true });
  const file = path.join(memoryDir, 'instance.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      process.once('exit', () => release(file));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(fs.readFileSync(file, 'utf8').trim());
    // This process again (a service reopened in the same process) keeps its claim.
    if (holder === process.pid) return;
    if (holder > 0 && processAlive(holder)) {
      throw new Error(
        `another memory service (pid ${holder}) serves ${memoryDir}: the embedded memory store is ` +
          'single-instance. Stop it, give this one another PLAT_DATA_DIR, or run several instances ' +
          'on shared state with PLAT_METADATA_URL (docs/fleet.md#memory)',
      );
    }
    fs.rmSync(file, { force: true }); // left by a process that is gone
  }
  throw new Error(`could not claim ${file}`);
}

function release(file: string): void {
  try {
    if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
  } catch {
    /* already gone */
  }
}
