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
  changesQuerySchema,
  searchCombinedRequestSchema,
  searchRequestSchema,
  updateRequestSchema,
} from '../../shared/memory-requests';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { IdempotencyKeyBusyError } from '../../domain/memory/memory-history';
import {
  assertMayAdd,
  assertMayChangeMemory,
  assertMayRead,
  assertMayReadMemory,
  mayWriteShared,
  seesEveryHistory,
} from './memory-access';
import { memoryCallerOf } from './memory-callers';
import {
  addResponseSchema,
  contextResponseSchema,
  deleteResponseSchema,
  healthResponseSchema,
  historyResponseSchema,
  listResponseSchema,
  changesResponseSchema,
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

/** The memory service's routes, in the order its document lists them. */
export function memoryRoutes(service: MemoryService): ApiRoute[] {
  // In this order: Express matches the fixed paths before `/memory/{id}`.
  return [
    ...serviceRoutes(service),
    ...searchRoutes(service),
    ...listingRoutes(service),
    ...oneMemoryRoutes(service),
  ];
}

/** Liveness, and adding memories. */
function serviceRoutes(service: MemoryService): ApiRoute[] {
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
        return {
          status: 'ok',
          service: 'memory',
          embedder,
          reembedding,
          supersede: service.supersedeEvidence(),
        };
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
        403: { description: 'user_id is shared and the caller may not write the shared space (forbidden)' },
        404: { description: 'the caller may not act for this user or agent (not_found)' },
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
      handle: ({ body, res }) => {
        const caller = memoryCallerOf(res);
        assertMayAdd(caller, body.user_id, body.agent_id);
        return addErrorsAsHttp(() => service.add(body, { mayShare: mayWriteShared(caller) }));
      },
    }),
  ];
}

/** Searches: a user's memories and the shared space, and long-term with recent short-term. */
function searchRoutes(service: MemoryService): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'searchMemories',
      method: 'post',
      path: '/memory/search',
      summary: 'Semantic search (user + shared space; time decay by default)',
      body: searchRequestSchema,
      responses: {
        200: { description: 'the best matches first', schema: searchResponseSchema },
        404: { description: 'the caller may not act for this user or agent (not_found)' },
      },
      handle: ({ body, res }) => {
        assertMayRead(memoryCallerOf(res), body.user_id, body.agent_id);
        return service.search(body);
      },
    }),
    apiRoute({
      operationId: 'searchCombined',
      method: 'post',
      path: '/memory/search_combined',
      summary: 'Long-term plus recent short-term search, merged and deduplicated',
      body: searchCombinedRequestSchema,
      responses: {
        200: { description: 'the best matches first', schema: searchResponseSchema },
        404: { description: 'the caller may not act for this user or agent (not_found)' },
      },
      handle: ({ body, res }) => {
        assertMayRead(memoryCallerOf(res), body.user_id, body.agent_id);
        return service.searchCombined(body);
      },
    }),
  ];
}

/** What a user's memories are, what changed, and a session's context. */
function listingRoutes(service: MemoryService): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'listMemories',
      method: 'get',
      path: '/memory/list',
      summary: 'Memories of a user (newest first)',
      query: listQuerySchema,
      responses: {
        200: { description: 'the memories', schema: listResponseSchema },
        404: { description: 'the caller may not act for this user or agent (not_found)' },
      },
      handle: ({ query, res }) => {
        assertMayRead(memoryCallerOf(res), query.user_id, query.agent_id);
        return service.list(query);
      },
    }),
    apiRoute({
      operationId: 'memoryChanges',
      method: 'get',
      path: '/memory/changes',
      summary: "What changed: each time a newer statement superseded a memory's value, oldest first",
      query: changesQuerySchema,
      responses: {
        200: { description: 'the changes', schema: changesResponseSchema },
        404: { description: 'the caller may not act for this user or agent (not_found)' },
      },
      handle: ({ query, res }) => {
        assertMayRead(memoryCallerOf(res), query.user_id, query.agent_id);
        return service.changes(query);
      },
    }),
    apiRoute({
      operationId: 'sessionContext',
      method: 'get',
      path: '/memory/context',
      summary: "Session-start context: today's and yesterday's journal and a combined search",
      query: contextQuerySchema,
      responses: {
        200: { description: 'the context', schema: contextResponseSchema },
        404: { description: 'the caller may not act for this user or agent (not_found)' },
      },
      handle: ({ query, res }) => {
        assertMayRead(memoryCallerOf(res), query.user_id, query.agent_id);
        return service.context(query);
      },
    }),
  ];
}

/** One memory: change it, its history, read it, delete it (after the fixed paths above, which `/memory/{id}` would match). */
function oneMemoryRoutes(service: MemoryService): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'updateMemory',
      method: 'put',
      path: '/memory/update',
      summary: "Replace a memory's text",
      body: updateRequestSchema,
      responses: {
        200: { description: 'the updated memory', schema: memoryRecordSchema },
        403: { description: 'a shared memory, and the caller may not write the shared space (forbidden)' },
        404: { description: 'no memory with that id the caller may see' },
      },
      handle: ({ body, res }) =>
        notFoundAs404(async () => {
          assertMayChangeMemory(memoryCallerOf(res), await service.get(body.memory_id));
          return service.update(body);
        }),
    }),
    apiRoute({
      operationId: 'memoryHistory',
      method: 'get',
      path: '/memory/history/{id}',
      summary: 'Change history of a memory',
      params: idParams,
      responses: {
        200: { description: 'every change, oldest first', schema: historyResponseSchema },
        404: { description: 'no memory with that id the caller may see' },
      },
      handle: ({ params, res }) =>
        notFoundAs404(async () => {
          // A deleted memory's owner went with it: its history is for callers who see every memory.
          const caller = memoryCallerOf(res);
          if (!seesEveryHistory(caller)) assertMayReadMemory(caller, await service.get(params.id));
          return service.history(params.id);
        }),
    }),
    apiRoute({
      operationId: 'getMemory',
      method: 'get',
      path: '/memory/{id}',
      summary: 'One memory',
      params: idParams,
      responses: {
        200: { description: 'the memory', schema: memoryRecordSchema },
        404: { description: 'no memory with that id the caller may see' },
      },
      handle: ({ params, res }) =>
        notFoundAs404(async () => {
          const memory = await service.get(params.id);
          assertMayReadMemory(memoryCallerOf(res), memory);
          return memory;
        }),
    }),
    apiRoute({
      operationId: 'deleteMemory',
      method: 'delete',
      path: '/memory/{id}',
      summary: 'Delete a memory',
      params: idParams,
      responses: {
        200: { description: 'the id deleted', schema: deleteResponseSchema },
        403: { description: 'a shared memory, and the caller may not write the shared space (forbidden)' },
        404: { description: 'no memory with that id the caller may see' },
      },
      handle: async ({ params, res }) => {
        const removed = await notFoundAs404(async () => {
          assertMayChangeMemory(memoryCallerOf(res), await service.get(params.id));
          return service.delete(params.id);
        });
        return { message: 'memory deleted', id: removed.id };
      },
    }),
  ];
}
