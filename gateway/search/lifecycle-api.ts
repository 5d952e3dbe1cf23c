/**
 * Lifecycle policies and managed indices under `/v1/search` (docs/search-lifecycle.md#rest): write,
 * read and delete a policy (validated first, idempotent), attach it to existing indices, remove it,
 * retry a failed action, explain. The same requests whichever engine runs the policies: the
 * cluster's ISM plugin, or plat's lifecycle engine where the cluster has none.
 */
import { z } from 'zod';
import { applyPolicy } from '../../domain/search-ops/lifecycle/apply-policy';
import { ismPolicyJsonSchema } from '../../domain/search-ops/ism-policy';
import { lifecycleManager } from '../../domain/search-ops/lifecycle/lifecycle-manager-for';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { indexExpression } from './index-names';
import { onCluster, REFUSED, UNAVAILABLE } from './on-cluster';

const policyParams = z
  .object({ policy_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'letters, digits, . _ -') })
  .strict();
const indexParams = z
  .object({ index: indexExpression('an index, a comma-separated list or a pattern') })
  .strict();

const managedUpdate = z.object({
  updated_indices: z.number().int(),
  failures: z.boolean(),
  failed_indices: z.array(z.looseObject({ index_name: z.string(), reason: z.string() })),
});
const storedPolicy = z.looseObject({
  _id: z.string(),
  _seq_no: z.number().int(),
  _primary_term: z.number().int(),
  policy: z.looseObject({}).describe('the policy as stored (ISM format)'),
});

/** What any lifecycle operation may answer besides its own. */
const common = { 422: REFUSED, 503: UNAVAILABLE };

/** Work on the cluster's lifecycle manager (503 without a cluster). */
const managed = <T>(
  client: OpenSearchClient | undefined,
  work: (m: Awaited<ReturnType<typeof lifecycleManager>>) => Promise<T>,
) => onCluster(client, async (c) => work(await lifecycleManager(c)));

export function lifecycleApi(client: OpenSearchClient | undefined): ApiRoute[] {
  return [...policyRoutes(client), ...managedIndexRoutes(client)];
}

/** Lifecycle policies: write one, read it, delete it. */
function policyRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'putLifecyclePolicy',
      role: 'operator',
      method: 'put',
      path: '/v1/search/policies/{policy_id}',
      summary: 'Create or update a lifecycle policy (ISM format), validated before it is written',
      params: policyParams,
      body: z
        .object({
          policy: z.looseObject({}).meta({
            ...ismPolicyJsonSchema(),
            description: 'the ISM policy: default_state, states, ism_template',
          }),
        })
        .strict(),
      responses: {
        200: {
          description: 'created, updated or unchanged, with the engine that runs it (ism or plat)',
          schema: z.object({
            result: z.enum(['created', 'updated', 'unchanged']),
            engine: z.enum(['ism', 'plat']),
            policy: storedPolicy,
          }),
        },
        422: { description: 'the policy is invalid: error.details.problems lists each, with its path' },
        503: UNAVAILABLE,
      },
      handle: ({ params, body }) => managed(client, (m) => applyPolicy(m, params.policy_id, body.policy)),
    }),
    apiRoute({
      operationId: 'getLifecyclePolicy',
      role: 'operator',
      method: 'get',
      path: '/v1/search/policies/{policy_id}',
      summary: 'A lifecycle policy as stored, with the versions an update names',
      params: policyParams,
      responses: {
        200: { description: 'the policy', schema: storedPolicy },
        404: { description: 'no such policy' },
        ...common,
      },
      handle: ({ params }) =>
        managed(client, async (m) => {
          const policy = await m.getPolicy(params.policy_id);
          if (!policy) throw new HttpError(404, 'not_found', `no policy ${params.policy_id}`);
          return policy;
        }),
    }),
    apiRoute({
      operationId: 'deleteLifecyclePolicy',
      role: 'operator',
      method: 'delete',
      path: '/v1/search/policies/{policy_id}',
      summary: 'Delete a policy (indices it manages keep running the revision they were attached to)',
      params: policyParams,
      responses: {
        200: { description: 'deleted', schema: z.object({ deleted: z.literal(true) }) },
        404: { description: 'no such policy' },
        ...common,
      },
      handle: ({ params }) =>
        managed(client, async (m) => {
          if (!(await m.deletePolicy(params.policy_id)))
            throw new HttpError(404, 'not_found', `no policy ${params.policy_id}`);
          return { deleted: true as const };
        }),
    }),
  ];
}

/** The indices a policy manages: attach, remove, retry a failed action, explain where each stands. */
function managedIndexRoutes(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'attachLifecyclePolicy',
      role: 'operator',
      method: 'post',
      path: '/v1/search/indices/{index}/policy',
      summary: 'Attach a policy to existing indices (new ones get it through the policy’s ism_template)',
      params: indexParams,
      body: z.object({ policy_id: policyParams.shape.policy_id }).strict(),
      responses: {
        200: {
          description: 'ISM’s answer: how many were attached, and why others were not',
          schema: managedUpdate,
        },
        404: { description: 'no such policy or index' },
        ...common,
      },
      handle: ({ params, body }) => managed(client, (m) => m.addPolicy(params.index, body.policy_id)),
    }),
    apiRoute({
      operationId: 'removeLifecyclePolicy',
      role: 'operator',
      method: 'delete',
      path: '/v1/search/indices/{index}/policy',
      summary: 'Stop managing indices (their ism_template will not claim them again)',
      params: indexParams,
      responses: {
        200: { description: 'how many were removed, and why others were not', schema: managedUpdate },
        404: { description: 'no such index' },
        ...common,
      },
      handle: ({ params }) => managed(client, (m) => m.removePolicy(params.index)),
    }),
    apiRoute({
      operationId: 'retryLifecycleAction',
      role: 'operator',
      method: 'post',
      path: '/v1/search/indices/{index}/retry',
      summary: 'Run the failed action of failed managed indices again',
      params: indexParams,
      responses: {
        200: { description: 'how many were restarted, and why others were not', schema: managedUpdate },
        404: { description: 'no such index' },
        ...common,
      },
      handle: ({ params }) => managed(client, (m) => m.retry(params.index)),
    }),
    apiRoute({
      operationId: 'explainLifecycle',
      role: 'operator',
      method: 'get',
      path: '/v1/search/indices/{index}/explain',
      summary: 'Where each index is in its policy: state, action, step, info, failures (ISM’s explain)',
      params: indexParams,
      responses: {
        200: {
          description: 'one entry per index, plus total_managed_indices',
          schema: z.looseObject({ total_managed_indices: z.number().int() }),
        },
        404: { description: 'no such index' },
        ...common,
      },
      handle: ({ params }) => managed(client, (m) => m.explain(params.index)),
    }),
  ];
}
