/**
 * plat's index lifecycle engine on Temporal (docs/search-lifecycle.md#lifecycle-engine): a Schedule
 * starts one pass every PLAT_LIFECYCLE_INTERVAL. Each pass reads the cluster, advances every managed
 * index one step and stores the new state in the cluster, so a restart loses nothing. The pass runs
 * on the workflow's clock: time-skipping tests walk indices through months in seconds.
 */
import type {
  LifecycleActivities,
  LifecyclePassResult,
} from '../../activities/search-ops/lifecycle-activities';
import { workloadActivities } from '../fleet/workload-activities';

const acts = workloadActivities<LifecycleActivities>('operations', {
  startToCloseTimeout: '4 minutes',
  // A pass steps indices one after another and heartbeats as it goes: a stuck one is noticed early.
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds' },
});

/** One engine pass; its result lists what changed (visible in the Web UI). */
export async function lifecyclePassWorkflow(): Promise<LifecyclePassResult> {
  return acts.runLifecyclePass({ now: Date.now() });
}
