/**
 * Manual index operations under `/v1/search` (docs/search-lifecycle.md#rest): rollover of a write
 * alias, `_cat/indices` and `_cat/shards` (as JSON rows, sorted by `s`), index settings narrowed by
 * `filter_path`, and an alias's indices with their write flag.
 */
import { z } from 'zod';
import { diagnose } from '../../domain/search-ops/index-doctor';
import { lifecycleManager } from '../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { PlatLifecycleManager } from '../../domain/search-ops/lifecycle/plat-lifecycle-manager';
import { OpenSearchError, type OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { indexExpression } from './index-names';
import { onCluster, REFUSED, UNAVAILABLE } from './on-cluster';

const enc = encodeURIComponent;
const name = (what: string) => indexExpression(what);
const INDEX_COLUMNS =
  'health,status,index,uuid,pri,rep,docs.count,docs.deleted,store.size,pri.store.size,creation.date.string';
const SHARD_COLUMNS = 'index,shard,prirep,state,docs,store,ip,node,unassigned.reason';

/** `_cat`'s sort: the listed columns, each optionally `:asc` or `:desc` (the cluster fails on others). */
function catQuery(columns: string) {
  const one = `(${columns
    .split(',')
    .map((c) => c.replace(/\./g, '\\.'))
    .join('|')})(:(asc|desc))?`;
  return z
    .object({
      s: z
        .string()
        .regex(new RegExp(`^${one}(,${one})*$`), `columns among ${columns}, each optionally :asc or :desc`)
        .optional()
        .describe(`sort columns (_cat s) among ${columns}, e.g. index or store.size:desc`),
    })
    .strict();
}
const rows = z.array(z.record(z.string(), z.string().nullable()));

/** What any operation on an index or alias may answer besides its own. */
const common = { 404: { description: 'no such index or alias' }, 422: REFUSED, 503: UNAVAILABLE };

/** A `_cat` table of the cluster, as JSON rows. */
const cat = (
  client: OpenSearchClient | undefined,
  what: 'indices' | 'shards',
  pattern: string,
  s: string | undefined,
) =>
  onCluster(client, (c) =>
    c.request<Record<string, string | null>[]>(
      'GET',
      `/_cat/${what}/${enc(pattern)}?format=json&h=${what === 'indices' ? INDEX_COLUMNS : SHARD_COLUMNS}${s ? `&s=${enc(s)}` : ''}`,
    ),
  );

export function indexOpsApi(client: OpenSearchClient | undefined): ApiRoute[] {
  return [...aliasRoutes(client), ...catRoutes(client), ...indexRoutes(client)];
}

/** An alias: roll it over, and what it points at. */
function aliasRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'rolloverAlias',
      role: 'operator',
      method: 'post',
      path: '/v1/search/aliases/{alias}/rollover',
      summary: 'Roll the write alias over now: a new index becomes its write index',
      params: z.object({ alias: name('the write alias') }).strict(),
      responses: {
        200: {
          description: 'the old and new index',
          schema: z.looseObject({ old_index: z.string(), new_index: z.string(), rolled_over: z.boolean() }),
        },
        ...common,
      },
      handle: ({ params }) =>
        onCluster(client, async (c) => {
          const res = await c
            .request<{ new_index: string }>('POST', `/${enc(params.alias)}/_rollover`)
            .catch((err: unknown) => {
              // The cluster answers a missing alias with a 400; it is a missing resource.
              if (err instanceof OpenSearchError && /rollover target \[.*\] does not exist/.test(err.reason))
                throw new HttpError(404, 'not_found', `no alias ${params.alias}`);
              throw err;
            });
          // ISM attaches a new index at creation; plat's engine is told now rather than at its next pass.
          const manager = await lifecycleManager(c);
          if (manager instanceof PlatLifecycleManager) await manager.claimNewIndex(res.new_index);
          return res;
        }),
    }),
    apiRoute({
      operationId: 'getAlias',
      role: 'operator',
      method: 'get',
      path: '/v1/search/aliases/{alias}',
      summary: 'The indices of an alias, each with is_write_index',
      params: z.object({ alias: name('an alias or pattern') }).strict(),
      responses: {
        200: {
          description: 'index → its aliases (as _alias answers)',
          schema: z.record(z.string(), z.unknown()),
        },
        ...common,
      },
      handle: ({ params }) => onCluster(client, (c) => c.request('GET', `/_alias/${enc(params.alias)}`)),
    }),
  ];
}

