/**
 * Writing a policy idempotently: validated first (nothing is written while a problem remains),
 * created when new, updated (naming the revision it replaces) when it differs, left alone when the
 * same policy is already stored.
 */
import { validatePolicy, type IsmPolicy, type PolicyProblem } from '../ism-policy';
import { templatesOf } from './ism-template-match';
import type { LifecycleManager } from './lifecycle-manager';
import { sortKeys } from '../settings-shape';
import type { StoredPolicy } from './lifecycle-store';

export class PolicyInvalid extends Error {
  constructor(
    readonly policyId: string,
    readonly problems: PolicyProblem[],
  ) {
    super(`policy ${policyId} is invalid: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    this.name = 'PolicyInvalid';
  }
}

export interface ApplyPolicyResult {
  result: 'created' | 'updated' | 'unchanged';
  engine: LifecycleManager['engine'];
  policy: StoredPolicy;
}

export async function applyPolicy(
  manager: LifecycleManager,
  id: string,
  body: unknown,
): Promise<ApplyPolicyResult> {
  const checked = validatePolicy(body, { managedDomain: manager.managedDomain });
  if (!checked.policy) throw new PolicyInvalid(id, checked.problems);
  const existing = await manager.getPolicy(id);
  if (existing && samePolicy(existing.policy, checked.policy))
    return { result: 'unchanged', engine: manager.engine, policy: existing };
  const stored = await manager.putPolicy(
    id,
    checked.policy,
    existing && { seq_no: existing._seq_no, primary_term: existing._primary_term },
  );
  return { result: existing ? 'updated' : 'created', engine: manager.engine, policy: stored };
}

/** The same policy, ignoring what the store stamps on it (ids, times, schema version). */
function samePolicy(stored: IsmPolicy, wanted: IsmPolicy): boolean {
  return JSON.stringify(comparable(stored)) === JSON.stringify(comparable(wanted));
}

function comparable(p: IsmPolicy): unknown {
  return sortKeys(
    {
      description: p.description ?? '',
      default_state: p.default_state,
      states: p.states.map((s) => ({
        name: s.name,
        actions: (s.actions ?? []).map(withoutDefaultRetry),
        transitions: s.transitions ?? [],
      })),
      ism_template: templatesOf(p).map((t) => ({
        index_patterns: t.index_patterns,
        priority: t.priority ?? 0,
      })),
    },
    true,
  );
}

/** ISM stores every action with its default retry spelt out; a policy without it is the same policy. */
function withoutDefaultRetry(action: Record<string, unknown>): Record<string, unknown> {
  const retry = action.retry as { count?: number; backoff?: string; delay?: string } | undefined;
  if (
    retry?.count === 3 &&
    (retry.backoff ?? 'exponential') === 'exponential' &&
    (retry.delay ?? '1m') === '1m'
  ) {
    return Object.fromEntries(Object.entries(action).filter(([k]) => k !== 'retry'));
  }
  return action;
}
