/** Activities of the deep health check: prove a worker polls the task queue and can run code. */
import { activityInfo } from '@temporalio/activity';
import * as os from 'node:os';
import type { WorkerPing } from '../../shared/health-types';

export async function pingWorker(nonce: string): Promise<WorkerPing> {
  return {
    nonce,
    worker_pid: process.pid,
    worker_host: os.hostname(),
    task_queue: activityInfo().taskQueue,
    activity_ran_at: new Date().toISOString(),
  };
}
