/** Registers every platform schedule at start-up; a second start changes nothing. */
import type { Client, ScheduleOptions } from '@temporalio/client';
import type { Logger } from 'pino';
import { ensureSchedule, type EnsureResult } from './ensure-schedule';

export async function registerSchedules(
  client: Client,
  schedules: ScheduleOptions[],
  log?: Logger,
): Promise<Record<string, EnsureResult>> {
  const results: Record<string, EnsureResult> = {};
  for (const schedule of schedules) {
    results[schedule.scheduleId] = await ensureSchedule(client, schedule);
    log?.info(
      { schedule_id: schedule.scheduleId, result: results[schedule.scheduleId] },
      'schedule registered',
    );
  }
  return results;
}
