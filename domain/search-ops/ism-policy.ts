/**
 * ISM policies (the `policy` body of `PUT _plugins/_ism/policies/{name}`): their shape as zod, and
 * the checks made before a policy is written or run: states reachable from the default state,
 * transitions that name existing states, known actions with their parameters, durations and sizes
 * that parse, `ism_template` patterns, and actions only a managed domain has refused on a
 * self-managed cluster. plat's own lifecycle engine runs the same documents when ISM is absent.
 */
import { z } from 'zod';
import { DURATION_PATTERN, SIZE_PATTERN } from './ism-units';

// The patterns state the limits the cluster enforces (digits that fit a long), so the API's schema
// says exactly what it accepts; what they match always parses.
const duration = z.string().regex(DURATION_PATTERN, { message: 'a duration such as 30m, 12h or 7d' });
const size = z.string().regex(SIZE_PATTERN, { message: 'a size such as 500mb or 40gb' });

/** Every action's parameters; `{}` actions take none. Common fields (timeout, retry) are allowed on all. */
const ACTIONS = {
  rollover: z
    .object({
      min_index_age: duration.optional(),
      min_primary_shard_size: size.optional(),
      min_size: size.optional(),
      min_doc_count: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
      copy_alias: z.boolean().optional(),
    })
    .strict(),
  delete: z.object({}).strict(),
  read_only: z.object({}).strict(),
  read_write: z.object({}).strict(),
  replica_count: z.object({ number_of_replicas: z.number().int().min(0) }).strict(),
  allocation: z
    .object({
      require: z.record(z.string(), z.string()).optional(),
      include: z.record(z.string(), z.string()).optional(),
      exclude: z.record(z.string(), z.string()).optional(),
      wait_for: z.boolean().optional(),
    })
    .strict()
    .refine((a) => a.require || a.include || a.exclude, {
      message: 'allocation needs require, include or exclude (e.g. require: {"temp": "warm"})',
    })
    .meta({ anyOf: [{ required: ['require'] }, { required: ['include'] }, { required: ['exclude'] }] }),
  warm_migration: z.object({ timeout: duration.optional(), ignore: z.string().optional() }).strict(),
  cold_migration: z
    .object({
      timestamp_field: z.string().min(1),
      start_time: z.string().optional(),
      end_time: z.string().optional(),
      ignore: z.string().optional(),
    })
    .strict(),
  cold_delete: z.object({}).strict(),
} as const;

export type IsmActionName = keyof typeof ACTIONS;

/** Actions only a managed domain (Amazon OpenSearch Service with UltraWarm / cold storage) has. */
export const MANAGED_DOMAIN_ACTIONS: readonly IsmActionName[] = [
  'warm_migration',
  'cold_migration',
  'cold_delete',
];

const retry = z
  .object({
    count: z.number().int().min(0),
    backoff: z.enum(['exponential', 'constant', 'linear']).optional(),
    delay: duration.optional(),
  })
  .strict();

/**
 * What an action may be, for the API's document: one object per action, naming it and nothing else
 * but `timeout` and `retry`. The parse below checks the same and words each problem for a person.
 */
const actionVariants = Object.entries(ACTIONS).map(([name, params]) => {
  const variant = z
    .object({ [name]: params, timeout: duration.optional(), retry: retry.optional() })
    .strict();
  const json = z.toJSONSchema(variant, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
});

/** One action: exactly one action key, plus the common `timeout` and `retry`. */
const actionSchema = z
  .object({ timeout: duration.optional(), retry: retry.optional() })
  .catchall(z.unknown())
  .superRefine((action, ctx) => {
    const names = Object.keys(action).filter((k) => k !== 'timeout' && k !== 'retry');
    if (names.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `an action names exactly one of ${Object.keys(ACTIONS).join(', ')}; found ${names.join(', ') || 'none'}`,
      });
      return;
    }
    const name = names[0];
    const params = ACTIONS[name as IsmActionName];
    if (!params) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `unknown action ${name} (known: ${Object.keys(ACTIONS).join(', ')})`,
      });
      return;
    }
    const parsed = params.safeParse(action[name]);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: [name, ...issue.path.map(String)], message: issue.message });
  })
  .meta({ oneOf: actionVariants });