/** The `_cat` tables of indices and shards. */
function catRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'catIndices',
      role: 'operator',
      method: 'get',
      path: '/v1/search/cat/indices/{pattern}',
      summary: 'Indices of a pattern: health, status, documents, sizes, creation date (_cat/indices)',
      params: z.object({ pattern: name('an index pattern, e.g. app-logs-*') }).strict(),
      query: catQuery(INDEX_COLUMNS),
      responses: { 200: { description: 'one row per index', schema: rows }, ...common },
      handle: ({ params, query }) => cat(client, 'indices', params.pattern, query.s),
    }),
    apiRoute({
      operationId: 'catShards',
      role: 'operator',
      method: 'get',
      path: '/v1/search/cat/shards/{pattern}',
      summary: 'Shards of a pattern: primary or replica, state, node, why unassigned (_cat/shards)',
      params: z.object({ pattern: name('an index pattern') }).strict(),
      query: catQuery(SHARD_COLUMNS),
      responses: { 200: { description: 'one row per shard copy', schema: rows }, ...common },
      handle: ({ params, query }) => cat(client, 'shards', params.pattern, query.s),
    }),
  ];
}

/** One rolling index: what is wrong with it, and its settings. */
function indexRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'diagnoseRollingIndex',
      role: 'operator',
      method: 'get',
      path: '/v1/search/indices/{name}/doctor',
      summary:
        'Why a rolling index misbehaves: rollover alias and template, where writes go, policy attachment, text-field aggregations',
      params: z.object({ name: name('the write alias') }).strict(),
      query: z
        .object({
          field: z.string().min(1).max(255).optional().describe('a field an aggregation failed on'),
          timestamp_field: z.string().min(1).max(255).default('@timestamp'),
        })
        .strict(),
      responses: {
        200: {
          description: 'one finding per symptom (ok or problem, with the cause and the fix)',
          schema: z.looseObject({
            alias: z.string(),
            engine: z.enum(['ism', 'plat']),
            problems: z.number().int(),
            findings: z.array(
              z.looseObject({
                symptom: z.number().int(),
                title: z.string(),
                status: z.enum(['ok', 'problem']),
                detail: z.string(),
              }),
            ),
          }),
        },
        422: REFUSED,
        503: UNAVAILABLE,
      },
      handle: ({ params, query }) =>
        onCluster(client, (c) =>
          diagnose(c, params.name, { field: query.field, timestampField: query.timestamp_field }),
        ),
    }),
    apiRoute({
      operationId: 'indexSettings',
      role: 'operator',
      method: 'get',
      path: '/v1/search/indices/{index}/settings',
      summary: 'Settings of indices, narrowed by filter_path (e.g. *.settings.index.number_of_replicas)',
      params: z.object({ index: name('an index or pattern') }).strict(),
      query: z
        .object({
          filter_path: z
            .string()
            .regex(/^[A-Za-z0-9_.*,-]+$/, 'comma-separated paths, e.g. *.settings.index.blocks')
            .optional(),
        })
        .strict(),
      responses: {
        200: {
          description: 'index → settings (as _settings answers)',
          schema: z.record(z.string(), z.unknown()),
        },
        ...common,
      },
      handle: ({ params, query }) =>
        onCluster(
          client,
          async (c) =>
            // A filter that matches nothing makes the cluster answer nothing; plat answers {}.
            (await c.request(
              'GET',
              `/${enc(params.index)}/_settings${query.filter_path ? `?filter_path=${enc(query.filter_path)}` : ''}`,
            )) ?? {},
        ),
    }),
  ];
}
