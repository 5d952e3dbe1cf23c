/**
 * What the platform API answers (docs/requirements.md#api, #project-record, #events), as zod
 * schemas: the OpenAPI document states them and the contract tests check every response against
 * them. They mirror shared/project-model.ts; nested reports stay open objects (their own routes
 * describe them).
 */
import { z } from 'zod';
import { prdSchema } from '../../shared/prd-schema';
import { PHASES, PHASE_STATUSES, PROJECT_STATUSES } from '../../shared/project-model';

export const dateTime = z.string().describe('ISO 8601 date-time');
const phase = z.enum(PHASES);
const status = z.enum(PROJECT_STATUSES);
const perPhase = <T extends z.ZodType>(value: T) =>
  z.object(Object.fromEntries(PHASES.map((p) => [p, value])) as Record<(typeof PHASES)[number], T>);

/** Token counts as the cost record keeps them (fields optional: records of older versions may lack some). */
const tokens = {
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
};

/** The project's cost record: its total and each agent's share. */
const costSchema = z.looseObject({
  project_total: z
    .looseObject({ ...tokens, etl_dpu_hours: z.number().optional(), estimated_usd: z.number().optional() })
    .optional(),
  by_agent: z
    .array(
      z.looseObject({
        agent_name: z.string(),
        phase: z.string(),
        tier: z.string().optional(),
        model: z.string().optional(),
        input_tokens: z.number().optional(),
        output_tokens: z.number().optional(),
        call_count: z.number().optional(),
        estimated_usd: z.number().optional(),
      }),
    )
    .optional(),
  updated_at: z.string().optional(),
});

/** What the warehouse stages built, as far as the pages show it (each stage's full report has its own route). */
const warehouseSchema = z.looseObject({
  host: z.string().optional(),
  ods: z.looseObject({ database: z.string().optional(), rows_copied: z.number().optional() }).optional(),
  visualization: z
    .looseObject({
      url: z.string().optional(),
      dashboards: z.number().optional(),
      charts: z.number().optional(),
    })
    .optional(),
  profile: z
    .looseObject({ overall_score: z.number().optional(), insights: z.number().optional() })
    .optional(),
});

export const projectViewSchema = z.looseObject({
  project_id: z.string(),
  owner_id: z.string(),
  status,
  phase: phase.describe('the current or last phase'),
  message: z.string(),
  created_at: dateTime,
  updated_at: dateTime,
  description: z.string(),
  source: z
    .looseObject({ jdbc_url: z.string(), username: z.string() })
    .describe('the source, without credentials'),
  phases: perPhase(z.enum(PHASE_STATUSES)).describe("each phase's status"),
  phase_details: perPhase(
    z.object({
      started_at: dateTime.optional(),
      ended_at: dateTime.optional(),
      message: z.string().optional(),
    }),
  ).describe('when each phase started and ended, and its last message ({} while pending)'),
  prd: prdSchema.optional(),
  decision: z
    .object({
      decision: z.enum(['approve', 'modify', 'reject']),
      reason: z.string().optional(),
      decided_at: dateTime,
    })
    .optional(),
  cost: costSchema.describe('token usage and estimated USD, in total and by agent'),
  accumulated_usage: z.looseObject({
    inputTokens: z.number().optional(),
    outputTokens: z.number().optional(),
    totalTokens: z.number().optional(),
  }),
  cost_usd: z.number(),
  duration_seconds: z.number().int(),
  bi_dashboard_url: z.string().nullable(),
  error: z.object({ phase, message: z.string() }).optional(),
  warehouse: warehouseSchema.optional().describe('what each warehouse stage built'),
  refresh: z
    .looseObject({
      as_of: dateTime.optional().describe('the source time of the last successful refresh'),
      last: z.looseObject({ refresh_id: z.string(), status: z.string() }).optional(),
      history: z.array(z.looseObject({ refresh_id: z.string() })),
    })
    .optional()
    .describe("the warehouse's refreshes from its source (GET …/refreshes has them in full)"),
});

export const createdProjectSchema = z.object({
  project_id: z.string(),
  status,
  message: z.string(),
  created_at: dateTime,
});

export const projectSummarySchema = z.object({
  project_id: z.string(),
  status,
  phase,
  message: z.string(),
  created_at: dateTime,
  updated_at: dateTime,
  cost_usd: z.number(),
  duration_seconds: z.number().int(),
  industry: z.string().nullable(),
  freshness: z
    .object({
      as_of: dateTime.nullable().describe('the source time the warehouse shows'),
      stale: z.boolean(),
      why: z
        .string()
        .optional()
        .describe('why it is stale: its last refresh failed, or it is behind its schedule'),
    })
    .nullable()
    .describe('how fresh the built warehouse is (null until it is built)'),
});

export const projectListSchema = z.object({
  projects: z.array(projectSummarySchema),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const decisionResultSchema = z.object({
  project_id: z.string(),
  decision: z.enum(['approve', 'modify', 'reject']),
  status,
});

export const cancelResultSchema = z.object({ project_id: z.string(), status: z.literal('cancelling') });

export const queryResultSchema = z.object({
  database: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), z.unknown())),
  row_count: z.number().int(),
  truncated: z.boolean(),
  duration_ms: z.number().int(),
});

export const agentLogsSchema = z.object({
  project_id: z.string(),
  source: z.enum(['store', 'opensearch']),
  entries: z.array(
    z.looseObject({
      agent: z.string(),
      phase: z.string(),
      tool: z.string(),
      params: z.record(z.string(), z.unknown()),
      summary: z.string(),
      duration_ms: z.number(),
      timestamp: dateTime,
    }),
  ),
});

export const eventsSchema = z.object({
  project_id: z.string(),
  events: z.array(
    z.looseObject({
      event_id: z.number().int(),
      event_type: z.string(),
      phase: phase,
      status,
      message: z.string(),
      timestamp: dateTime,
    }),
  ),
});

/** A stage's report: the project id and the report's own fields. */
export const artifactSchema = z.looseObject({ project_id: z.string() });

export const tokenSchema = z.object({
  id_token: z.string(),
  expires_in: z.number().int(),
  user_id: z
    .string()
    .describe("the signed-in user's id: the token's subject, and the user_id its memories are kept under"),
});

export const jwksSchema = z.object({ keys: z.array(z.looseObject({ kty: z.string() })) });

export const healthSchema = z.looseObject({
  status: z.enum(['ok', 'unavailable']),
  service: z.string().optional(),
});
