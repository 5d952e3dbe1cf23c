/** Names and timing of the incremental load's schedule (generated template). */
import * as fs from 'node:fs';
import * as path from 'node:path';

const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'pipeline.json'), 'utf8')) as {
  project_id: string;
  schedule: { cron: string };
};

export const TASK_QUEUE = `${config.project_id}-pipeline`;
export const SCHEDULE_ID = `${config.project_id}-incremental-load`;
export const CRON = config.schedule.cron;
