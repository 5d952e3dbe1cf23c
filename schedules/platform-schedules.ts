/**
 * The platform's Temporal Schedules. Each capability adds its definitions here (memory digest,
 * sync and consolidation; the cost reporter) as it lands; start-up registers them idempotently.
 */
import type { ScheduleOptions } from '@temporalio/client';
import type { PlatConfig } from '../shared/config';

export function platformSchedules(_config: Pick<PlatConfig, 'PLAT_TASK_QUEUE'>): ScheduleOptions[] {
  return [];
}
