/** Stopping the process groups of servers the harness started (each leads its own group). */
import * as fs from 'node:fs';

/** Asks the group led by `pid` to stop (`stop`), SIGKILL after `graceMs`; resolves once its leader is gone. */
export async function stopGroup(
  pid: number,
  stop: NodeJS.Signals = 'SIGTERM',
  graceMs = 15_000,
): Promise<void> {
  signal(pid, stop);
  for (let waited = 0; waited < graceMs && alive(pid); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  signal(pid, 'SIGKILL');
}

/** True while process `pid` runs (a zombie, ended but not yet reaped by its parent, does not). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc here
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    /* gone */
  }
}
