/**
 * Runs daily from the `plat-retention` schedule (and from `plat retention [--dry-run]`): removes what
 * is past its retention period. The instant comes from the workflow's clock, so a replay, or a test
 * that skips time, sees the same pass.
 */
import type { createRetentionActivities } from '../activities/retention/retention-activities';
import type { RetentionReport } from '../domain/retention/retention-report';
import { workloadActivities } from './workload-activities';

const { applyRetention } = workloadActivities<ReturnType<typeof createRetentionActivities>>('operations', {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

export async function retentionWorkflow(opts: { dry_run?: boolean } = {}): Promise<RetentionReport> {
  return applyRetention({ now: new Date().toISOString(), dry_run: opts.dry_run ?? false });
}
