/** Runs every 5 minutes from the `plat-agent-runner-warmup` schedule: the agent runner answers `warm`. */
import type * as warmup from '../../activities/analysis/agent-runner-warmup';
import { workloadActivities } from '../fleet/workload-activities';

const { warmAgentRunner } = workloadActivities<typeof warmup>('agents', {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 2 },
});

export async function agentRunnerWarmupWorkflow(): Promise<'warm'> {
  return warmAgentRunner({ _warmup: true });
}
