/**
 * What a policy simulation takes (docs/search-lifecycle.md#simulating-a-policy), as zod: the policy (a
 * built-in or stored policy's id, or a whole document), the days, the ingest profile, the pass
 * interval, the managed-domain flag and the rolling index's shape. Every limit is a per-field bound
 * stated here, so the API's schema says exactly what is accepted.
 */
import { z } from 'zod';
import { rollingIndexName } from '../../index-template';
import { ismPolicyJsonSchema } from '../../ism-policy';

/** The longest simulation: ten years. */
export const MAX_DAYS = 3650;
/** Daily volumes stop growing at these (about a trillion documents, 888 TiB a day). */
export const MAX_DOCS_PER_DAY = 1e12;
export const MAX_BYTES_PER_DAY = 1e15;

/**
 * A pass interval from one minute to one day: `1m`…`60m`, `1h`…`24h` or `1d`. plat's engine
 * runs every PLAT_LIFECYCLE_INTERVAL (default 5m), ISM every 5 minutes.
 */
export const PASS_INTERVAL_PATTERN = /^(?:(?:[1-9]|[1-5]\d|60)m|(?:[1-9]|1\d|2[0-4])h|1d)$/;
export const DEFAULT_PASS_INTERVAL = '5m';

export const ingestProfileSchema = z
  .object({
    docs_per_day: z
      .number()
      .int()
      .min(0)
      .max(MAX_DOCS_PER_DAY)
      .describe('documents written to the alias per day (the first day, before growth)'),
    bytes_per_day: z
      .number()
      .int()
      .min(0)
      .max(MAX_BYTES_PER_DAY)
      .optional()
      .describe('primary store bytes per day (give this or doc_bytes)'),
    doc_bytes: z
      .number()
      .int()
      .min(1)
      .max(100 * 1024 * 1024)
      .optional()
      .describe('primary store bytes per document (give this or bytes_per_day)'),
    growth_percent: z
      .number()
      .min(-100)
      .max(100)
      .default(0)
      .describe('daily growth of the volume, compounded (capped at 1e12 documents and 1e15 bytes a day)'),
  })
  .strict()
  .refine((p) => (p.bytes_per_day === undefined) !== (p.doc_bytes === undefined), {
    message: 'give exactly one of bytes_per_day and doc_bytes',
    path: ['bytes_per_day'],
  })
  .meta({ oneOf: [{ required: ['bytes_per_day'] }, { required: ['doc_bytes'] }] });

export type IngestProfileInput = z.output<typeof ingestProfileSchema>;

/** A policy id: a built-in's name or a stored policy's id. */
export const policyIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'letters, digits, . _ -')
  .describe(
    'a built-in policy (retentionPolicy, tieredPolicy, selfManagedWarmPolicy, selfManagedTieredPolicy) or a stored policy’s id',
  );

/** The simulation's settings besides the policy itself. */
export const simulationSettingsSchema = z.object({
  days: z.number().int().min(1).max(MAX_DAYS).describe('how many days to simulate'),
  profile: ingestProfileSchema,
  pass_interval: z
    .string()
    .regex(PASS_INTERVAL_PATTERN, 'a pass interval from 1m to 24h (e.g. 5m, 1h) or 1d')
    .default(DEFAULT_PASS_INTERVAL)
    .describe('how often the engine runs its pass (default 5m, as plat’s schedule and ISM’s job)'),
  managed_domain: z
    .boolean()
    .optional()
    .describe(
      'a managed domain: warm_migration, cold_migration and cold_delete run (default: the cluster’s, for a stored policy; else false)',
    ),
  alias: rollingIndexName
    .optional()
    .describe(
      'the write alias; indices are <alias>-000001, ... (default: from the policy’s ism_template, else logs)',
    ),
  shards: z.number().int().min(1).max(1024).default(1).describe('primary shards of each index'),
  replicas: z.number().int().min(0).max(16).default(1).describe('replicas of each new index'),
});

/** The body of `POST /v1/search/simulate`: a policy by id or whole, and the settings. */
export const simulationRequestSchema = simulationSettingsSchema
  .extend({
    policy_id: policyIdSchema.optional(),
    // Checked by validatePolicy, which names every problem (a 422); the document states its shape.
    policy: z
      .looseObject({})
      .meta({
        ...ismPolicyJsonSchema(),
        description: 'a policy document (ISM format): default_state, states, ism_template',
      })
      .optional(),
  })
  .strict()
  .refine((b) => (b.policy_id === undefined) !== (b.policy === undefined), {
    message: 'give exactly one of policy_id and policy',
    path: ['policy_id'],
  })
  .meta({ oneOf: [{ required: ['policy_id'] }, { required: ['policy'] }] });

export type SimulationRequest = z.output<typeof simulationRequestSchema>;
