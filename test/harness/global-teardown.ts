/**
 * Stops what global setup started, by process group id, and the OpenSearch pool's nodes
 * (test/harness/opensearch-pool.ts), and removes the run's temp directory.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from '../../shared/process-alive';
import { harness, harnessDir, harnessFile } from './harness-state';
import { stopOpenSearchPool } from './opensearch-pool-stop';
import { stopGroup } from './process-groups';

export default async function globalTeardown(): Promise<void> {
  await stopHarness(harnessFile());
}

/**
 * Stops the servers of runs that were killed before their teardown (their jest process is gone);
 * a run still going keeps its own.
 */
export async function stopAbandonedHarnesses(): Promise<void> {
  const files = fs.existsSync(harnessDir)
    ? fs.readdirSync(harnessDir).filter((f) => f.endsWith('.json'))
    : [];
  for (const file of files.map((f) => path.join(harnessDir, f))) {
    const owner = harness(file).ownerPid;
    if (!owner || !processAlive(owner)) await stopHarness(file);
  }
}

async function stopHarness(file: string): Promise<void> {
  if (!fs.existsSync(file)) return;
  const state = harness(file);
  const [pool] = await Promise.all([
    stopOpenSearchPool(state.opensearchPool?.dir),
    ...[state.temporal.pid, state.mariadb.pid, state.postgres?.pid].flatMap((pid) =>
      pid ? [stopGroup(pid)] : [],
    ),
  ]);
  if (pool) console.log(`\nharness: ${pool}`);
  // A server's last writes can land while the directory is removed: try again (ENOTEMPTY).
  fs.rmSync(state.runDir, { recursive: true, force: true, maxRetries: 5 });
  fs.rmSync(file, { force: true });
}
