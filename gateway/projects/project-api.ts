/**
 * The analysis-project API (docs/requirements.md#api) as ApiRoutes, under `/v1/projects`; the app
 * also serves them under `/projects` and the optional stage prefix. Every route needs an ID token.
 */
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import { projectQueryEngine, type ProjectQueryEngines } from './project-query-engine';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { agentLogsFromOpenSearch } from '../../domain/search-ops/plat-logs/agent-log-reader';
import { prdSchema, prdShapeSchema } from '../../shared/prd-schema';
import { PROJECT_STATUSES, type ProjectStatus, type ProjectView } from '../../shared/project-model';
import { apiRoute, type ApiResponse, type ApiRoute } from '../api/api-route';
import { queryInteger } from '../api/query-integer';
import { HttpError } from '../http-errors';
import { perUserRateLimit } from '../rate-limit';
import { parseBody } from '../validation';
import { refuseTenantMetrics } from './prd-metric-sql';
import { STAGE_REPORTS } from '../../shared/analysis-stages';
import { freshnessOf } from '../../shared/refresh-model';
import { createProjectRequestSchema } from './create-project-request';
import type { ProjectService } from './project-service';
import {
  agentLogsSchema,
  artifactSchema,
  cancelResultSchema,
  createdProjectSchema,
  decisionResultSchema,
  eventsSchema,
  projectListSchema,
  projectViewSchema,
  queryResultSchema,
} from './project-responses';
import { queryWarehouse, warehouseQuerySchema } from './warehouse-query';
import { QuerySlots } from './query-slots';
import { stageAttemptsSchema } from './stage-attempts';

const pageQuery = z
  .object({
    limit: queryInteger({ min: 1, max: 100, fallback: 20 }),
    offset: queryInteger({ min: 0, fallback: 0 }),
  })
  .strict();
const STATUS_NAME = `(${PROJECT_STATUSES.join('|')})`;
const listQuery = pageQuery.extend({
  status: z
    .string()
    .regex(
      new RegExp(`^${STATUS_NAME}(,${STATUS_NAME})*$`),
      `comma-separated statuses: ${PROJECT_STATUSES.join(', ')}`,
    )
    .optional()
    .describe('Only projects in these statuses, comma-separated (e.g. `running,waiting_approval`)'),
});
const sinceQuery = z.object({ since: queryInteger({ min: 0, fallback: 0 }) }).strict();
const rejectBody = z.object({ reason: z.string().max(2000).optional() }).strict();
/** The `{project_id}` of a project route (refresh-api.ts takes it too). */
export const projectParams = z
  .object({ project_id: z.string().min(1).max(200).describe('proj-<yyyymmdd>-<suffix>') })
  .strict();

const PROJECTS = '/v1/projects';
const BROKEN_RULE: ApiResponse = {
  description: 'the PRD breaks a rule between its parts (error.details names each field)',
};
/** One project's routes. */
export const ONE = `${PROJECTS}/{project_id}`;

/** Follow a created project to its record, its events and its decision. */
const fromCreated = (operationId: string, name: string) => ({
  status: 201,
  name,
  operationId,
  parameters: { project_id: '$response.body#/project_id' },
});

export function projectApi(
  service: ProjectService,
  store: ProjectStore,
  /** What answers `/query`: this host's engine, or the host holding the project's files. */
  engines: ProjectQueryEngines,
  /** The limit on creating projects (per user and minute). */
  createLimit: RequestHandler = perUserRateLimit(20),
  /** The cluster agent logs are also shipped to (OPENSEARCH_URL). */
  search?: OpenSearchClient,
  /** How many `/query` calls run at once, per user and in all. */
  querySlots: QuerySlots = new QuerySlots(),
): ApiRoute[] {
  return [
    ...projectRecordRoutes(service, createLimit),
    ...decisionRoutes(service),
    ...warehouseRoutes(service, store, engines, querySlots),
    ...progressRoutes(service, store, search),
  ];
}

