/**
 * The three policies of the search-lifecycle requirements, for a rolling index `<name>-*`:
 * tiered (hot → warm → cold → delete, managed domain), retention-only (hot → delete at 30 d) and
 * self-managed warm (read_only, allocation to warm nodes, replica_count, delete at 90 d). Each
 * attaches itself to new indices of the pattern through `ism_template`.
 */
import type { IsmPolicy } from './ism-policy';

/** When hot indices roll over: any minimum met triggers it. */
export interface RolloverThresholds {
  min_index_age?: string;
  min_primary_shard_size?: string;
  min_doc_count?: number;
}

export const DEFAULT_ROLLOVER: RolloverThresholds = { min_index_age: '1d', min_primary_shard_size: '40gb' };

const template = (name: string, priority: number) => ({ index_patterns: [`${name}-*`], priority });

/** The hot state: rolled over when a threshold is met, then on to `next` at `after`. */
const hotState = (rollover: RolloverThresholds | undefined, next: string, after: string) => ({
  name: 'hot',
  actions: [{ rollover: { ...(rollover ?? DEFAULT_ROLLOVER) } }],
  transitions: [{ state_name: next, conditions: { min_index_age: after } }],
});

/** hot (rollover) → warm at 7 d (warm_migration) → cold at 30 d (cold_migration) → delete at 90 d (cold_delete). */
export function tieredPolicy(
  name: string,
  opts: { rollover?: RolloverThresholds; timestampField?: string; priority?: number } = {},
): IsmPolicy {
  return {
    description: `${name}: hot, then warm at 7d, cold at 30d, deleted at 90d (managed domain)`,
    default_state: 'hot',
    states: [
      hotState(opts.rollover, 'warm', '7d'),
      {
        name: 'warm',
        actions: [{ warm_migration: {} }],
        transitions: [{ state_name: 'cold', conditions: { min_index_age: '30d' } }],
      },
      {
        name: 'cold',
        actions: [{ cold_migration: { timestamp_field: opts.timestampField ?? '@timestamp' } }],
        transitions: [{ state_name: 'delete', conditions: { min_index_age: '90d' } }],
      },
      { name: 'delete', actions: [{ cold_delete: {} }], transitions: [] },
    ],
    ism_template: template(name, opts.priority ?? 100),
  };
}

/** hot (rollover) → deleted at `days` (30 by default). */
export function retentionPolicy(
  name: string,
  opts: { days?: number; rollover?: RolloverThresholds; priority?: number } = {},
): IsmPolicy {
  const days = opts.days ?? 30;
  return {
    description: `${name}: rolled over while hot, deleted at ${days}d`,
    default_state: 'hot',
    states: [
      hotState(opts.rollover, 'delete', `${days}d`),
      { name: 'delete', actions: [{ delete: {} }], transitions: [] },
    ],
    ism_template: template(name, opts.priority ?? 100),
  };
}

/**
 * hot (rollover) → warm at 7 d on a self-managed cluster: read_only, shards required on nodes whose
 * attribute `attribute` is `value` (e.g. node.attr.temp: warm), `replicas` replicas → deleted at 90 d.
 */
export function selfManagedWarmPolicy(
  name: string,
  opts: {
    rollover?: RolloverThresholds;
    attribute?: string;
    value?: string;
    replicas?: number;
    warmAfter?: string;
    deleteAfter?: string;
    priority?: number;
  } = {},
): IsmPolicy {
  return {
    description: `${name}: hot, then read-only on ${opts.attribute ?? 'temp'}=${opts.value ?? 'warm'} nodes, deleted at ${opts.deleteAfter ?? '90d'}`,
    default_state: 'hot',
    states: [
      hotState(opts.rollover, 'warm', opts.warmAfter ?? '7d'),
      {
        name: 'warm',
        actions: [
          { read_only: {} },
          { allocation: { require: { [opts.attribute ?? 'temp']: opts.value ?? 'warm' }, wait_for: true } },
          { replica_count: { number_of_replicas: opts.replicas ?? 0 } },
        ],
        transitions: [{ state_name: 'delete', conditions: { min_index_age: opts.deleteAfter ?? '90d' } }],
      },
      { name: 'delete', actions: [{ delete: {} }], transitions: [] },
    ],
    ism_template: template(name, opts.priority ?? 100),
  };
}

/**
 * The tiered policy for a self-managed cluster: hot (rollover) → warm at 7 d (read_only, shards
 * required on `attribute=warm` nodes, `replicas` replicas) → cold at 30 d (shards on `attribute=cold`
 * nodes) → deleted at 90 d. The same tiers as `tieredPolicy`, through node attributes instead of
 * the managed domain's UltraWarm and cold storage.
 */
export function selfManagedTieredPolicy(
  name: string,
  opts: {
    rollover?: RolloverThresholds;
    attribute?: string;
    warmValue?: string;
    coldValue?: string;
    replicas?: number;
    /** Wait until the shards sit on the tier's nodes before the state's next action. */
    waitFor?: boolean;
    priority?: number;
  } = {},
): IsmPolicy {
  const attribute = opts.attribute ?? 'temp';
  const tier = (value: string) => ({
    allocation: { require: { [attribute]: value }, wait_for: opts.waitFor ?? true },
  });
  return {
    description: `${name}: hot, warm (${attribute}=${opts.warmValue ?? 'warm'}) at 7d, cold (${attribute}=${opts.coldValue ?? 'cold'}) at 30d, deleted at 90d`,
    default_state: 'hot',
    states: [
      hotState(opts.rollover, 'warm', '7d'),
      {
        name: 'warm',
        actions: [
          { read_only: {} },
          tier(opts.warmValue ?? 'warm'),
          { replica_count: { number_of_replicas: opts.replicas ?? 0 } },
        ],
        transitions: [{ state_name: 'cold', conditions: { min_index_age: '30d' } }],
      },
      {
        name: 'cold',
        actions: [tier(opts.coldValue ?? 'cold')],
        transitions: [{ state_name: 'delete', conditions: { min_index_age: '90d' } }],
      },
      { name: 'delete', actions: [{ delete: {} }], transitions: [] },
    ],
    ism_template: template(name, opts.priority ?? 100),
  };
}
