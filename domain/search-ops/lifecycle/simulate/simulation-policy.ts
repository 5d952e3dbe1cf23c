/**
 * The policy a simulation runs (docs/search-lifecycle.md#simulating-a-policy): a built-in one by name
 * (built for the simulated alias, as bootstrap builds it), or a document, validated exactly as
 * `applyPolicy` validates it before writing, for the cluster kind chosen. A policy the real cluster
 * would refuse is refused here with the same problems.
 */
import {
  retentionPolicy,
  selfManagedTieredPolicy,
  selfManagedWarmPolicy,
  tieredPolicy,
} from '../../builtin-policies';
import { validatePolicy, type IsmPolicy } from '../../ism-policy';
import { PolicyInvalid } from '../apply-policy';
import { patternMatches } from '../ism-template-match';

/** The built-in policies by the names of builtin-policies.ts and of `bootstrap --policy`. */
const BUILTINS: Record<string, (alias: string) => IsmPolicy> = {
  retentionPolicy: (alias) => retentionPolicy(alias),
  tieredPolicy: (alias) => tieredPolicy(alias),
  selfManagedWarmPolicy: (alias) => selfManagedWarmPolicy(alias),
  selfManagedTieredPolicy: (alias) => selfManagedTieredPolicy(alias),
  retention: (alias) => retentionPolicy(alias),
  tiered: (alias) => tieredPolicy(alias),
  'self-managed-warm': (alias) => selfManagedWarmPolicy(alias),
  'self-managed-tiered': (alias) => selfManagedTieredPolicy(alias),
};

export const isBuiltinPolicy = (id: string): boolean => Object.hasOwn(BUILTINS, id);

/** The alias a simulation uses when none is given. */
export const DEFAULT_ALIAS = 'logs';

/** A built-in policy for `alias`; undefined for any other name. */
export function builtinPolicy(id: string, alias: string): IsmPolicy | undefined {
  return isBuiltinPolicy(id) ? BUILTINS[id](alias) : undefined;
}

/**
 * The policy validated for the cluster kind, without the stamps a store adds (the simulation deploys
 * it afresh: its ism_template claims every index the simulation creates). Throws PolicyInvalid.
 */
export function simulationPolicy(id: string, body: unknown, managedDomain: boolean): IsmPolicy {
  const checked = validatePolicy(stripStamps(body), { managedDomain });
  if (!checked.policy) throw new PolicyInvalid(id, checked.problems);
  return checked.policy;
}

/**
 * The alias whose indices the policy's ism_template claims: `logs` for `logs-*`. Falls back to
 * `logs` when no pattern names one.
 */
export function aliasFromTemplate(policy: unknown): string {
  const template = (policy as { ism_template?: unknown } | undefined)?.ism_template;
  const templates = (Array.isArray(template) ? template : [template]) as { index_patterns?: unknown }[];
  for (const t of templates)
    for (const pattern of Array.isArray(t?.index_patterns) ? t.index_patterns : []) {
      if (typeof pattern !== 'string') continue;
      const name = pattern.replace(/\*+$/, '').replace(/-$/, '');
      if (/^[a-z0-9][a-z0-9._-]{0,200}$/.test(name) && patternMatches(pattern, `${name}-000001`)) return name;
    }
  return DEFAULT_ALIAS;
}

/** A stored policy's document without ISM's and plat's stamps (ids, times, schema version). */
function stripStamps(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const rest = { ...(body as Record<string, unknown>) };
  delete rest.policy_id;
  delete rest.last_updated_time;
  delete rest.schema_version;
  const t = rest.ism_template;
  const unstamp = (x: unknown) => {
    if (!x || typeof x !== 'object') return x;
    const copy = { ...(x as Record<string, unknown>) };
    delete copy.last_updated_time;
    return copy;
  };
  if (t !== undefined) rest.ism_template = Array.isArray(t) ? t.map(unstamp) : unstamp(t);
  return rest;
}
