/**
 * Workers for workflow tests with stand-in or partial activities: one per queue a workflow started on
 * `base` sends activities to (docs/fleet.md#task-queues), each registering the same `activities`.
 * The platform's own worker (workers/platform-worker.ts) splits them by queue; tests need not.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { WORKLOADS, hostQueriesQueue, hostQueue, workloadQueue } from '../../shared/task-queues';
import { testWorkflowBundle } from './workflow-bundle';

export interface QueueWorkers {
  /** Polls every queue until `shutdown`. */
  run(): Promise<void>;
  shutdown(): void;
  /** Runs until `fn` settles, then shuts down and waits. */
  runUntil<R>(fn: () => Promise<R>): Promise<R>;
}

export async function workersOnEveryQueue(
  env: TestWorkflowEnvironment,
  base: string,
  activities: object,
  opts: { hosts?: string[]; workflowsPath?: string; workflowBundle?: WorkflowBundleWithSourceMap } = {},
): Promise<QueueWorkers> {
  const queues = [
    ...WORKLOADS.map((w) => workloadQueue(base, w)),
    ...(opts.hosts ?? []).flatMap((h) => [hostQueue(base, h), hostQueriesQueue(base, h)]),
  ];
  const workers = await Promise.all(
    queues.map(async (taskQueue) =>
      Worker.create({
        connection: env.nativeConnection,
        taskQueue,
        activities,
        ...(taskQueue === base
          ? opts.workflowsPath
            ? { workflowsPath: opts.workflowsPath }
            : { workflowBundle: opts.workflowBundle ?? (await testWorkflowBundle()) }
          : {}),
      }),
    ),
  );
  const shutdown = () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  };
  const run = async () => {
    try {
      await Promise.all(workers.map((w) => w.run()));
    } finally {
      shutdown();
    }
  };
  return {
    run,
    shutdown,
    async runUntil(fn) {
      const running = run();
      try {
        return await fn();
      } finally {
        shutdown();
        await running;
      }
    },
  };
}