const transitionSchema = z
  .object({
    state_name: z.string().min(1),
    conditions: z
      .object({
        min_index_age: duration.optional(),
        min_rollover_age: duration.optional(),
        min_doc_count: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
        min_size: size.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

const stateSchema = z
  .object({
    name: z.string().min(1),
    actions: z.array(actionSchema).default([]),
    transitions: z.array(transitionSchema).default([]),
  })
  .strict();

/** An index pattern OpenSearch accepts for ISM templates: no spaces, commas or leading `_`/`-`/`+`. */
const indexPattern = z
  .string()
  .regex(
    /^[^\s,"\\/<>|?#_\-+][^\s,"\\/<>|?#]*$/,
    'an index pattern such as logs-* (no spaces, commas or quotes)',
  );

const ismTemplateSchema = z
  .object({
    index_patterns: z.array(indexPattern).min(1),
    // ISM keeps the priority in a 32-bit integer.
    priority: z.number().int().min(0).max(2_147_483_647).default(0),
    last_updated_time: z.number().optional(),
  })
  .strict();

export const ismPolicySchema = z
  .object({
    policy_id: z.string().optional(),
    description: z.string().default(''),
    default_state: z.string().min(1),
    states: z.array(stateSchema).min(1),
    ism_template: z.union([ismTemplateSchema, z.array(ismTemplateSchema)]).optional(),
    error_notification: z.unknown().optional(),
    schema_version: z.number().optional(),
    last_updated_time: z.number().optional(),
  })
  .strict();

export type IsmPolicy = z.output<typeof ismPolicySchema>;

/**
 * The policy's JSON Schema, for API documents whose routes take a policy as it comes and answer each
 * problem `validatePolicy` finds (a 422 listing them) rather than a bare 400.
 */
export function ismPolicyJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(ismPolicySchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

/** Where the policy will run: a self-managed cluster refuses managed-domain-only actions. */
export interface PolicyTarget {
  managedDomain: boolean;
}

/** A problem with a policy, with the JSON path it concerns. */
export interface PolicyProblem {
  path: string;
  message: string;
}

/** The policy parsed, or every problem found in it; nothing is written while there is one. */
export function validatePolicy(
  body: unknown,
  target: PolicyTarget,
): { policy: IsmPolicy; problems: [] } | { policy?: undefined; problems: PolicyProblem[] } {
  const parsed = ismPolicySchema.safeParse(body);
  if (!parsed.success)
    return {
      problems: parsed.error.issues.map((i) => ({
        path: i.path.map(String).join('.') || '(policy)',
        message: i.message,
      })),
    };
  const policy = parsed.data;
  const problems: PolicyProblem[] = [];
  const names = policy.states.map((s) => s.name);
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i)
      problems.push({ path: `states.${i}.name`, message: `state ${name} is defined twice` });
  });
  if (!names.includes(policy.default_state))
    problems.push({
      path: 'default_state',
      message: `default_state ${policy.default_state} is not one of the states (${names.join(', ')})`,
    });
  policy.states.forEach((state, i) =>
    state.transitions.forEach((t, j) => {
      if (!names.includes(t.state_name))
        problems.push({
          path: `states.${i}.transitions.${j}.state_name`,
          message: `state ${state.name} moves to ${t.state_name}, which is not one of the states`,
        });
    }),
  );
  // Reachability means something only from a default state that exists.
  if (names.includes(policy.default_state))
    for (const unreached of unreachableStates(policy))
      problems.push({
        path: `states.${names.indexOf(unreached)}`,
        message: `state ${unreached} cannot be reached from default_state ${policy.default_state}`,
      });
  if (!target.managedDomain)
    policy.states.forEach((state, i) =>
      state.actions.forEach((action, j) => {
        const name = actionName(action);
        if (MANAGED_DOMAIN_ACTIONS.includes(name))
          problems.push({
            path: `states.${i}.actions.${j}.${name}`,
            message:
              `${name} exists only on a managed domain (Amazon OpenSearch Service with UltraWarm/cold storage); ` +
              'on a self-managed cluster use read_only, allocation (require a node attribute) and replica_count, ' +
              'as the built-in self-managed-tiered policy does',
          });
      }),
    );
  return problems.length ? { problems } : { policy, problems: [] };
}

/** The action an action object names (`{rollover: {...}, retry: {...}}` → `rollover`). */
export function actionName(action: Record<string, unknown>): IsmActionName {
  return Object.keys(action).find((k) => k !== 'timeout' && k !== 'retry') as IsmActionName;
}

/** States no chain of transitions leads to from the default state. */
function unreachableStates(policy: IsmPolicy): string[] {
  const byName = new Map(policy.states.map((s) => [s.name, s]));
  const seen = new Set<string>();
  const todo = [policy.default_state];
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name) || !byName.has(name)) continue;
    seen.add(name);
    for (const t of byName.get(name)!.transitions) todo.push(t.state_name);
  }
  return [...new Set(policy.states.map((s) => s.name))].filter((n) => !seen.has(n));
}
