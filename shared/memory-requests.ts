/**
 * Memory API requests (docs/requirements.md#memory-api), validated with zod at the edge; the same
 * schemas generate the memory service's OpenAPI document.
 */
import { z } from 'zod';

/** A real calendar date written YYYY-MM-DD (2026-02-30 is refused). */
export const isoDay = z.iso.date({ error: 'a date YYYY-MM-DD' }).refine((d) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}, 'a real calendar date YYYY-MM-DD');

const id = z.string().min(1).max(200);

/** How a search finds memories (docs/memory-search.md). */
export const SEARCH_MODES = ['semantic', 'lexical', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** The search mode when a request names none: the best measured on LoCoMo (docs/memory-search.md). */
export const DEFAULT_SEARCH_MODE: SearchMode = 'hybrid';

export const chatMessageSchema = z.object({ role: z.string().min(1).max(50), content: z.string() }).strict();

export const addMemoryRequestSchema = z
  .object({
    user_id: id,
    agent_id: id.optional(),
    run_id: isoDay.optional().describe('YYYY-MM-DD; makes the memory short-term'),
    text: z.string().min(1).max(200_000).optional(),
    messages: z.array(chatMessageSchema).min(1).max(1000).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    infer: z.boolean().default(true),
    custom_extraction_prompt: z.string().min(1).max(20_000).optional(),
    /** Backfill: when the remembered thing happened (ISO 8601); default now. */
    created_at: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        'backfill: when the remembered thing happened (ISO 8601, default now); a time in the future is refused (422)',
      ),
    /** A retried add with the same key answers the first add's result and adds nothing. */
    idempotency_key: z.string().min(1).max(500).optional(),
  })
  .strict()
  .refine((r) => r.text !== undefined || r.messages !== undefined, {
    message: 'at least one of text and messages is required',
    path: ['text'],
  })
  // The same rule, stated in the OpenAPI document generated from this schema.
  .meta({ anyOf: [{ required: ['text'] }, { required: ['messages'] }] });

const searchFields = {
  query: z.string().min(1).max(10_000),
  user_id: id,
  agent_id: id.optional(),
  top_k: z.number().int().min(1).max(100).default(5),
  min_score: z.number().min(0).max(1).default(0),
  time_decay: z.boolean().default(true),
  search_mode: z
    .enum(SEARCH_MODES)
    .default(DEFAULT_SEARCH_MODE)
    .describe(
      'semantic: embedding similarity; lexical: BM25 over terms; hybrid: both fused, plus named entities and times',
    ),
};

/** An instant in the past or present: a day (its end) or a datetime with an offset. */
/** A day or an instant, as `as_of` and `since` take them. */
const dayOrInstant = z.union([isoDay, z.iso.datetime({ offset: true })], {
  error: 'a day YYYY-MM-DD or an ISO 8601 datetime with an offset (2025-06-01T12:00:00Z)',
});

/**
 * The instant an `as_of` names (docs/memory-validity.md): a datetime as written; a day, its last
 * millisecond (what held on that day, by its end).
 */
export function asOfInstant(asOf: string | undefined): string | undefined {
  if (asOf === undefined) return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(asOf) ? `${asOf}T23:59:59.999Z` : new Date(asOf).toISOString();
}

const asOf = dayOrInstant.describe(
  'answer what held then (docs/memory-validity.md): a day YYYY-MM-DD (by its end) or an ISO 8601 datetime; default now, the current memories only',
);

export const searchRequestSchema = z
  .object({ ...searchFields, run_id: isoDay.optional(), as_of: asOf.optional() })
  .strict();

export const searchCombinedRequestSchema = z
  .object({ ...searchFields, recent_days: z.number().int().min(1).max(365).default(3) })
  .strict();

export const listQuerySchema = z
  .object({
    user_id: id,
    agent_id: id.optional(),
    run_id: isoDay.optional(),
    as_of: asOf.optional(),
    limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  })
  .strict();

export const changesQuerySchema = z
  .object({
    user_id: id,
    agent_id: id.optional(),
    since: dayOrInstant.optional().describe('only changes at or after this day (from its start) or instant'),
    limit: z.coerce.number().int().min(1).max(10_000).default(1000),
  })
  .strict();

export const updateRequestSchema = z
  .object({
    memory_id: id,
    text: z.string().min(1).max(200_000),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const contextQuerySchema = z
  .object({
    user_id: id,
    agent_id: id.optional(),
    query: z.string().min(1).max(10_000).optional(),
    top_k: z.coerce.number().int().min(1).max(100).default(5),
    recent_days: z.coerce.number().int().min(1).max(365).default(3),
  })
  .strict();

export type ContextQuery = z.output<typeof contextQuerySchema>;
export type AddMemoryRequest = z.output<typeof addMemoryRequestSchema>;
export type SearchRequest = z.output<typeof searchRequestSchema>;
export type SearchCombinedRequest = z.output<typeof searchCombinedRequestSchema>;
export type ListQuery = z.output<typeof listQuerySchema>;
export type ChangesQuery = z.output<typeof changesQuerySchema>;
export type UpdateRequest = z.output<typeof updateRequestSchema>;
