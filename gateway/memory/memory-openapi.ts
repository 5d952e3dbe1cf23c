/** The memory service's OpenAPI 3.1 document, generated from the zod schemas that validate requests. */
import { z } from 'zod';
import {
  addMemoryRequestSchema,
  listQuerySchema,
  searchCombinedRequestSchema,
  searchRequestSchema,
  updateRequestSchema,
} from '../../shared/memory-requests';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const body = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/json': { schema: json(schema) } },
});
const ok = (description: string) => ({
  description,
  content: { 'application/json': { schema: { type: 'object' } } },
});
const error = { description: 'error: {"error": {"code", "message", "details"}}' };
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];

export function memoryOpenApi(serverUrl: string) {
  const listParams = Object.entries(
    (json(listQuerySchema) as { properties: Record<string, object> }).properties,
  ).map(([name, schema]) => ({ name, in: 'query', required: name === 'user_id', schema }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'plat memory service',
      version: '1.0.0',
      description:
        'Memories per user and agent: add with extraction, semantic search with the shared space and time decay. ' +
        'Bound to loopback no key is needed; otherwise send Authorization: Bearer <key>.',
    },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
    security: [{ apiKey: [] }],
    paths: {
      '/health': { get: { summary: 'Liveness', security: [], responses: { 200: ok('{status, service}') } } },
      '/memory/add': {
        post: {
          summary: 'Add memories (infer=true extracts facts and deduplicates)',
          requestBody: body(addMemoryRequestSchema),
          responses: { 200: ok('{results: [{id, memory, event}], token_usage}'), 400: error },
        },
      },
      '/memory/search': {
        post: {
          summary: 'Semantic search (user + shared space; time decay by default)',
          requestBody: body(searchRequestSchema),
          responses: {
            200: ok('{results: [{id, memory, score, original_score?, created_at, memory_type}]}'),
            400: error,
          },
        },
      },
      '/memory/search_combined': {
        post: {
          summary: 'Long-term plus recent short-term search, merged and deduplicated',
          requestBody: body(searchCombinedRequestSchema),
          responses: { 200: ok('{results}'), 400: error },
        },
      },
      '/memory/list': {
        get: {
          summary: 'Memories of a user (newest first)',
          parameters: listParams,
          responses: { 200: ok('{results}'), 400: error },
        },
      },
      '/memory/context': {
        get: {
          summary: "Session-start context: today's and yesterday's journal and a combined search",
          parameters: ['user_id', 'agent_id', 'query', 'top_k', 'recent_days'].map((name) => ({
            name,
            in: 'query',
            required: name === 'user_id',
            schema: { type: ['top_k', 'recent_days'].includes(name) ? 'integer' : 'string' },
          })),
          responses: {
            200: ok('{user_id, agent_id, workspace, today, yesterday, search: {query, results}}'),
            400: error,
          },
        },
      },
      '/memory/update': {
        put: {
          summary: "Replace a memory's text",
          requestBody: body(updateRequestSchema),
          responses: { 200: ok('the updated memory'), 400: error, 404: error },
        },
      },
      '/memory/{id}': {
        get: { summary: 'One memory', parameters: idParam, responses: { 200: ok('the memory'), 404: error } },
        delete: {
          summary: 'Delete a memory',
          parameters: idParam,
          responses: { 200: ok('{message, id}'), 404: error },
        },
      },
      '/memory/history/{id}': {
        get: {
          summary: 'Change history',
          parameters: idParam,
          responses: {
            200: ok('{results: [{id, memory_id, event, old_memory, new_memory, created_at}]}'),
            404: error,
          },
        },
      },
    },
  };
}
