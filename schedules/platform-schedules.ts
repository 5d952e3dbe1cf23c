/**
 * The platform's Temporal Schedules. Each capability adds its definitions here (memory digest,
 * sync and consolidation; the cost reporter) as it lands; start-up registers them idempotently.
 */
import type { ScheduleOptions } from '@temporalio/client';
import type { PlatConfig } from '../shared/config';

/**
 * Schedule ids are per namespace; deployments that share one on other task queues get their own
 * (`plat-cost-reporter` on the default queue, `plat-cost-reporter-<queue>` otherwise).
 */
export function scheduleId(name: string, taskQueue: string): string {
  return taskQueue === 'plat-platform' ? `plat-${name}` : `plat-${name}-${taskQueue}`;
}

export function platformSchedules(config: Pick<PlatConfig, 'PLAT_TASK_QUEUE'>): ScheduleOptions[] {
  return [
    {
      scheduleId: scheduleId('cost-reporter', config.PLAT_TASK_QUEUE),
      spec: { intervals: [{ every: '5 minutes' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'costReporterWorkflow',
        taskQueue: config.PLAT_TASK_QUEUE,
        args: [10],
        workflowExecutionTimeout: '4 minutes',
      },
      // A missed run is not worth catching up: the next one reports the same totals.
      policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
    },
  ];
}
