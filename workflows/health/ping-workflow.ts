/** The deep health check's round trip: workflow task, then an activity on the same worker. */
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type * as activities from '../../activities/health/ping-activities';
import type { PingResult } from '../../shared/health-types';

const { pingWorker } = proxyActivities<typeof activities>({
  startToCloseTimeout: '10 seconds',
  // A health check must answer fast: fail instead of waiting for a worker that is not there.
  scheduleToCloseTimeout: '20 seconds',
  retry: { maximumAttempts: 2 },
});

export async function pingWorkflow(nonce: string): Promise<PingResult> {
  const ping = await pingWorker(nonce);
  return { ...ping, workflow_id: workflowInfo().workflowId };
}
