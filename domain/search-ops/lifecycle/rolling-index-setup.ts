/**
 * A rolling index with its lifecycle in one idempotent call (docs/search-lifecycle.md#bootstrap-rolling-index-bootstrapts):
 * the policy `<name>-lifecycle` first (its ism_template then claims the first index at creation),
 * then the template and the first index with the write alias. Indices that already existed before
 * the policy was created are attached explicitly, since an ism_template claims only new ones.
 */
import { DURATION_PATTERN, SIZE_PATTERN } from '../ism-units';
import { z } from 'zod';
import {
  retentionPolicy,
  selfManagedTieredPolicy,
  selfManagedWarmPolicy,
  tieredPolicy,
  type RolloverThresholds,
} from '../builtin-policies';
import type { TemplateOptions } from '../index-template';
import { ismPolicyJsonSchema, type IsmPolicy } from '../ism-policy';
import type { OpenSearchClient } from '../opensearch-client';
import { bootstrapRollingIndex, type BootstrapReport } from '../rolling-index-bootstrap';
import { applyPolicy, type ApplyPolicyResult } from './apply-policy';
import { lifecycleManager } from './lifecycle-manager-for';

export const BUILTIN_POLICIES = ['retention', 'tiered', 'self-managed-warm', 'self-managed-tiered'] as const;

export const lifecycleChoiceSchema = z
  .object({
    /** A built-in policy, `none`, or a whole policy document (ISM format). */
    policy: z
      .union([
        z.enum([...BUILTIN_POLICIES, 'none']),
        z.looseObject({}).meta({
          ...ismPolicyJsonSchema(),
          description: 'a policy document (ISM format): default_state, states, ism_template',
        }),
      ])
      .default('retention'),
    retention_days: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .optional()
      .describe('retention: days before deletion (30)'),
    rollover: z
      .object({
        min_index_age: z.string().regex(DURATION_PATTERN, 'a duration such as 1d or 12h').optional(),
        min_doc_count: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
        min_primary_shard_size: z.string().regex(SIZE_PATTERN, 'a size such as 40gb').optional(),
      })
      .strict()
      .optional()
      .describe('when the write index rolls over: any minimum met (default 1d or 40gb)'),
  })
  .strict();

export type LifecycleChoice = z.input<typeof lifecycleChoiceSchema>;

export interface SetupReport extends BootstrapReport {
  policy?: { id: string; result: ApplyPolicyResult['result']; engine: ApplyPolicyResult['engine'] };
  /** Existing indices attached because the policy is newer than they are. */
  attached: number;
}

export const policyIdFor = (name: string) => `${name}-lifecycle`;

export async function setUpRollingIndex(
  client: OpenSearchClient,
  name: string,
  template: TemplateOptions,
  choice: LifecycleChoice = {},
): Promise<SetupReport> {
  const c = lifecycleChoiceSchema.parse(choice);
  const manager = await lifecycleManager(client);
  let policy: SetupReport['policy'];
  if (c.policy !== 'none') {
    const applied = await applyPolicy(manager, policyIdFor(name), policyDocument(name, c));
    policy = { id: policyIdFor(name), result: applied.result, engine: applied.engine };
  }
  const report = await bootstrapRollingIndex(client, name, template, manager.engine === 'ism');
  let attached = 0;
  if (policy?.result === 'created' && report.write_alias !== 'created') {
    const update = await manager.addPolicy(`${name}-*`, policy.id);
    attached = update.updated_indices;
  } else if (policy && report.write_alias === 'created' && manager.engine === 'plat') {
    // ISM claims the new index at its creation; plat's engine would at its next pass: claim it now,
    // so explain shows it managed from the start.
    await manager.addPolicy(report.write_index!, policy.id);
  }
  return { ...report, ...(policy ? { policy } : {}), attached };
}

function policyDocument(name: string, c: z.output<typeof lifecycleChoiceSchema>): IsmPolicy {
  const rollover = c.rollover as RolloverThresholds | undefined;
  switch (c.policy) {
    case 'retention':
      return retentionPolicy(name, { days: c.retention_days, rollover });
    case 'tiered':
      return tieredPolicy(name, { rollover });
    case 'self-managed-warm':
      return selfManagedWarmPolicy(name, {
        rollover,
        deleteAfter: c.retention_days ? `${c.retention_days}d` : undefined,
      });
    case 'self-managed-tiered':
      return selfManagedTieredPolicy(name, { rollover });
    case 'none':
      throw new Error('no policy');
    default:
      // Validated by applyPolicy, which names each problem.
      return c.policy as IsmPolicy;
  }
}
