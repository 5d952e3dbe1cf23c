/**
 * `POST /v1/search/simulate` (docs/search-lifecycle.md#simulating-a-policy): a lifecycle policy's
 * effect over simulated days, by plat's own engine on a model cluster. A policy document or a built-in
 * policy needs no cluster; a stored policy is read from the configured one (503 without it). Not under
 * `/v1/search/policies/`, where `simulate` would read as a policy id.
 */
import { z } from 'zod';
import { PolicyInvalid } from '../../domain/search-ops/lifecycle/apply-policy';
import { lifecycleManager } from '../../domain/search-ops/lifecycle/lifecycle-manager-for';
import {
  needsStoredPolicy,
  runSimulation,
  type StoredPolicyRead,
} from '../../domain/search-ops/lifecycle/simulate/run-simulation';
import { simulationRequestSchema } from '../../domain/search-ops/lifecycle/simulate/simulation-input';
import type { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { HttpError } from '../http-errors';
import { onCluster, policyInvalid, UNAVAILABLE } from './on-cluster';

const count = z.number().int().min(0);
const tierRow = z.object({
  tier: z.string(),
  indices: count,
  docs: count,
  primary_bytes: count,
  total_bytes: count,
  placement: z.array(z.string()).optional(),
});
const dayRow = z.object({
  day: count,
  at: z.string(),
  tiers: z.array(tierRow),
  total: tierRow.omit({ tier: true, placement: true }),
});
const moment = z.object({ day: count, time: z.string(), index: z.string() });

const simulationResult = z.looseObject({
  policy_id: z.string(),
  alias: z.string(),
  days: z.number().int(),
  start: z.string(),
  pass_interval: z.string(),
  managed_domain: z.boolean(),
  shards: count,
  replicas: count,
  profile: z.looseObject({
    docs_per_day: z.number(),
    bytes_per_day: z.number().optional(),
    doc_bytes: z.number().optional(),
    growth_percent: z.number(),
  }),
  notes: z.array(z.string()),
  tiers: z.array(z.string()),
  timeline: z.array(
    z.looseObject({
      at: z.string(),
      day: count,
      time: z.string(),
      pass: count,
      index: z.string(),
      kind: z.enum(['created', 'rolled_over', 'transitioned', 'action_completed', 'deleted', 'failed']),
      message: z.string(),
    }),
  ),
  daily: z.array(dayRow),
  summary: z.looseObject({
    indices_created: count,
    indices_deleted: count,
    first_rollover: moment.optional(),
    first_deletion: moment.optional(),
    peak: z.object({ day: count, indices: count, primary_bytes: count, total_bytes: count }),
    failures: count,
  }),
  truncated: z.object({ day: count, reason: z.string() }).optional(),
  stats: z.looseObject({ passes: count, passes_run: count }),
});

export function simulateApi(client: OpenSearchClient | undefined): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'simulateLifecyclePolicy',
      role: 'operator',
      method: 'post',
      path: '/v1/search/simulate',
      summary:
        'Simulate a lifecycle policy over days: each index’s rollovers, transitions and deletion, and indices and bytes per tier per day',
      body: simulationRequestSchema.meta({
        example: {
          policy_id: 'retentionPolicy',
          days: 60,
          profile: { docs_per_day: 2_000_000, doc_bytes: 600 },
        },
      }),
      responses: {
        200: { description: 'the timeline, the rows per day and the summary', schema: simulationResult },
        404: { description: 'policy_id names neither a built-in nor a stored policy' },
        422: { description: 'the policy is invalid for the cluster kind: error.details.problems lists each' },
        503: { description: `a stored policy was named and ${UNAVAILABLE.description}` },
      },
      handle: async ({ body }) => {
        const stored = needsStoredPolicy(body) ? await readStored(client, body.policy_id!) : undefined;
        try {
          return await runSimulation(body, { stored });
        } catch (err) {
          if (err instanceof PolicyInvalid) throw policyInvalid(err);
          throw err;
        }
      },
    }),
  ];
}

/** A stored policy and the cluster's kind; 404 when there is none of that id, 503 without a cluster. */
function readStored(client: OpenSearchClient | undefined, id: string): Promise<StoredPolicyRead> {
  return onCluster(client, async (c) => {
    const manager = await lifecycleManager(c);
    const stored = await manager.getPolicy(id);
    if (!stored)
      throw new HttpError(
        404,
        'not_found',
        `no policy ${id}: neither a built-in (retentionPolicy, tieredPolicy, selfManagedWarmPolicy, selfManagedTieredPolicy) nor a stored policy`,
      );
    return { policy: stored.policy, managedDomain: manager.managedDomain };
  });
}
