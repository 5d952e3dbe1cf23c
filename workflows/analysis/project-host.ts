/**
 * Stages that touch a project's files run on the queue of the host holding them (the worker-specific
 * task queue pattern; docs/fleet.md#project-files). A task that waits there longer than the host's
 * loss timeout asks whether the host is alive: a busy host gets the task again, a lost one ends the
 * attempt with `HostLost`, and the project starts over on another host.
 */
import {
  ActivityFailure,
  TimeoutFailure,
  proxyActivities,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { ClaimHostRequest, HostActivities, ProjectHost } from '../../activities/fleet/host-activities';
import { hostQueue, workloadQueue } from '../../shared/task-queues';

export type { ProjectHost };

/** The project's host stopped answering and is not seen alive: its files are gone with it. */
export class HostLost extends Error {
  constructor(readonly host: ProjectHost) {
    super(`host ${host.host_id} stopped answering for ${Math.round(host.lost_after_ms / 1000)} s`);
    this.name = 'HostLost';
  }
}

/** Claims a host through the ingestion queue: the worker that answers names its own host. */
export async function claimHost(req: ClaimHostRequest): Promise<ProjectHost> {
  const { claimProjectHost } = proxyActivities<HostActivities>({
    taskQueue: workloadQueue(workflowInfo().taskQueue, 'ingestion'),
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
  });
  return claimProjectHost(req);
}

const { hostAlive } = proxyActivities<HostActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
});

/** `A`'s activities, run on `host`'s queue; a call throws `HostLost` when the host is gone. */
export function onHost<A extends object>(host: ProjectHost, options: ActivityOptions): A {
  const remote = proxyActivities<Record<string, (...args: unknown[]) => Promise<unknown>>>({
    ...options,
    taskQueue: hostQueue(workflowInfo().taskQueue, host.host_id),
    scheduleToStartTimeout: host.lost_after_ms,
  });
  return new Proxy({} as A, {
    get:
      (_, name: string) =>
      async (...args: unknown[]) => {
        for (;;) {
          try {
            return await remote[name](...args);
          } catch (err) {
            if (!waitedTooLong(err)) throw err;
            if (!(await hostAlive({ host_id: host.host_id, within_ms: host.lost_after_ms })))
              throw new HostLost(host);
          }
        }
      },
  });
}

/** The task was never picked up within its schedule-to-start timeout (not retried by the server). */
function waitedTooLong(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof TimeoutFailure &&
    err.cause.timeoutType === 'SCHEDULE_TO_START'
  );
}
