/**
 * What the memory API answers (docs/requirements.md#memory-api), as zod schemas: the OpenAPI
 * document states them and the contract tests check every response against them. They mirror the
 * records in shared/memory-model.ts.
 */
import { z } from 'zod';

const metadata = z.record(z.string(), z.unknown());
const day = z.string().describe('YYYY-MM-DD');
/** When what a memory says held (docs/memory-validity.md). */
const validity = {
  valid_from: z
    .string()
    .describe('since when it holds: when it was stated, or when it superseded an earlier value'),
  valid_to: z
    .string()
    .nullable()
    .describe('until when it held: null while current; set on an earlier version a newer statement replaced'),
};

export const memoryRecordSchema = z.object({
  id: z.string(),
  memory: z.string(),
  user_id: z.string(),
  agent_id: z.string().nullable(),
  run_id: day.nullable().describe('YYYY-MM-DD: a short-term memory of that day; null: long-term'),
  metadata,
  category: z.string().nullable(),
  hash: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  embedder: z.string(),
  ...validity,
  version_of: z
    .string()
    .nullable()
    .describe('on an earlier version: the memory whose newer statement superseded it; else null'),
});

const memoryEvent = z.enum(['ADD', 'UPDATE', 'DELETE']);

export const memorySearchItemSchema = z.object({
  id: z.string(),
  memory: z.string(),
  score: z.number().min(0).max(1),
  original_score: z.number().optional().describe('the relevance before time decay'),
  created_at: z.string(),
  user_id: z.string(),
  agent_id: z.string().nullable(),
  run_id: day.nullable(),
  metadata,
  memory_type: z.enum(['shared', 'long_term', 'short_term']),
  ...validity,
  signals: z
    .object({
      semantic: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe('cosine similarity of the query embedding, when the semantic list held the memory'),
      lexical: z
        .object({
          relevance: z.number().min(0).max(1).describe('BM25 normalized to [0, 1]'),
          terms: z.array(z.string()).describe("the question's words the memory holds"),
        })
        .optional(),
      entities: z.array(z.string()).optional().describe('the named things of the question the memory holds'),
      time: z
        .string()
        .optional()
        .describe("the question's time expression, when the memory lies in its range"),
      relevance: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .describe(
          'the calibrated relevance, comparable across questions, that min_score applies to; for a question asking for a value now or then, score (before decay) is it taken relative to the best answer (docs/memory-search.md#now-and-then)',
        ),
    })
    .optional()
    .describe('what found the memory (docs/memory-search.md); absent signals did not find it'),
});

export const searchResponseSchema = z.object({ results: z.array(memorySearchItemSchema) });

export const addResponseSchema = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      memory: z.string(),
      event: z
        .enum(['ADD', 'UPDATE', 'DELETE', 'NONE'])
        .describe(
          'ADD: a new memory; UPDATE: an earlier memory now says this (a changed fact, docs/memory-supersede.md); DELETE: one was removed; NONE: already known',
        ),
      previous_memory: z
        .string()
        .optional()
        .describe("an UPDATE's earlier text, kept in the memory's history"),
    }),
  ),
  token_usage: z.object({
    llm_calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    total_tokens: z.number().int(),
  }),
  idempotent_replay: z
    .boolean()
    .optional()
    .describe('true when an earlier add with this idempotency_key answered'),
});

export const listResponseSchema = z.object({ results: z.array(memoryRecordSchema) });

export const changesResponseSchema = z.object({
  results: z.array(
    z.object({
      memory_id: z.string(),
      from: z.string().describe('what the memory said before'),
      to: z.string().describe('what it says since `at`'),
      at: z.string().describe('when the newer statement was made: the old value held until then'),
      from_valid_from: z.string().describe('since when the old value held'),
    }),
  ),
});

export const historyResponseSchema = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      memory_id: z.string(),
      event: memoryEvent,
      old_memory: z.string().nullable(),
      new_memory: z.string().nullable(),
      created_at: z.string(),
    }),
  ),
});

export const deleteResponseSchema = z.object({ message: z.string(), id: z.string() });

const journalDay = z.object({ date: day, file: z.string(), content: z.string() }).nullable();

export const contextResponseSchema = z.object({
  user_id: z.string(),
  agent_id: z.string().nullable(),
  workspace: z.string().nullable(),
  today: journalDay,
  yesterday: journalDay,
  search: z.object({ query: z.string(), results: z.array(memorySearchItemSchema) }),
});

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  service: z.literal('memory'),
  /** The embedding model's id, and the re-embedding after a model change (docs/memory-search.md). */
  embedder: z.string(),
  reembedding: z.object({
    running: z.boolean(),
    pending: z.number().int().min(0),
    done: z.number().int().min(0),
    total: z.number().int().min(0),
    percent: z.number().int().min(0).max(100),
    /** Another instance of the fleet is re-embedding; this one serves and tries again later. */
    elsewhere: z.boolean(),
  }),
  /**
   * The evidence the supersede step reads beyond the words (docs/memory-supersede.md): what statements
   * evoke (false when the model's word table is not provisioned) and their likeness. Instances of a
   * fleet that differ here decide differently.
   */
  supersede: z.object({ evoked_words: z.boolean(), likeness: z.boolean() }),
});
