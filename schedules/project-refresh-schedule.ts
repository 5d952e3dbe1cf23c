/**
 * A project's refresh schedule as a Temporal Schedule (docs/refresh.md#schedules): it starts
 * `projectRefresh` every so long or on a calendar, never while the last one still runs (overlap:
 * skip), and a run missed while the platform was down is started once when it comes back, within
 * the hour.
 */
import type { ScheduleOptions, ScheduleSpec } from '@temporalio/client';
import { projectRefresh } from '../workflows/analysis/project-refresh';
import type { RefreshSchedule } from '../shared/refresh-model';

/** `refresh-<project id>`: one schedule per project (project ids are unique in a deployment). */
export const refreshScheduleId = (projectId: string): string => `refresh-${projectId}`;

/** What the owner asks for: an interval or a calendar (checked by shared/refresh-schedule-rules.ts). */
export type RefreshTiming = Pick<RefreshSchedule, 'every' | 'cron' | 'timezone'>;

export function refreshScheduleSpec(timing: RefreshTiming): ScheduleSpec {
  if (timing.every) return { intervals: [{ every: timing.every as `${number}m` }] };
  return { cronExpressions: [timing.cron!], timezone: timing.timezone ?? 'UTC' };
}

export function refreshScheduleOptions(
  projectId: string,
  taskQueue: string,
  timing: RefreshTiming,
): ScheduleOptions {
  return {
    scheduleId: refreshScheduleId(projectId),
    spec: refreshScheduleSpec(timing),
    action: {
      type: 'startWorkflow',
      workflowType: projectRefresh,
      // Temporal adds the time of each start to the id: `<project>-refresh-2026-12-01T06:00:00Z`.
      workflowId: `${projectId}-refresh`,
      taskQueue,
      args: [{ project_id: projectId, trigger: 'schedule' }],
      staticSummary: `Scheduled refresh of ${projectId}`,
    },
    policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
  };
}
