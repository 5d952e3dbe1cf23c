/**
 * The ISM actions plat's engine runs through core APIs (docs/search-lifecycle.md#lifecycle-engine):
 * rollover on the write alias, read_only / read_write (the write block), replica_count, allocation
 * (node-attribute filters, optionally waiting for the shards to move) and delete; on a cluster with a
 * managed domain's storage tiers (the simulator's), also warm_migration, cold_migration and cold_delete.
 * Each answers `completed` or `condition_not_met`; a failure throws an ActionFailed naming the cause.
 * The effects go through a LifecycleCluster, so the simulator runs this same logic
 * (docs/search-lifecycle.md#simulating-a-policy).
 */
import { parseDuration, parseSize } from '../ism-units';
import type { ClusterSnapshot, ObservedIndex } from './cluster-snapshot';
import type { LifecycleCluster } from './lifecycle-cluster';
import type { ManagedIndex } from './managed-index';

export class ActionFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionFailed';
  }
}

export type ActionOutcome =
  | { status: 'completed'; message: string; new_index?: string; deleted?: boolean; rollover_alias?: string }
  | { status: 'condition_not_met'; message: string; details?: Record<string, unknown> };

export interface ActionContext {
  /** Where the actions take effect: the real cluster, or the simulator's model. */
  cluster: LifecycleCluster;
  snapshot: ClusterSnapshot;
  record: ManagedIndex;
  observed: ObservedIndex;
  /** The engine's clock (ms). */
  now: number;
}

/** ISM's step name of each action, as explain shows it. */
export const STEP_NAMES: Record<string, string> = {
  rollover: 'attempt_rollover',
  read_only: 'set_read_only',
  read_write: 'set_read_write',
  replica_count: 'attempt_set_replica_count',
  allocation: 'attempt_allocation',
  delete: 'attempt_delete',
  warm_migration: 'attempt_warm_migration',
  cold_migration: 'attempt_cold_migration',
  cold_delete: 'attempt_cold_delete',
};

export async function runAction(
  name: string,
  params: Record<string, unknown>,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const { cluster, observed } = ctx;
  const index = observed.index;
  switch (name) {
    case 'rollover':
      return rollover(params, ctx);
    case 'read_only':
    case 'read_write':
      await cluster.setWriteBlock(index, name === 'read_only');
      return {
        status: 'completed',
        message: `Successfully set index to ${name.replace('_', '-')} [index=${index}]`,
      };
    case 'replica_count': {
      const replicas = params.number_of_replicas as number;
      await cluster.setReplicas(index, replicas);
      return {
        status: 'completed',
        message: `Successfully set number_of_replicas to ${replicas} [index=${index}]`,
      };
    }
    case 'allocation':
      return allocation(params, ctx);
    case 'delete':
      return deleteIndex(ctx);
    case 'warm_migration':
    case 'cold_migration': {
      const tier = name === 'warm_migration' ? 'warm' : 'cold';
      await managedStorage(name, ctx).migrate(index, tier);
      return { status: 'completed', message: `Successfully migrated index to ${tier} [index=${index}]` };
    }
    case 'cold_delete': {
      const storage = managedStorage(name, ctx);
      return deleteIndex(ctx, (i) => storage.coldDelete(i));
    }
    default:
      throw new ActionFailed(
        `${name} is not available on this cluster: it exists only on a managed domain (Amazon OpenSearch Service)`,
      );
  }
}

/** The managed domain's storage tiers, or the failure of an action only a managed domain has. */
function managedStorage(
  name: string,
  { cluster }: ActionContext,
): NonNullable<LifecycleCluster['managedStorage']> {
  if (!cluster.managedStorage)
    throw new ActionFailed(
      `${name} is not available on this cluster: it exists only on a managed domain (Amazon OpenSearch Service)`,
    );
  return cluster.managedStorage;
}

