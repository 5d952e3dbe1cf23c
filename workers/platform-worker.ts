/** The platform worker: every plat workflow and activity on one task queue. */
import type { Logger } from '@temporalio/common';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from './platform-activities';
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
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    activities: createActivities(opts.deps),
    ...workflowSource,
  });
}
