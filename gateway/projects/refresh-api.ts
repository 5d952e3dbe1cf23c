/**
 * A project's refreshes over HTTP (docs/refresh.md#refresh-now): start one now, and read how fresh
 * the warehouse is with the runs so far. The owner's or an operator's.
 */
import { z } from 'zod';
import { apiRoute, type ApiRoute } from '../api/api-route';
import type { RefreshService } from './refresh-service';

const dateTime = z.string().describe('ISO 8601 date-time');
const projectParams = z
  .object({ project_id: z.string().min(1).max(200).describe('proj-<yyyymmdd>-<suffix>') })
  .strict();
const ONE = '/v1/projects/{project_id}';

const tableRefresh = z.looseObject({
  table: z.string(),
  read: z.enum(['changes', 'whole']),
  detail: z.string(),
  rows_read: z.number().int(),
  rows_before: z.number().int(),
  rows_after: z.number().int(),
  rows_deleted: z.number().int(),
  watermark: z.string().optional(),
});
const refreshRun = z.looseObject({
  refresh_id: z.string(),
  trigger: z.enum(['manual', 'schedule']),
  status: z.enum(['running', 'completed', 'failed']),
  started_at: dateTime,
  ended_at: dateTime.optional(),
  source_as_of: dateTime.optional().describe("when the source's snapshot was taken"),
  rows_read: z.number().int().optional(),
  tables: z.array(tableRefresh).optional().describe('what the run did to each table (the last run only)'),
  rebuilt: z.record(z.string(), z.number().int()).optional().describe('rows per modeled table, layer.table'),
  error: z.string().optional(),
});

export const refreshStateSchema = z.object({
  project_id: z.string(),
  as_of: dateTime
    .nullable()
    .describe('the source time the warehouse shows: the last successful refresh, else the first copy'),
  last: refreshRun.nullable(),
  history: z.array(refreshRun).describe('earlier runs, newest first'),
});

const refreshStartedSchema = z.object({
  project_id: z.string(),
  refresh_id: z.string(),
  status: z.literal('started'),
});

export function refreshApi(service: RefreshService): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'refreshProject',
      method: 'post',
      path: `${ONE}/refresh`,
      summary: "Refresh the project's warehouse from its source now (only what changed is read)",
      params: projectParams,
      body: z.object({}).strict(),
      bodyOptional: true,
      responses: {
        202: { description: 'the refresh, started', schema: refreshStartedSchema },
        409: { description: "the project's warehouse is not built, or a refresh of it is running" },
      },
      handle: ({ req, params }) => service.refreshNow(req.user!, params.project_id),
    }),
    apiRoute({
      operationId: 'projectRefreshes',
      method: 'get',
      path: `${ONE}/refreshes`,
      summary:
        'How fresh the warehouse is: as of when, the last refresh with what it did to each table, and earlier runs',
      params: projectParams,
      responses: { 200: { description: "the project's refreshes", schema: refreshStateSchema } },
      handle: async ({ req, params }) => {
        const view = await service.project(req.user!, params.project_id);
        const state = view.refresh;
        return {
          project_id: view.project_id,
          as_of: state?.as_of ?? view.phase_details.data_ingestion?.ended_at ?? null,
          last: state?.last ?? null,
          history: state?.history ?? [],
        };
      },
    }),
  ];
}
