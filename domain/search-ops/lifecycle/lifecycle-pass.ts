/**
 * One pass of plat's lifecycle engine over every managed index (docs/search-lifecycle.md#lifecycle-engine):
 * read the cluster in bulk, attach new indices claimed by an `ism_template`, advance each managed
 * index by one step, and write back only the records that changed, in bulk calls guarded by their
 * versions. Temporal runs a pass on a Schedule; the state lives in the cluster. The steps themselves
 * are `pass-steps.ts`, which the simulator runs too.
 */
import type { OpenSearchClient } from '../opensearch-client';
import { clusterSnapshot } from './cluster-snapshot';
import { PlatLifecycleStore } from './lifecycle-store';
import { OpenSearchLifecycleCluster } from './opensearch-lifecycle-cluster';
import { runPassSteps, type PassOptions, type PassSummary } from './pass-steps';

export type { PassOptions, PassSummary } from './pass-steps';

export async function lifecyclePass(
  client: OpenSearchClient,
  /** The engine's clock: the workflow's time, so time-skipping tests age indices in seconds. */
  now: number,
  opts: PassOptions = {},
): Promise<PassSummary> {
  const store = new PlatLifecycleStore(client);
  const clockOffset = now - Date.now();
  const [snapshot, { managed, claimedUntil }, policies] = await Promise.all([
    clusterSnapshot(client),
    store.engineState(),
    store.listPolicies(),
  ]);
  return runPassSteps(
    { cluster: new OpenSearchLifecycleCluster(client), write: (writes) => store.write(writes) },
    { snapshot, managed, claimedUntil, policies },
    now,
    clockOffset,
    opts,
  );
}
