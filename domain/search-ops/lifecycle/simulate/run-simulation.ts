/**
 * A simulation request answered (docs/search-lifecycle.md#simulating-a-policy): the policy resolved
 * (a document, a built-in by name, or a stored policy the caller read from the cluster), validated
 * for the cluster kind, then simulated. Shared by `POST /v1/search/simulate` and `plat index simulate`.
 */
import { DEFAULT_PASS_INTERVAL, type SimulationRequest } from './simulation-input';
import {
  aliasFromTemplate,
  builtinPolicy,
  DEFAULT_ALIAS,
  isBuiltinPolicy,
  simulationPolicy,
} from './simulation-policy';
import { simulatePolicy } from './simulate-policy';
import type { SimulationResult } from './simulation-result';

/** A stored policy as read from the cluster, with the cluster's kind. */
export interface StoredPolicyRead {
  policy: unknown;
  managedDomain: boolean;
}

/** The request names a policy that is neither built in nor among those `stored` was given. */
export class SimulationPolicyNotFound extends Error {
  constructor(readonly policyId: string) {
    super(`no policy ${policyId}: neither a built-in policy nor a stored one`);
    this.name = 'SimulationPolicyNotFound';
  }
}

/** Whether a request needs a stored policy (and so the cluster) to run. */
export const needsStoredPolicy = (req: Pick<SimulationRequest, 'policy_id' | 'policy'>): boolean =>
  req.policy === undefined && req.policy_id !== undefined && !isBuiltinPolicy(req.policy_id);

/** Runs the simulation; throws PolicyInvalid for a policy the cluster would refuse. */
export async function runSimulation(
  req: Omit<SimulationRequest, 'pass_interval' | 'shards' | 'replicas'> &
    Partial<Pick<SimulationRequest, 'pass_interval' | 'shards' | 'replicas'>>,
  opts: {
    /** The stored policy `policy_id` names, when it is not a built-in. */
    stored?: StoredPolicyRead;
    /** The name a policy document is shown under (default: its `policy_id`, else `policy`). */
    name?: string;
    start?: number;
    /** Run every pass, skipping none (the reference that tests and `bench:simulate` compare with). */
    exhaustive?: boolean;
  } = {},
): Promise<SimulationResult> {
  let id: string;
  let body: unknown;
  let managedDomain = req.managed_domain ?? false;
  let alias = req.alias;
  if (req.policy !== undefined) {
    id = opts.name ?? (typeof req.policy.policy_id === 'string' ? req.policy.policy_id : 'policy');
    body = req.policy;
    alias ??= aliasFromTemplate(body);
  } else if (isBuiltinPolicy(req.policy_id!)) {
    id = req.policy_id!;
    alias ??= DEFAULT_ALIAS;
    body = builtinPolicy(id, alias);
  } else {
    id = req.policy_id!;
    if (!opts.stored) throw new SimulationPolicyNotFound(id);
    body = opts.stored.policy;
    managedDomain = req.managed_domain ?? opts.stored.managedDomain;
    alias ??= aliasFromTemplate(body);
  }
  const policy = simulationPolicy(id, body, managedDomain);
  return simulatePolicy({
    policy_id: id,
    policy,
    days: req.days,
    profile: req.profile,
    pass_interval: req.pass_interval ?? DEFAULT_PASS_INTERVAL,
    managed_domain: managedDomain,
    alias,
    shards: req.shards ?? 1,
    replicas: req.replicas ?? 1,
    start: opts.start,
    exhaustive: opts.exhaustive,
  });
}
