/**
 * Runs daily from the `plat-retention` schedule (and from `plat retention [--dry-run]`): removes what
 * is past its retention period. The instant comes from the workflow's clock, so a replay, or a test
 * that skips time, sees the same pass. One worker runs the pass; every other live host then clears
 * its own files (logs, ODS) through its host queue (docs/fleet.md#when-a-host-is-lost).
 */
import { patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createRetentionActivities } from '../../activities/retention/retention-activities';
import type { RetentionReport } from '../../domain/retention/retention-report';
import { totalsByKind } from '../../shared/totals-by-kind';
import { hostQueue } from '../../shared/task-queues';
import { workloadActivities } from '../fleet/workload-activities';

type RetentionActivities = ReturnType<typeof createRetentionActivities>;

const { applyRetention } = workloadActivities<RetentionActivities>('operations', {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

/** Passes started after this patch also cover the other hosts' files; older ones one host's. */
const EVERY_HOST_PATCH = 'retention-every-host';

export async function retentionWorkflow(opts: { dry_run?: boolean } = {}): Promise<RetentionReport> {
  const req = { now: new Date().toISOString(), dry_run: opts.dry_run ?? false };
  const report = await applyRetention(req);
  if (!report.other_hosts?.length || !patched(EVERY_HOST_PATCH)) return report;
  const items = report.items.map((i) => ({ ...i, host: report.host_id }));
  const hosts: NonNullable<RetentionReport['hosts']> = [
    { host_id: report.host_id!, state: 'done', items: report.items.length },
  ];
  const notes = [...report.notes];
  for (const host of report.other_hosts) {
    const { applyHostRetention } = proxyActivities<RetentionActivities>({
      taskQueue: hostQueue(workflowInfo().taskQueue, host),
      // A host that went away since it was seen is not waited for: the next pass covers it.
      scheduleToStartTimeout: '2 minutes',
      startToCloseTimeout: '30 minutes',
      heartbeatTimeout: '5 minutes',
      retry: { maximumAttempts: 2 },
    });
    try {
      const done = await applyHostRetention(req);
      items.push(...done.items.map((i) => ({ ...i, host })));
      hosts.push({ host_id: host, state: 'done', items: done.items.length });
    } catch (err) {
      hosts.push({ host_id: host, state: 'not reached', items: 0 });
      notes.push(`host ${host} not reached (${(err as Error).message}): its files wait for a later pass`);
    }
  }
  return {
    ...report,
    items,
    totals: totalsByKind(Object.keys(report.totals) as (keyof RetentionReport['totals'])[], items),
    hosts,
    notes,
    other_hosts: undefined,
  };
}
