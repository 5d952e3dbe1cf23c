/**
 * The platform's Temporal Schedules (all UTC): the cost reporter and the agent runner's warm-up every
 * 5 minutes, the memory digest every 15 minutes, memory sync at 01:00, consolidation at 02:00 and
 * retention at 03:00.
 * Start-up registers them idempotently; a schedule an operator paused stays paused.
 */
import type { ScheduleOptions } from '@temporalio/client';
import type { PlatConfig } from '../shared/config';
import { agentRunnerWarmupWorkflow } from '../workflows/agent-runner-warmup';
import { costReporterWorkflow } from '../workflows/cost-reporter';
import { lifecyclePassWorkflow } from '../workflows/search-lifecycle';
import { retentionWorkflow } from '../workflows/retention';
import {
  memoryConsolidationWorkflow,
  memoryDigestWorkflow,
  memorySyncWorkflow,
} from '../workflows/memory-pipelines';

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
  return [
    ...(config.OPENSEARCH_URL
      ? [lifecycleSchedule(config.PLAT_TASK_QUEUE, config.PLAT_LIFECYCLE_INTERVAL ?? '5m')]
      : []),
    {
      scheduleId: scheduleId('cost-reporter', config.PLAT_TASK_QUEUE),
      spec: { intervals: [{ every: '5 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: costReporterWorkflow,
        taskQueue: config.PLAT_TASK_QUEUE,
        args: [10],
        workflowExecutionTimeout: '4 minutes',
      },
      // A missed run is not worth catching up: the next one reports the same totals.
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    {
      scheduleId: scheduleId('agent-runner-warmup', config.PLAT_TASK_QUEUE),
      spec: { intervals: [{ every: '5 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: agentRunnerWarmupWorkflow,
        taskQueue: config.PLAT_TASK_QUEUE,
        workflowExecutionTimeout: '2 minutes',
      },
      // A missed warm-up is not worth catching up: the next one comes in 5 minutes.
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
    {
      scheduleId: scheduleId('memory-digest', config.PLAT_TASK_QUEUE),
      spec: { intervals: [{ every: '15 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: memoryDigestWorkflow,
        taskQueue: config.PLAT_TASK_QUEUE,
        workflowExecutionTimeout: '14 minutes',
      },
      // Each run digests everything since the stored offsets: one catch-up run is enough.
      policies: { overlap: 'SKIP', catchupWindow: '15 minutes' },
    },
    {
      scheduleId: scheduleId('memory-sync', config.PLAT_TASK_QUEUE),
      spec: { calendars: [{ hour: 1, minute: 0, comment: 'daily at 01:00 UTC' }] },
      action: {
        type: 'startWorkflow',
        workflowType: memorySyncWorkflow,
        taskQueue: config.PLAT_TASK_QUEUE,
        workflowExecutionTimeout: '1 hour',
      },
      // Down at 01:00 (a restart, a deploy): still sync when back within the day.
      policies: { overlap: 'SKIP', catchupWindow: '12 hours' },
    },
    {
      scheduleId: scheduleId('memory-consolidation', config.PLAT_TASK_QUEUE),
      spec: { calendars: [{ hour: 2, minute: 0, comment: 'daily at 02:00 UTC (auto_dream)' }] },
      action: {
        type: 'startWorkflow',
        workflowType: memoryConsolidationWorkflow,
        taskQueue: config.PLAT_TASK_QUEUE,
        workflowExecutionTimeout: '2 hours',
      },
      policies: { overlap: 'SKIP', catchupWindow: '12 hours' },
    },
    {
      scheduleId: scheduleId('retention', config.PLAT_TASK_QUEUE),
      spec: { calendars: [{ hour: 3, minute: 0, comment: 'daily at 03:00 UTC' }] },
      action: {
        type: 'startWorkflow',
        workflowType: retentionWorkflow,
        taskQueue: config.PLAT_TASK_QUEUE,
        args: [{ dry_run: false }],
        workflowExecutionTimeout: '2 hours',
      },
      // Down at 03:00: still clean up when back within the day.
      policies: { overlap: 'SKIP', catchupWindow: '12 hours' },
    },
  ];
}

/** The index lifecycle engine, where an OpenSearch cluster is configured (a no-op where ISM runs). */
function lifecycleSchedule(taskQueue: string, every: string): ScheduleOptions {
  return {
    scheduleId: scheduleId('index-lifecycle', taskQueue),
    spec: { intervals: [{ every: every as `${number}${'s' | 'm' | 'h'}` }] },
    action: {
      type: 'startWorkflow',
      workflowType: lifecyclePassWorkflow,
      taskQueue,
      workflowExecutionTimeout: '15 minutes',
    },
    // Each pass reads the whole state again: missed passes need no catching up, one is enough.
    policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
  };
}
