/** The platform API's OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
import { z } from 'zod';
import { prdSchema } from '../shared/prd-schema';
import { PHASES, PHASE_STATUSES, PROJECT_STATUSES } from '../shared/project-model';
import { createProjectRequestSchema } from './projects/create-project-request';
import { warehouseQuerySchema } from './projects/warehouse-query';
import { ARTIFACT_ROUTES } from './projects/artifact-routes';

const json = (schema: z.ZodType, io: 'input' | 'output' = 'input') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' });
const errorResponse = {
  description: 'error',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};
const ok = (description: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object' } } },
});
const secured = { security: [{ idToken: [] }] };
const idParam = [
  {
    name: 'project_id',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^proj-\\d{8}-[a-z0-9]+$' },
  },
];

const perPhase = (schema: object, description: string) => ({
  type: 'object',
  description,
  properties: Object.fromEntries(PHASES.map((p) => [p, schema])),
  required: [...PHASES],
  additionalProperties: false,
});
const dateTime = { type: 'string', format: 'date-time' };

/** The project record (shared/project-model.ts `ProjectView`). */
const projectSchema = {
  type: 'object',
  required: [
    'project_id',
    'owner_id',
    'status',
    'phase',
    'message',
    'created_at',
    'updated_at',
    'description',
    'source',
    'phases',
    'phase_details',
    'cost',
    'accumulated_usage',
    'cost_usd',
    'duration_seconds',
    'bi_dashboard_url',
  ],
  properties: {
    project_id: { type: 'string' },
    owner_id: { type: 'string' },
    status: { type: 'string', enum: [...PROJECT_STATUSES] },
    phase: { type: 'string', enum: [...PHASES], description: 'The current or last phase' },
    message: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime,
    description: { type: 'string' },
    source: {
      type: 'object',
      properties: { jdbc_url: { type: 'string' }, username: { type: 'string' } },
      description: 'The source, without credentials',
    },
    phases: perPhase(
      { type: 'string', enum: [...PHASE_STATUSES] },
      'Each phase\'s status, e.g. {"prd": "completed", "data_ingestion": "running", ...}',
    ),
    phase_details: perPhase(
      {
        type: 'object',
        properties: { started_at: dateTime, ended_at: dateTime, message: { type: 'string' } },
        additionalProperties: false,
      },
      'When each phase started and ended, and its last message ({} while pending)',
    ),
    prd: { $ref: '#/components/schemas/Prd' },
    decision: {
      type: 'object',
      properties: {
        decision: { type: 'string', enum: ['approve', 'modify', 'reject'] },
        reason: { type: 'string' },
        decided_at: dateTime,
      },
    },
    cost: { type: 'object', description: 'Token usage and estimated USD, in total and by agent' },
    accumulated_usage: { type: 'object' },
    cost_usd: { type: 'number' },
    duration_seconds: { type: 'integer' },
    bi_dashboard_url: { type: ['string', 'null'] },
    error: {
      type: 'object',
      properties: { phase: { type: 'string', enum: [...PHASES] }, message: { type: 'string' } },
    },
    warehouse: { type: 'object', description: 'What each warehouse stage built, in one line each' },
  },
};

