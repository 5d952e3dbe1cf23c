/**
 * What plat's lifecycle engine remembers about each index it manages (docs/search-lifecycle.md#lifecycle-engine),
 * and its `explain` view in the shape ISM answers `GET _plugins/_ism/explain/<index>`, so a user reads
 * the same report whichever engine runs the policy.
 */
import type { IsmPolicy } from '../ism-policy';

/** ISM's step statuses. */
export type StepStatus = 'starting' | 'completed' | 'condition_not_met' | 'failed';

/** One managed index: the policy revision it runs and where in it the index is. */
export interface ManagedIndex {
  index: string;
  /** The index's uuid when attached: an index re-created under the same name is not this one. */
  index_uuid: string;
  policy_id: string;
  policy_seq_no: number;
  policy_primary_term: number;
  /** The policy as it was when attached (ISM binds a managed index to that revision too). */
  policy: IsmPolicy;
  enabled: boolean;
  /** Creation time on the engine's clock (docs/search-lifecycle.md#the-engines-clock). */
  index_creation_date: number;
  /** The write alias rollover acts on, learnt from the alias whose write index this is. */
  rollover_alias?: string;
  rolled_over: boolean;
  /** When this engine rolled the index over (engine clock), for `min_rollover_age`. */
  rolled_over_time?: number;
  state?: { name: string; start_time: number };
  action?: {
    name: string;
    /** Position of the action in its state; `-1` while transitions are evaluated. */
    index: number;
    start_time: number;
    failed: boolean;
    consumed_retries: number;
    last_retry_time: number;
  };
  step?: { name: string; start_time: number; step_status: StepStatus };
  info?: { message: string; cause?: string; [key: string]: unknown };
  /**
   * false: the policy was removed by hand; the record only stops an ism_template from claiming the
   * index again (ISM's `auto_manage: false` index setting).
   */
  auto_manage?: false;
  /** True once a state without transitions has run all its actions. */
  policy_completed?: boolean;
}

/** An `explain` entry as ISM writes it. */
export function explainEntry(m: ManagedIndex): Record<string, unknown> {
  return {
    'index.plugins.index_state_management.policy_id': m.policy_id,
    'index.opendistro.index_state_management.policy_id': m.policy_id,
    index: m.index,
    index_uuid: m.index_uuid,
    policy_id: m.policy_id,
    policy_seq_no: m.policy_seq_no,
    policy_primary_term: m.policy_primary_term,
    ...(m.rollover_alias ? { 'index.plugins.index_state_management.rollover_alias': m.rollover_alias } : {}),
    rolled_over: m.rolled_over,
    index_creation_date: m.index_creation_date,
    ...(m.state ? { state: m.state } : {}),
    ...(m.action ? { action: m.action } : {}),
    ...(m.step ? { step: m.step } : {}),
    retry_info: { failed: m.action?.failed ?? false, consumed_retries: m.action?.consumed_retries ?? 0 },
    info: m.info ?? {},
    ...(m.policy_completed ? { policy_completed: true } : {}),
    enabled: m.enabled,
  };
}

/** The `explain` entry of an index no policy manages. */
export function unmanagedEntry(): Record<string, unknown> {
  return {
    'index.plugins.index_state_management.policy_id': null,
    'index.opendistro.index_state_management.policy_id': null,
    enabled: null,
  };
}

/** The record of an index just attached to a stored policy: not yet initialised (the next pass does). */
export function attachedRecord(
  index: { index: string; uuid: string; creation_date: number },
  policy: { _id: string; _seq_no: number; _primary_term: number; policy: IsmPolicy },
  /** Engine clock minus wall clock when the index was observed (0 outside time-skipping tests). */
  clockOffset: number,
): ManagedIndex {
  return {
    index: index.index,
    index_uuid: index.uuid,
    policy_id: policy._id,
    policy_seq_no: policy._seq_no,
    policy_primary_term: policy._primary_term,
    policy: policy.policy,
    enabled: true,
    index_creation_date: index.creation_date + clockOffset,
    rolled_over: false,
    info: { message: `Pending initialization of policy ${policy._id}` },
  };
}
