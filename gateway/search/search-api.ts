/**
 * The search-engine operations of the platform API under `/v1/search` (docs/search-lifecycle.md):
 * bootstrap a rolling index, analyze text, term vectors, terms aggregation. They need an OpenSearch
 * cluster (OPENSEARCH_URL, or `npm start -- --with-opensearch`); without one they answer 503 saying so.
 * A request the cluster refuses (no such analyzer, index or field) answers 422 with its reason.
 */
import { z } from 'zod';
import { templateOptionsSchema, rollingIndexName } from '../../domain/search-ops/index-template';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import {
  lifecycleChoiceSchema,
  setUpRollingIndex,
} from '../../domain/search-ops/lifecycle/rolling-index-setup';
import { analyze, termVectors, termsAggregation } from '../../domain/search-ops/term-statistics';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { indexExpression } from './index-names';
import { onCluster, REFUSED, UNAVAILABLE } from './on-cluster';

/** The largest value OpenSearch accepts where it reads a 32-bit integer. */
const INT32_MAX = 2_147_483_647;

const indexParams = z.object({ index: indexExpression('an index, alias or pattern') }).strict();
const nameParams = z
  .object({ name: rollingIndexName.describe('the write alias; indices are <name>-000001, ...') })
  .strict();

const analyzeBody = z
  .object({
    text: z.string().min(1).max(100_000),
    analyzer: z.string().min(1).optional(),
    field: z.string().min(1).optional(),
  })
  .strict()
  .refine((b) => !b.analyzer !== !b.field, {
    message: 'give exactly one of analyzer and field',
    path: ['analyzer'],
  })
  .meta({ oneOf: [{ required: ['analyzer'] }, { required: ['field'] }] });

const termVectorsBody = z
  .object({
    id: z.string().min(1).optional().describe("a stored document's _id (the engine's own id)"),
    doc: z.record(z.string(), z.unknown()).optional().describe('an artificial document'),
    fields: z.array(z.string().min(1)).min(1).optional(),
    term_statistics: z.boolean().default(false),
    field_statistics: z.boolean().default(true),
    positions: z.boolean().default(true),
    offsets: z.boolean().default(true),
    // OpenSearch reads these as 32-bit integers: larger values are refused, so the schema says so.
    filter: z
      .object({
        max_num_terms: z.number().int().min(1).max(INT32_MAX).optional(),
        min_term_freq: z.number().int().min(0).max(INT32_MAX).optional(),
        max_term_freq: z.number().int().min(0).max(INT32_MAX).optional(),
        min_doc_freq: z.number().int().min(0).max(INT32_MAX).optional(),
        max_doc_freq: z.number().int().min(0).max(INT32_MAX).optional(),
        min_word_length: z.number().int().min(0).max(INT32_MAX).optional(),
        max_word_length: z.number().int().min(0).max(INT32_MAX).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => !b.id !== !b.doc, { message: 'give exactly one of id and doc', path: ['id'] })
  .meta({ oneOf: [{ required: ['id'] }, { required: ['doc'] }] });

const termsBody = z
  .object({
    field: z.string().min(1),
    size: z.number().int().min(1).max(1000).default(10),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    timestamp_field: z.string().min(1).default('@timestamp'),
  })
  .strict();

const open = (description: string) => z.looseObject({}).describe(description);

/** What any search operation may answer besides its own. */
const common = { 422: REFUSED, 503: UNAVAILABLE };

export function searchApi(client: OpenSearchClient | undefined): ApiRoute[] {
  return [...rollingIndexRoutes(client), ...textRoutes(client)];
}

/** Making a rolling index. */
function rollingIndexRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'bootstrapRollingIndex',
      role: 'operator',
      method: 'post',
      path: '/v1/search/indices/{name}/bootstrap',
      summary:
        'Make <name> a rolling index: its lifecycle policy, the template of <name>-*, the first index with the write alias (idempotent)',
      params: nameParams,
      body: templateOptionsSchema.extend(lifecycleChoiceSchema.shape),
      bodyOptional: true,
      responses: {
        200: {
          description: 'what each step did (created, updated, unchanged)',
          schema: open('the bootstrap report'),
        },
        409: {
          description:
            'an existing state would break rollover: error.details holds the report with each conflict',
        },
        ...common,
      },
      handle: ({ params, body }) =>
        onCluster(client, async (c) => {
          const { policy, retention_days, rollover, ...template } = body ?? {};
          const report = await setUpRollingIndex(c, params.name, template, {
            policy,
            retention_days,
            rollover,
          });
          if (report.conflicts.length)
            throw new HttpError(409, 'conflict', report.conflicts.join('; '), report);
          return report;
        }),
    }),
  ];
}

/** How text is read: its tokens, a document's term vectors, a field's most frequent terms. */
function textRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'analyzeText',
      role: 'operator',
      method: 'post',
      path: '/v1/search/indices/{index}/analyze',
      summary: 'Tokens of a text, by an analyzer or a field’s analyzer (positions and offsets, no counts)',
      params: indexParams,
      body: analyzeBody,
      responses: {
        200: {
          description: 'the tokens',
          schema: z.object({
            tokens: z.array(z.looseObject({ token: z.string(), position: z.number().int() })),
          }),
        },
        ...common,
      },
      handle: ({ params, body }) =>
        onCluster(client, async (c) => ({ tokens: await analyze(c, params.index, body) })),
    }),
    apiRoute({
      operationId: 'termVectors',
      role: 'operator',
      method: 'post',
      path: '/v1/search/indices/{index}/termvectors',
      summary: 'Term vectors of a stored document (by _id) or an artificial one, with statistics',
      params: indexParams,
      body: termVectorsBody,
      responses: {
        200: {
          description: 'term vectors, with a note when the mapping stores none',
          schema: open('the term vectors'),
        },
        ...common,
      },
      handle: ({ params, body }) => onCluster(client, (c) => termVectors(c, params.index, body)),
    }),
    apiRoute({
      operationId: 'termsAggregation',
      role: 'operator',
      method: 'post',
      path: '/v1/search/indices/{index}/terms',
      summary: 'Most frequent values of a field over a time range (doc_count: document frequency)',
      params: indexParams,
      body: termsBody,
      responses: {
        200: { description: 'the buckets', schema: open('the field and its buckets') },
        ...common,
      },
      handle: ({ params, body }) => onCluster(client, (c) => termsAggregation(c, params.index, body)),
    }),
  ];
}