export function platformOpenApi(serverUrl: string) {
  const credentials = {
    type: 'object',
    required: ['username', 'password'],
    properties: { username: { type: 'string' }, password: { type: 'string' } },
    additionalProperties: false,
  };
  const decision = (what: string, body?: object) => ({
    post: {
      summary: what,
      ...secured,
      parameters: idParam,
      ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
      responses: {
        200: ok('{project_id, decision, status}'),
        400: errorResponse,
        404: errorResponse,
        409: errorResponse,
      },
    },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'plat platform API',
      version: '1.0.0',
      description:
        'Analysis projects on Temporal. Every path is also served without /v1 and under the optional stage prefix.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { idToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            error: {
              type: 'object',
              properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
            },
          },
        },
        CreateProjectRequest: json(createProjectRequestSchema),
        Prd: json(prdSchema, 'output'),
        Project: projectSchema,
      },
    },
    paths: {
      '/auth/signup': {
        post: {
          summary: 'Create an account (PLAT_SELF_SIGNUP=true)',
          requestBody: { content: { 'application/json': { schema: credentials } } },
          responses: {
            201: ok('{id_token, expires_in}'),
            400: errorResponse,
            403: errorResponse,
            409: errorResponse,
          },
        },
      },
      '/auth/login': {
        post: {
          summary: 'Sign in',
          requestBody: { content: { 'application/json': { schema: credentials } } },
          responses: { 200: ok('{id_token, expires_in}'), 401: errorResponse },
        },
      },
      '/.well-known/jwks.json': {
        get: { summary: 'Public keys of the ID tokens', responses: { 200: ok('JWKS') } },
      },
      '/v1/projects': {
        post: {
          summary: 'Create a project from a MySQL source (checked first: 422 when unreachable)',
          ...secured,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/CreateProjectRequest' } },
            },
          },
          responses: {
            201: ok('{project_id, status, message, created_at}'),
            400: errorResponse,
            401: errorResponse,
            422: errorResponse,
          },
        },
        get: {
          summary: "The caller's projects, newest first",
          ...secured,
          parameters: [
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          ],
          responses: { 200: ok('{projects, total, limit, offset}'), 401: errorResponse },
        },
      },
      '/v1/projects/{project_id}': {
        get: {
          summary:
            'The project: status, phases (status per phase), phase_details (timings), PRD, cost, duration',
          ...secured,
          parameters: idParam,
          responses: {
            200: {
              description: 'the project',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Project' } } },
            },
            404: errorResponse,
          },
        },
      },
      '/v1/projects/{project_id}/hitl/approve': decision('Approve the pending PRD'),
      '/v1/projects/{project_id}/hitl/modify': decision(
        'Replace the pending PRD with an edited one, then approve',
        { $ref: '#/components/schemas/Prd' },
      ),
      '/v1/projects/{project_id}/hitl/reject': decision(
        'Reject the pending PRD (ends the project as terminated)',
        { type: 'object', properties: { reason: { type: 'string' } }, additionalProperties: false },
      ),
      '/v1/projects/{project_id}/query': {
        post: {
          summary: 'Read-only SQL on plat_<id>_<layer> (SELECT only; rows and time capped)',
          ...secured,
          parameters: idParam,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: json(warehouseQuerySchema) } },
          },
          responses: {
            200: ok('{database, columns, rows, row_count, truncated, duration_ms}'),
            400: errorResponse,
            404: errorResponse,
            408: errorResponse,
            409: errorResponse,
          },
        },
      },
      '/v1/projects/{project_id}/cancel': {
        post: {
          summary: 'Cancel a running project',
          ...secured,
          parameters: idParam,
          responses: { 202: ok('{project_id, status}'), 404: errorResponse, 409: errorResponse },
        },
      },
      '/v1/projects/{project_id}/agent-logs': {
        get: {
          summary: 'Agent work log: tool calls with parameters and result summaries',
          ...secured,
          parameters: idParam,
          responses: { 200: ok('{project_id, entries}'), 404: errorResponse },
        },
      },
      '/v1/projects/{project_id}/events': {
        get: {
          summary: 'Persisted events after event id `since`',
          ...secured,
          parameters: [...idParam, { name: 'since', in: 'query', schema: { type: 'integer', minimum: 0 } }],
          responses: { 200: ok('{project_id, events}'), 404: errorResponse },
        },
      },
      ...Object.fromEntries(
        ARTIFACT_ROUTES.map(({ path, summary }) => [
          `/v1/projects/{project_id}/${path}`,
          {
            get: {
              summary,
              ...secured,
              parameters: idParam,
              responses: { 200: ok(summary), 404: errorResponse },
            },
          },
        ]),
      ),
    },
  };
}
