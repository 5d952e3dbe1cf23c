/**
 * The memory API (docs/requirements.md#memory-api) as ApiRoutes: each operation's request schemas,
 * responses and handler, from which the service mounts its routes and writes its OpenAPI document.
 */
import { z } from 'zod';
import {
  FutureCreatedAtError,
  MemoryNotFoundError,
  type MemoryService,
} from '../../domain/memory/memory-service';
import {
  addMemoryRequestSchema,
  contextQuerySchema,
  listQuerySchema,
  searchCombinedRequestSchema,
  searchRequestSchema,
  updateRequestSchema,
} from '../../shared/memory-requests';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { IdempotencyKeyBusyError } from '../../domain/memory/memory-history';
import {
  addResponseSchema,
  contextResponseSchema,
  deleteResponseSchema,
  healthResponseSchema,
  historyResponseSchema,
  listResponseSchema,
  memoryRecordSchema,
  searchResponseSchema,
} from './memory-responses';

/** Unknown ids answer 404 in the platform's error format. */
function notFoundAs404<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((err: unknown) => {
    if (err instanceof MemoryNotFoundError) throw new HttpError(404, 'not_found', err.message);
    throw err;
  });
}

/**
 * A backfill dated in the future answers 422 naming the field; a retry that gave up waiting for
 * the add holding its idempotency key answers 409.
 */
function addErrorsAsHttp<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((err: unknown) => {
    if (err instanceof FutureCreatedAtError) throw new HttpError(422, 'created_at_in_future', err.message);
    if (err instanceof IdempotencyKeyBusyError)
      throw new HttpError(409, 'idempotency_key_in_progress', err.message);
    throw err;
  });
}

const idParams = z.object({ id: z.string().min(1).max(200) }).strict();

/** Follow an added memory to where it can be read, changed and removed. */
const fromAdded = (operationId: string, name: string) => ({
  status: 200,
  name,
  operationId,
  parameters: { id: '$response.body#/results/0/id' },
});

export function memoryRoutes(service: MemoryService): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'health',
      method: 'get',
      path: '/health',
      summary: 'Liveness (no credentials needed)',
      secured: false,
      responses: { 200: { description: 'the service is up', schema: healthResponseSchema } },
      handle: () => {
        const { embedder, ...reembedding } = service.reembedProgress();
        return { status: 'ok', service: 'memory', embedder, reembedding };
      },
    }),
    apiRoute({
      operationId: 'addMemory',
      method: 'post',
      path: '/memory/add',
      summary: 'Add memories (infer=true extracts facts and deduplicates)',
      body: addMemoryRequestSchema,
      responses: {
        200: { description: 'what happened to each fact', schema: addResponseSchema },
        409: {
          description:
            'an add with this idempotency_key is still running on another instance (idempotency_key_in_progress); retry later',
        },
        422: { description: 'created_at is in the future (created_at_in_future)' },
      },
      links: [
        fromAdded('getMemory', 'GetAddedMemory'),
        fromAdded('memoryHistory', 'HistoryOfAddedMemory'),
        fromAdded('deleteMemory', 'DeleteAddedMemory'),
        {
          status: 200,
          name: 'UpdateAddedMemory',
          operationId: 'updateMemory',
          requestBody: { memory_id: '$response.body#/results/0/id', text: 'an updated memory' },
        },
      ],
      handle: ({ body }) => addErrorsAsHttp(() => service.add(body)),
    }),
    apiRoute({
      operationId: 'searchMemories',
      method: 'post',
      path: '/memory/search',
      summary: 'Semantic search (user + shared space; time decay by default)',
      body: searchRequestSchema,
      responses: { 200: { description: 'the best matches first', schema: searchResponseSchema } },
      handle: ({ body }) => service.search(body),
    }),
    apiRoute({
      operationId: 'searchCombined',
      method: 'post',
      path: '/memory/search_combined',
      summary: 'Long-term plus recent short-term search, merged and deduplicated',
      body: searchCombinedRequestSchema,
      responses: { 200: { description: 'the best matches first', schema: searchResponseSchema } },
      handle: ({ body }) => service.searchCombined(body),
    }),
    apiRoute({
      operationId: 'listMemories',
      method: 'get',
      path: '/memory/list',
      summary: 'Memories of a user (newest first)',
      query: listQuerySchema,
      responses: { 200: { description: 'the memories', schema: listResponseSchema } },
      handle: ({ query }) => service.list(query),
    }),
    apiRoute({
      operationId: 'sessionContext',
      method: 'get',
      path: '/memory/context',
      summary: "Session-start context: today's and yesterday's journal and a combined search",
      query: contextQuerySchema,
      responses: { 200: { description: 'the context', schema: contextResponseSchema } },
      handle: ({ query }) => service.context(query),
    }),
    apiRoute({
      operationId: 'updateMemory',
      method: 'put',
      path: '/memory/update',
      summary: "Replace a memory's text",
      body: updateRequestSchema,
      responses: {
        200: { description: 'the updated memory', schema: memoryRecordSchema },
        404: { description: 'no memory with that id' },
      },
      handle: ({ body }) => notFoundAs404(() => service.update(body)),
    }),
    apiRoute({
      operationId: 'memoryHistory',
      method: 'get',
      path: '/memory/history/{id}',
      summary: 'Change history of a memory',
      params: idParams,
      responses: { 200: { description: 'every change, oldest first', schema: historyResponseSchema } },
      handle: ({ params }) => notFoundAs404(() => service.history(params.id)),
    }),
    apiRoute({
      operationId: 'getMemory',
      method: 'get',
      path: '/memory/{id}',
      summary: 'One memory',
      params: idParams,
      responses: { 200: { description: 'the memory', schema: memoryRecordSchema } },
      handle: ({ params }) => notFoundAs404(() => service.get(params.id)),
    }),
    apiRoute({
      operationId: 'deleteMemory',
      method: 'delete',
      path: '/memory/{id}',
      summary: 'Delete a memory',
      params: idParams,
      responses: { 200: { description: 'the id deleted', schema: deleteResponseSchema } },
      handle: async ({ params }) => {
        const removed = await notFoundAs404(() => service.delete(params.id));
        return { message: 'memory deleted', id: removed.id };
      },
    }),
  ];
}
