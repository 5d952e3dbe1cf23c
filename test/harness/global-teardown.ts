/** Stops what global setup started, by process group id, and removes the run's temp directory. */
import * as fs from 'node:fs';
import { harness, harnessFile } from './harness-state';

export default async function globalTeardown(): Promise<void> {
  if (!fs.existsSync(harnessFile)) return;
  const state = harness();
  await Promise.all(
    [state.temporal.pid, state.mariadb.pid, state.postgres?.pid].flatMap((pid) =>
      pid ? [stopGroup(pid)] : [],
    ),
  );
  fs.rmSync(state.runDir, { recursive: true, force: true });
  fs.rmSync(harnessFile, { force: true });
}

async function stopGroup(pid: number, stop: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  signal(pid, stop);
  for (let waited = 0; waited < 15_000 && alive(pid); waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  signal(pid, 'SIGKILL');
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    /* gone */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
