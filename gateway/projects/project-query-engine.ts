/**
 * Which engine answers a project's `/query` (docs/fleet.md#project-files). With the embedded engine a
 * project's files are on the host that built them: this gateway's own host reads them directly, any
 * other host's gateway runs the query there through that host's queue (a short workflow). Athena's
 * data is reachable from everywhere, so Athena always answers here.
 */
import { TimeoutFailure, WorkflowFailedError, type Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import {
  WarehouseQueryError,
  type QueryRows,
  type WarehouseEngine,
} from '../../domain/warehouse/warehouse-engine';
import type { LayerName } from '../../shared/prd-schema';
import type { ProjectView } from '../../shared/project-model';
import { warehouseQueryWorkflow } from '../../workflows/fleet/warehouse-query';
import { HttpError } from '../http-errors';

export type QueryEngine = Pick<WarehouseEngine, 'query'>;

export interface ProjectQueryEngines {
  engine: WarehouseEngine;
  /** Starts the remote query's workflow; absent, every query runs here. */
  client?: Client;
  taskQueue?: string;
  /** This gateway's host (the data directory's host id). */
  hostId?: string;
}

/** The engine that can read `view`'s warehouse. */
export function projectQueryEngine(deps: ProjectQueryEngines, view: ProjectView): QueryEngine {
  const host = view.warehouse?.host;
  if (deps.engine.kind !== 'duckdb' || !host || host === deps.hostId || !deps.client || !deps.taskQueue)
    return deps.engine;
  return remoteEngine(deps.client, deps.taskQueue, host);
}

function remoteEngine(client: Client, taskQueue: string, hostId: string): QueryEngine {
  return {
    async query(projectId, sql, maxRows, layer, timeoutMs = 15_000): Promise<QueryRows> {
      let answer;
      try {
        answer = await client.workflow.execute(warehouseQueryWorkflow, {
          taskQueue,
          workflowId: `query-${projectId}-${randomUUID()}`,
          args: [
            {
              host_id: hostId,
              query: {
                project_id: projectId,
                sql,
                max_rows: maxRows,
                layer: layer as LayerName,
                timeout_ms: timeoutMs,
              },
            },
          ],
          workflowExecutionTimeout: timeoutMs + 60_000,
        });
      } catch (err) {
        const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
        if (cause && 'type' in cause && cause.type === 'HostUnavailable')
          throw new HttpError(503, 'host_unavailable', cause.message);
        // The query's workflow itself ran out of time: no worker serves the workflows queue.
        if (cause instanceof TimeoutFailure)
          throw new HttpError(
            503,
            'host_unavailable',
            'no worker took the query: is a worker serving workflows running?',
          );
        throw err;
      }
      if ('refused' in answer) throw new WarehouseQueryError(answer.refused.reason, answer.refused.message);
      return answer.rows;
    },
  };
}
