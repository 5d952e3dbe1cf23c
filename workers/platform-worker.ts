/**
 * The platform worker: one SDK Worker per task queue it serves (docs/fleet.md#task-queues), all on
 * one connection. The workflows queue's worker runs the workflow code; the others run activities
 * only, each queue with its own slot limit.
 */
import type { Logger } from '@temporalio/common';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import type { Registry } from 'prom-client';
import {
  WORKLOADS,
  hostQueriesQueue,
  hostQueue,
  queuesServing,
  workloadQueue,
  type WorkerQueue,
  type Workload,
} from '../shared/task-queues';
import { createActivityMetrics } from './activity-metrics';
import {
  activitiesByQueue,
  activityFunctions,
  createActivityGroups,
  type ActivityDeps,
} from './platform-activities';
import { cachedWorkflowBundle, workflowSourceHash } from './workflow-bundle-cache';

/** Activity slots per queue by default: model calls and copies are heavy, bookkeeping is light. */
export const DEFAULT_SLOTS: Record<WorkerQueue, number> = {
  workflows: 50,
  agents: 4,
  ingestion: 10,
  host: 4,
  queries: 8,
  warehouse: 4,
  operations: 4,
};

export interface PlatformWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  /** The base queue (PLAT_TASK_QUEUE): workflows run here, the other queues' names derive from it. */
  taskQueue: string;
  /** What the activities work on (metadata store, parameter store, this host). */
  deps: ActivityDeps;
  /** The workloads served (default: all of them, as `npm start` does). */
  workloads?: readonly Workload[];
  /** Activity slots per queue (defaults: DEFAULT_SLOTS). */
  slots?: Partial<Record<WorkerQueue, number>>;
  /** How long a stopping worker lets running activities finish before cancelling them (ms). */
  shutdownGraceMs?: number;
  /** Directory to cache the bundled workflow code in; omit to bundle every time. */
  bundleCacheDir?: string;
  /** Where webpack's output goes when the bundle is built. */
  logger?: Logger;
  /** Where each activity attempt's duration and failure are counted (the worker's /metrics). */
  metrics?: Registry;
}

export const workflowsPath = require.resolve('../workflows');

/** The SDK workers of one process, run and stopped together. */
export class PlatformWorker {
  constructor(
    /** Each served queue's name and worker. */
    readonly workers: { queue: string; worker: Worker }[],
    private readonly deps: ActivityDeps,
    readonly workloads: readonly Workload[],
  ) {}

  /**
   * Polls every queue until shutdown (SIGINT/SIGTERM or `shutdown()`), then waits for the running
   * tasks. While it runs, this host is stamped alive when it serves the host queue.
   */
  async run(): Promise<void> {
    const beat = queuesServing(this.workloads).includes('host')
      ? await this.deps.host.registry.keepBeating(
          this.deps.host.id,
          [...this.workloads],
          () => this.workers.every(({ worker }) => ['INITIALIZED', 'RUNNING'].includes(worker.getState())),
          (err) => console.warn(`host ${this.deps.host.id} not stamped alive: ${String(err)}`),
        )
      : undefined;
    let failure: { error: unknown } | undefined;
    await Promise.all(
      this.workers.map(({ worker }) =>
        worker.run().catch((error: unknown) => {
          // One queue's worker failing takes the others down: half a worker keeps tasks it cannot run.
          failure ??= { error };
          this.shutdown();
        }),
      ),
    );
    await beat?.stop(!failure);
    if (failure) throw failure.error;
  }

  shutdown(): void {
    for (const { worker } of this.workers) if (worker.getState() === 'RUNNING') worker.shutdown();
  }

  /** Runs until `fn` settles, then shuts down and waits (tests and benchmarks). */
  async runUntil<R>(fn: Promise<R> | (() => Promise<R>)): Promise<R> {
    const running = this.run();
    // Observed below; a failure while `fn` is still pending must not go unhandled meanwhile.
    running.catch(() => {});
    try {
      return await (typeof fn === 'function' ? fn() : fn);
    } finally {
      this.shutdown();
      await running;
    }
  }
}

export async function createPlatformWorker(opts: PlatformWorkerOptions): Promise<PlatformWorker> {
  const workloads = opts.workloads ?? WORKLOADS;
  const groups = createActivityGroups(opts.deps);
  const byQueue = activitiesByQueue(groups);
  const activityInterceptors = opts.metrics
    ? [createActivityMetrics(opts.metrics, activityFunctions(groups)).interceptor]
    : [];
  const buildId = workflowSourceHash();
  const queues = queuesServing(workloads, opts.deps.engine.kind === 'athena');
  const workers = await Promise.all(
    queues.map(async (queue) => {
      const name =
        queue === 'host'
          ? hostQueue(opts.taskQueue, opts.deps.host.id)
          : queue === 'queries'
            ? hostQueriesQueue(opts.taskQueue, opts.deps.host.id)
            : workloadQueue(opts.taskQueue, queue);
      const worker = await Worker.create({
        connection: opts.connection,
        namespace: opts.namespace,
        taskQueue: name,
        identity: `${process.pid}@${opts.deps.host.id}`,
        activities: byQueue[queue],
        interceptors: { activity: activityInterceptors },
        maxConcurrentActivityTaskExecutions: opts.slots?.[queue] ?? DEFAULT_SLOTS[queue],
        shutdownGraceTime: opts.shutdownGraceMs ?? 0,
        // The build shows in the Temporal UI beside each task it ran (docs/fleet.md#deploys).
        workerDeploymentOptions: { version: { deploymentName: 'plat', buildId }, useWorkerVersioning: false },
        ...(queue === 'workflows' ? await workflowSource(opts, buildId) : {}),
      });
      return { queue: name, worker };
    }),
  );
  return new PlatformWorker(workers, opts.deps, workloads);
}

async function workflowSource(
  opts: PlatformWorkerOptions,
  buildId: string,
): Promise<Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>> {
  if (!opts.bundleCacheDir) return { workflowsPath };
  return {
    workflowBundle: await cachedWorkflowBundle(workflowsPath, opts.bundleCacheDir, buildId, (b) =>
      bundleWorkflowCode({ ...b, logger: opts.logger }),
    ),
  };
}