async function rollover(params: Record<string, unknown>, ctx: ActionContext): Promise<ActionOutcome> {
  const { cluster, snapshot, record, observed, now } = ctx;
  const index = observed.index;
  if (record.rolled_over)
    return { status: 'completed', message: `Index has already been rolled over [index=${index}]` };
  const aliases = Object.keys(observed.aliases);
  const alias = record.rollover_alias ?? aliases.find((a) => snapshot.writeIndexOf(a) === index);
  if (!alias) {
    const movedOn = aliases.find((a) => snapshot.writeIndexOf(a) && snapshot.writeIndexOf(a) !== index);
    if (movedOn)
      return {
        status: 'completed',
        rollover_alias: movedOn,
        message: `Index was already rolled over: alias ${movedOn} writes to ${snapshot.writeIndexOf(movedOn)} [index=${index}]`,
      };
    throw new ActionFailed(
      `Missing rollover alias: ${index} is not the write index of any alias (ISM's "missing rollover_alias index setting"). ` +
        `Writers must target an alias whose write index (is_write_index: true) is ${index}`,
    );
  }

  const conditions = rolloverConditions(params, record, observed, now);
  const met = Object.entries(conditions).filter(([, c]) => c.met);
  if (Object.keys(conditions).length && !met.length)
    return {
      status: 'condition_not_met',
      message: `Pending rollover of index [index=${index}]`,
      details: {
        conditions: Object.fromEntries(
          Object.entries(conditions).map(([k, c]) => [k, { condition: c.condition }]),
        ),
      },
    };

  // Another writer (a manual rollover) may have moved the alias since the snapshot: never roll twice.
  const writer = await cluster.writeIndexOf(alias);
  if (writer !== index)
    return {
      status: 'completed',
      rollover_alias: alias,
      message: `Index was already rolled over: alias ${alias} writes to ${writer ?? 'no index'} [index=${index}]`,
    };
  const res = await cluster.rollover(alias);
  if (params.copy_alias === true) {
    const others = Object.keys(observed.aliases).filter((a) => a !== alias);
    if (others.length) await cluster.addAliases(res.new_index, others);
  }
  return {
    status: 'completed',
    new_index: res.new_index,
    rollover_alias: alias,
    message: `Successfully rolled over index [index=${index}] to ${res.new_index} (${met.map(([k]) => k).join(', ') || 'no conditions'})`,
  };
}

/** Each configured minimum with whether it is met; any one met triggers the rollover. */
export function rolloverConditions(
  params: Record<string, unknown>,
  record: Pick<ManagedIndex, 'index_creation_date'>,
  observed: Pick<ObservedIndex, 'docs' | 'primary_bytes' | 'largest_primary_shard_bytes'>,
  now: number,
): Record<string, { condition: string | number; met: boolean }> {
  const out: Record<string, { condition: string | number; met: boolean }> = {};
  if (typeof params.min_index_age === 'string')
    out.min_index_age = {
      condition: params.min_index_age,
      met: now - record.index_creation_date >= parseDuration(params.min_index_age)!,
    };
  if (typeof params.min_doc_count === 'number')
    out.min_doc_count = { condition: params.min_doc_count, met: observed.docs >= params.min_doc_count };
  if (typeof params.min_size === 'string')
    out.min_size = { condition: params.min_size, met: observed.primary_bytes >= parseSize(params.min_size)! };
  if (typeof params.min_primary_shard_size === 'string')
    out.min_primary_shard_size = {
      condition: params.min_primary_shard_size,
      met: observed.largest_primary_shard_bytes >= parseSize(params.min_primary_shard_size)!,
    };
  return out;
}

async function allocation(params: Record<string, unknown>, ctx: ActionContext): Promise<ActionOutcome> {
  const { cluster, observed } = ctx;
  const index = observed.index;
  const settings: Record<string, string> = {};
  for (const kind of ['require', 'include', 'exclude'] as const)
    for (const [attr, value] of Object.entries((params[kind] as Record<string, string> | undefined) ?? {}))
      settings[`index.routing.allocation.${kind}.${attr}`] = value;
  await cluster.setAllocation(index, settings);
  const require = (params.require as Record<string, string> | undefined) ?? {};
  const described = Object.entries(settings)
    .map(([k, v]) => `${k.replace('index.routing.allocation.', '')}=${v}`)
    .join(', ');
  if (params.wait_for !== true || !Object.keys(require).length)
    return {
      status: 'completed',
      message: `Successfully updated allocation to ${described} [index=${index}]`,
    };

  const { total, elsewhere } = await cluster.shardPlacement(index, require);
  if (!elsewhere)
    return { status: 'completed', message: `Successfully allocated index to ${described} [index=${index}]` };
  return {
    status: 'condition_not_met',
    message:
      `Pending allocation of index [index=${index}]: ${elsewhere} of ${total} shards not yet on ` +
      `nodes with ${Object.entries(require)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')} (tag nodes with node.attr.<name>)`,
  };
}

/** Deletes the attached index, never one re-created under its name or still written to. */
async function deleteIndex(
  { cluster, snapshot, record, observed }: ActionContext,
  remove: (index: string) => Promise<void> = (index) => cluster.deleteIndex(index),
): Promise<ActionOutcome> {
  const index = observed.index;
  if (observed.uuid !== record.index_uuid)
    throw new ActionFailed(
      `${index} was re-created (uuid ${observed.uuid}, attached ${record.index_uuid}): not deleting it`,
    );
  const writing = Object.keys(observed.aliases).filter((a) => snapshot.writeIndexOf(a) === index);
  if (writing.length)
    throw new ActionFailed(
      `${index} is still the write index of ${writing.join(', ')}: deleting it would break writers; roll the alias over first`,
    );
  await remove(index);
  return { status: 'completed', deleted: true, message: `Deleted index [index=${index}]` };
}