/** Creating a project, the list of them and one of them. */
function projectRecordRoutes(service: ProjectService, createLimit: RequestHandler): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'createProject',
      method: 'post',
      path: PROJECTS,
      summary:
        'Create a project from a MySQL source (checked first: 422 when it cannot be reached or has no readable tables)',
      body: createProjectRequestSchema,
      before: [createLimit],
      responses: {
        201: { description: 'the project, started', schema: createdProjectSchema },
        422: {
          description:
            "the source is not allowed by the source policy (source_not_allowed, nothing sent to it), refused or could not be reached (the driver's reason), stalled or flooded its answer (source_misbehaved), or has no tables the account can read",
        },
        429: { description: 'too many projects created this minute' },
      },
      links: [
        fromCreated('getProject', 'GetCreatedProject'),
        fromCreated('projectEvents', 'EventsOfCreatedProject'),
        fromCreated('rejectPrd', 'RejectCreatedProject'),
      ],
      handle: async ({ req, body }) => {
        const view = await service.create(req.user!, body);
        return {
          project_id: view.project_id,
          status: view.status,
          message: view.message,
          created_at: view.created_at,
        };
      },
    }),
    apiRoute({
      operationId: 'listProjects',
      method: 'get',
      path: PROJECTS,
      summary: "The caller's projects, newest first",
      query: listQuery,
      responses: { 200: { description: 'a page of projects', schema: projectListSchema } },
      handle: async ({ req, query }) => {
        const statuses = query.status?.split(',') as ProjectStatus[] | undefined;
        const { total, projects } = await service.list(req.user!, query.limit, query.offset, statuses);
        return { projects: projects.map(summary), total, limit: query.limit, offset: query.offset };
      },
    }),
    apiRoute({
      operationId: 'getProject',
      method: 'get',
      path: ONE,
      summary: 'The project: status, phases (status per phase), phase_details (timings), PRD, cost, duration',
      params: projectParams,
      responses: { 200: { description: 'the project', schema: projectViewSchema } },
      handle: ({ req, params }) => service.get(req.user!, params.project_id),
    }),
  ];
}

/** The decisions on a project's pending PRD, and cancelling it. */
function decisionRoutes(service: ProjectService): ApiRoute[] {
  return [
    decisionRoute(service, 'approve', 'Approve the pending PRD'),
    decisionRoute(
      service,
      'modify',
      'Replace the pending PRD with an edited one, then approve',
      prdShapeSchema,
    ),
    decisionRoute(service, 'reject', 'Reject the pending PRD (ends the project as terminated)', rejectBody),
    apiRoute({
      operationId: 'cancelProject',
      method: 'post',
      path: `${ONE}/cancel`,
      summary: 'Cancel a running project',
      params: projectParams,
      responses: {
        202: { description: 'cancellation requested', schema: cancelResultSchema },
        409: { description: 'the project has already ended' },
      },
      handle: ({ req, params }) => service.cancel(req.user!, params.project_id),
    }),
  ];
}

/** What a project's warehouse answers: read-only SQL, and every stage's reports (the stage table). */
function warehouseRoutes(
  service: ProjectService,
  store: ProjectStore,
  engines: ProjectQueryEngines,
  querySlots: QuerySlots,
): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'queryWarehouse',
      method: 'post',
      path: `${ONE}/query`,
      summary: 'Read-only SQL on plat_<id>_<layer> (one SELECT; rows and time capped)',
      params: projectParams,
      body: warehouseQuerySchema,
      responses: {
        200: { description: 'the rows', schema: queryResultSchema },
        408: { description: 'the query ran past timeout_ms' },
        409: { description: 'the layer asked for is not built yet' },
        429: { description: 'the caller already has as many queries running as allowed' },
      },
      handle: async ({ req, params, body }) => {
        const view = await service.get(req.user!, params.project_id);
        return querySlots.run(req.user!.user_id, body.timeout_ms, () =>
          queryWarehouse(projectQueryEngine(engines, view), params.project_id, body),
        );
      },
    }),
    // Every stage's reports, one read-only route each (the stage table).
    ...STAGE_REPORTS.map(({ path, kind, phase, summary: what }) =>
      apiRoute({
        operationId: `project${path[0].toUpperCase()}${path.slice(1)}`,
        method: 'get',
        path: `${ONE}/${path}`,
        summary: what,
        params: projectParams,
        responses: {
          200: { description: what, schema: artifactSchema },
          409: { description: `not built yet: the project's ${phase} stage has not completed` },
        },
        handle: async ({ req, params }) => {
          const view = await service.get(req.user!, params.project_id);
          const content = await store.getArtifact(view.project_id, kind);
          if (content === undefined)
            throw new HttpError(
              409,
              'not_built',
              `the ${path} of ${view.project_id} does not exist yet: its ${phase} stage is ${view.phases[phase]}`,
            );
          return { project_id: view.project_id, ...(content as object) };
        },
      }),
    ),
  ];
}

