/**
 * The platform's Temporal Schedules (all UTC): the cost reporter and the agent runner's warm-up every
 * 5 minutes, the memory digest every 15 minutes, memory sync at 01:00, consolidation at 02:00 and
 * retention at 03:00.
 * Start-up registers them idempotently; a schedule an operator paused stays paused.
 */
import type { ScheduleOptions, ScheduleSpec } from '@temporalio/client';
import type { Duration, Workflow } from '@temporalio/common';
import type { PlatConfig } from '../shared/config';
import { agentRunnerWarmupWorkflow } from '../workflows/analysis/agent-runner-warmup';
import { costReporterWorkflow } from '../workflows/cost/cost-reporter';
import { lifecyclePassWorkflow } from '../workflows/search-ops/search-lifecycle';
import { retentionWorkflow } from '../workflows/retention/retention';
import {
  memoryConsolidationWorkflow,
  memoryDigestWorkflow,
  memorySyncWorkflow,
} from '../workflows/memory-pipelines/memory-pipelines';

/**
 * Schedule ids are per namespace; deployments that share one on other task queues get their own
 * (`plat-cost-reporter` on the default queue, `plat-cost-reporter-<queue>` otherwise).
 */
export function scheduleId(name: string, taskQueue: string): string {
  return taskQueue === 'plat-platform' ? `plat-${name}` : `plat-${name}-${taskQueue}`;
}

export function platformSchedules(
  config: Pick<PlatConfig, 'PLAT_TASK_QUEUE'> &
    Partial<Pick<PlatConfig, 'OPENSEARCH_URL' | 'PLAT_LIFECYCLE_INTERVAL'>>,
): ScheduleOptions[] {
  const queue = config.PLAT_TASK_QUEUE;
  const every = (minutes: number): ScheduleSpec => ({ intervals: [{ every: `${minutes} minutes` }] });
  const dailyAt = (hour: number, comment: string): ScheduleSpec => ({
    calendars: [{ hour, minute: 0, comment }],
  });
  return [
    ...(config.OPENSEARCH_URL
      ? [
          // Each pass reads the whole state again: missed passes need no catching up, one is enough.
          skipping(queue, 'index-lifecycle', {
            spec: {
              intervals: [
                { every: (config.PLAT_LIFECYCLE_INTERVAL ?? '5m') as `${number}${'s' | 'm' | 'h'}` },
              ],
            },
            workflow: lifecyclePassWorkflow,
            timeout: '15 minutes',
            catchupWindow: '1 minute',
          }),
        ]
      : []),
    // A missed run is not worth catching up: the next one reports the same totals.
    skipping(queue, 'cost-reporter', {
      spec: every(5),
      workflow: costReporterWorkflow,
      args: [10],
      timeout: '4 minutes',
      catchupWindow: '1 minute',
    }),
    // A missed warm-up is not worth catching up: the next one comes in 5 minutes.
    skipping(queue, 'agent-runner-warmup', {
      spec: every(5),
      workflow: agentRunnerWarmupWorkflow,
      timeout: '2 minutes',
      catchupWindow: '1 minute',
    }),
    // Each run digests everything since the stored offsets: one catch-up run is enough.
    skipping(queue, 'memory-digest', {
      spec: every(15),
      workflow: memoryDigestWorkflow,
      timeout: '14 minutes',
      catchupWindow: '15 minutes',
    }),
    // Down at 01:00 (a restart, a deploy): still sync when back within the day.
    skipping(queue, 'memory-sync', {
      spec: dailyAt(1, 'daily at 01:00 UTC'),
      workflow: memorySyncWorkflow,
      timeout: '1 hour',
      catchupWindow: '12 hours',
    }),
    skipping(queue, 'memory-consolidation', {
      spec: dailyAt(2, 'daily at 02:00 UTC (auto_dream)'),
      workflow: memoryConsolidationWorkflow,
      timeout: '2 hours',
      catchupWindow: '12 hours',
    }),
    // Down at 03:00: still clean up when back within the day.
    skipping(queue, 'retention', {
      spec: dailyAt(3, 'daily at 03:00 UTC'),
      workflow: retentionWorkflow,
      args: [{ dry_run: false }],
      timeout: '2 hours',
      catchupWindow: '12 hours',
    }),
  ];
}

/**
 * A schedule starting `workflow` on the task queue, that skips a run while the last one goes on
 * and catches up missed runs within `catchupWindow`.
 */
function skipping<W extends Workflow>(
  taskQueue: string,
  name: string,
  s: { spec: ScheduleSpec; workflow: W; args?: Parameters<W>; timeout: Duration; catchupWindow: Duration },
): ScheduleOptions {
  return {
    scheduleId: scheduleId(name, taskQueue),
    spec: s.spec,
    action: {
      type: 'startWorkflow',
      workflowType: s.workflow,
      taskQueue,
      ...(s.args ? { args: s.args } : {}),
      workflowExecutionTimeout: s.timeout,
    },
    policies: { overlap: 'SKIP', catchupWindow: s.catchupWindow },
  };
}
