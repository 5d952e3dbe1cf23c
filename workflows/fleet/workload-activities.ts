/**
 * Activities of one workload, proxied to that workload's queue (docs/fleet.md#task-queues). The
 * queue is resolved at each call, from the running workflow's own queue, so the same code serves any
 * base queue (PLAT_TASK_QUEUE, or a test's own), and module-level destructuring stays legal where
 * no workflow runs (a process importing a workflow's name).
 */
import { proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import { workloadQueue, type Workload } from '../../shared/task-queues';

export function workloadActivities<A extends object>(workload: Workload, options: ActivityOptions): A {
  return new Proxy({} as A, {
    get:
      (_, name: string) =>
      (...args: unknown[]) =>
        proxyActivities<Record<string, (...a: unknown[]) => Promise<unknown>>>({
          ...options,
          taskQueue: workloadQueue(workflowInfo().taskQueue, workload),
        })[name](...args),
  });
}