/** How a project's work went: the agent's log, each stage's attempts, the events. */
function progressRoutes(
  service: ProjectService,
  store: ProjectStore,
  search: OpenSearchClient | undefined,
): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'agentLogs',
      method: 'get',
      path: `${ONE}/agent-logs`,
      summary: 'Agent work log: tool calls with parameters and result summaries',
      params: projectParams,
      query: z
        .object({
          source: z
            .enum(['store', 'opensearch'])
            .default('store')
            .describe('store: the metadata store; opensearch: the plat-agent-logs alias (OPENSEARCH_URL)'),
        })
        .strict(),
      responses: {
        200: { description: 'the work log', schema: agentLogsSchema },
        503: { description: 'source=opensearch without an OpenSearch cluster (OPENSEARCH_URL)' },
      },
      handle: async ({ req, params, query }) => {
        await service.get(req.user!, params.project_id);
        if (query.source === 'store')
          return {
            project_id: params.project_id,
            source: 'store',
            entries: await store.agentLogs(params.project_id),
          };
        if (!search)
          throw new HttpError(503, 'search_unavailable', 'no OpenSearch is configured: set OPENSEARCH_URL');
        return {
          project_id: params.project_id,
          source: 'opensearch',
          entries: await agentLogsFromOpenSearch(search, params.project_id),
        };
      },
    }),
    apiRoute({
      operationId: 'projectStages',
      method: 'get',
      path: `${ONE}/stages`,
      summary: "Each stage's attempts, failures and last failure, from the project's workflow",
      params: projectParams,
      responses: { 200: { description: 'the stages that ran so far', schema: stageAttemptsSchema } },
      handle: ({ req, params }) => service.stages(req.user!, params.project_id),
    }),
    apiRoute({
      operationId: 'projectEvents',
      method: 'get',
      path: `${ONE}/events`,
      summary: 'Persisted events after event id `since`',
      params: projectParams,
      query: sinceQuery,
      responses: { 200: { description: 'the events, oldest first', schema: eventsSchema } },
      handle: async ({ req, params, query }) => {
        await service.get(req.user!, params.project_id);
        return {
          project_id: params.project_id,
          events: await store.eventsSince(params.project_id, query.since),
        };
      },
    }),
  ];
}

/** A decision on the pending PRD: approve, modify (an edited PRD, then approve) or reject. */
const decisionRoute = (
  service: ProjectService,
  decision: 'approve' | 'modify' | 'reject',
  summary: string,
  body?: z.ZodType,
) =>
  apiRoute({
    operationId: `${decision}Prd`,
    method: 'post',
    path: `${ONE}/hitl/${decision}`,
    summary,
    params: projectParams,
    body: body ?? z.object({}).strict(),
    bodyOptional: body === undefined || decision === 'reject',
    responses: {
      200: { description: 'the decision taken and the status it led to', schema: decisionResultSchema },
      409: {
        description: 'no PRD is waiting for a decision (someone decided already, or the project ended)',
      },
      ...((decision === 'modify' ? { 422: BROKEN_RULE } : {}) as Record<number, ApiResponse>),
    },
    handle: async ({ req, params, body: given }) => {
      const payload = (given ?? {}) as { reason?: string };
      if (decision === 'modify') {
        const prd = parseBody(prdSchema, given, { status: 422, code: 'invalid_prd' });
        await refuseTenantMetrics(prd);
      }
      return service.decide(req.user!, params.project_id, decision, {
        prd: decision === 'modify' ? given : undefined,
        reason: payload.reason,
      });
    },
  });

export function underPrefix(routes: ApiRoute[], prefix: string): ApiRoute[] {
  return routes.map((r) => ({ ...r, path: r.path.replace(PROJECTS, prefix) }));
}

function summary(v: ProjectView) {
  const { project_id, status, phase, message, created_at, updated_at, cost_usd, duration_seconds } = v;
  return {
    project_id,
    status,
    phase,
    message,
    created_at,
    updated_at,
    cost_usd,
    duration_seconds,
    industry: v.prd?.industry.name ?? null,
    freshness: freshnessOf(v, new Date()),
  };
}
