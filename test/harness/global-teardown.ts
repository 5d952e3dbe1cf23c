/**
 * Stops what global setup started, by process group id, and the OpenSearch pool's nodes
 * (test/harness/opensearch-pool.ts), and removes the run's temp directory.
 */
import * as fs from 'node:fs';
import { harness, harnessFile } from './harness-state';
import { stopOpenSearchPool } from './opensearch-pool-stop';
import { stopGroup } from './process-groups';

export default async function globalTeardown(): Promise<void> {
  if (!fs.existsSync(harnessFile)) return;
  const state = harness();
  const [pool] = await Promise.all([
    stopOpenSearchPool(state.opensearchPool?.dir),
    ...[state.temporal.pid, state.mariadb.pid, state.postgres?.pid].flatMap((pid) =>
      pid ? [stopGroup(pid)] : [],
    ),
  ]);
  if (pool) console.log(`\nharness: ${pool}`);
  fs.rmSync(state.runDir, { recursive: true, force: true });
  fs.rmSync(harnessFile, { force: true });
}
