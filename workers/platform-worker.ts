/** The platform worker: every plat workflow and activity on one task queue. */
import type { Logger } from '@temporalio/common';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import type { Registry } from 'prom-client';
import { createActivityMetrics } from './activity-metrics';
import {
  activityFunctions,
  allActivities,
  createActivityGroups,
  type ActivityDeps,
} from './platform-activities';
import { cachedWorkflowBundle } from './workflow-bundle-cache';

export interface PlatformWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** What the activities work on (metadata store, parameter store). */
  deps: ActivityDeps;
  /** Directory to cache the bundled workflow code in; omit to bundle every time. */
  bundleCacheDir?: string;
  /** Where webpack's output goes when the bundle is built. */
  logger?: Logger;
  /** Where each activity attempt's duration and failure are counted (the worker's /metrics). */
  metrics?: Registry;
}

export const workflowsPath = require.resolve('../workflows');

export async function createPlatformWorker(opts: PlatformWorkerOptions): Promise<Worker> {
  const workflowSource: Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> = opts.bundleCacheDir
    ? {
        workflowBundle: await cachedWorkflowBundle(workflowsPath, opts.bundleCacheDir, (b) =>
          bundleWorkflowCode({ ...b, logger: opts.logger }),
        ),
      }
    : { workflowsPath };
  const groups = createActivityGroups(opts.deps);
  const activityInterceptors = opts.metrics
    ? [createActivityMetrics(opts.metrics, activityFunctions(groups)).interceptor]
    : [];
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: allActivities(groups),
    interceptors: { activity: activityInterceptors },
    ...workflowSource,
  });
}
