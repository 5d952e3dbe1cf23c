/**
 * One `/query` of a project whose files are on another host: the gateway starts this short workflow,
 * which runs the query on that host's queries queue (docs/fleet.md#project-files). A host that does not take
 * the task within 10 s is reported unavailable instead of leaving the caller waiting.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  TimeoutFailure,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  HostQueryAnswer,
  HostQueryRequest,
  WarehouseQueryActivities,
} from '../../activities/fleet/warehouse-query-activities';
import { hostQueriesQueue } from '../../shared/task-queues';

export async function warehouseQueryWorkflow(req: {
  host_id: string;
  query: HostQueryRequest;
}): Promise<HostQueryAnswer> {
  const { queryProjectWarehouse } = proxyActivities<WarehouseQueryActivities>({
    // The host's queries queue: its own slots, so a long copy never holds a query up.
    taskQueue: hostQueriesQueue(workflowInfo().taskQueue, req.host_id),
    scheduleToStartTimeout: '10 seconds',
    startToCloseTimeout: req.query.timeout_ms + 15_000,
    // A query is interactive: the caller retries, not the platform.
    retry: { maximumAttempts: 1 },
  });
  try {
    return await queryProjectWarehouse(req.query);
  } catch (err) {
    // Not taken within 10 s, or taken and never answered (the host died mid-query).
    if (err instanceof ActivityFailure && err.cause instanceof TimeoutFailure) {
      throw ApplicationFailure.nonRetryable(
        `the host holding this project's warehouse (${req.host_id}) is not answering`,
        'HostUnavailable',
      );
    }
    throw err;
  }
}
