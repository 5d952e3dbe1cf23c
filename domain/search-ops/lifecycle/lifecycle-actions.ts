/**
 * The ISM actions plat's engine runs through core APIs (docs/search-lifecycle.md#lifecycle-engine):
 * rollover on the write alias, read_only / read_write (the write block), replica_count, allocation
 * (node-attribute filters, optionally waiting for the shards to move) and delete. Each answers
 * `completed` or `condition_not_met`; a failure throws an ActionFailed naming the cause.
 */
import { parseDuration, parseSize } from '../ism-units';
import type { OpenSearchClient } from '../opensearch-client';
import {
  writeIndexInAnswer,
  type Aliases,
  type ClusterSnapshot,
  type ObservedIndex,
} from './cluster-snapshot';
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
  client: OpenSearchClient;
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
};

const enc = encodeURIComponent;

export async function runAction(
  name: string,
  params: Record<string, unknown>,
  ctx: ActionContext,
): Promise<ActionOutcome> {
  const { client, observed } = ctx;
  const index = observed.index;
  switch (name) {
    case 'rollover':
      return rollover(params, ctx);
    case 'read_only':
    case 'read_write':
      await client.request('PUT', `/${enc(index)}/_settings`, { 'index.blocks.write': name === 'read_only' });
      return {
        status: 'completed',
        message: `Successfully set index to ${name.replace('_', '-')} [index=${index}]`,
      };
    case 'replica_count': {
      const replicas = params.number_of_replicas as number;
      await client.request('PUT', `/${enc(index)}/_settings`, { 'index.number_of_replicas': replicas });
      return {
        status: 'completed',
        message: `Successfully set number_of_replicas to ${replicas} [index=${index}]`,
      };
    }
    case 'allocation':
      return allocation(params, ctx);
    case 'delete':
      return deleteIndex(ctx);
    default:
      throw new ActionFailed(
        `${name} is not available on this cluster: it exists only on a managed domain (Amazon OpenSearch Service)`,
      );
  }
}

async function rollover(params: Record<string, unknown>, ctx: ActionContext): Promise<ActionOutcome> {
  const { client, snapshot, record, observed, now } = ctx;
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
  const writer = writeIndexInAnswer(await client.getOrUndefined<Aliases>(`/_alias/${enc(alias)}`), alias);
  if (writer !== index)
    return {
      status: 'completed',
      rollover_alias: alias,
      message: `Index was already rolled over: alias ${alias} writes to ${writer ?? 'no index'} [index=${index}]`,
    };
  const res = await client.request<{ rolled_over: boolean; new_index: string }>(
    'POST',
    `/${enc(alias)}/_rollover`,
  );
  if (params.copy_alias === true) {
    const others = Object.keys(observed.aliases).filter((a) => a !== alias);
    if (others.length)
      await client.request('POST', '/_aliases', {
        actions: others.map((a) => ({ add: { index: res.new_index, alias: a } })),
      });
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
  const { client, observed } = ctx;
  const index = observed.index;
  const settings: Record<string, string> = {};
  for (const kind of ['require', 'include', 'exclude'] as const)
    for (const [attr, value] of Object.entries((params[kind] as Record<string, string> | undefined) ?? {}))
      settings[`index.routing.allocation.${kind}.${attr}`] = value;
  await client.request('PUT', `/${enc(index)}/_settings`, settings);
  const require = (params.require as Record<string, string> | undefined) ?? {};
  const described = Object.entries(settings)
    .map(([k, v]) => `${k.replace('index.routing.allocation.', '')}=${v}`)
    .join(', ');
  if (params.wait_for !== true || !Object.keys(require).length)
    return {
      status: 'completed',
      message: `Successfully updated allocation to ${described} [index=${index}]`,
    };

  const [shards, attrs] = await Promise.all([
    client.request<{ node: string | null; state: string; prirep: string }[]>(
      'GET',
      `/_cat/shards/${enc(index)}?format=json&h=node,state,prirep`,
    ),
    client.request<{ node: string; attr: string; value: string }[]>(
      'GET',
      '/_cat/nodeattrs?format=json&h=node,attr,value',
    ),
  ]);
  const satisfies = (node: string | null) =>
    node !== null &&
    Object.entries(require).every(([attr, value]) =>
      attr === '_name'
        ? node === value
        : attrs.some((a) => a.node === node && a.attr === attr && a.value === value),
    );
  // An unassigned replica is placed by the new filter when it is assigned: it does not hold the move up.
  const elsewhere = shards.filter(
    (s) => !(s.state === 'UNASSIGNED' && s.prirep === 'r') && (s.state !== 'STARTED' || !satisfies(s.node)),
  );
  if (!elsewhere.length)
    return { status: 'completed', message: `Successfully allocated index to ${described} [index=${index}]` };
  return {
    status: 'condition_not_met',
    message:
      `Pending allocation of index [index=${index}]: ${elsewhere.length} of ${shards.length} shards not yet on ` +
      `nodes with ${Object.entries(require)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')} (tag nodes with node.attr.<name>)`,
  };
}

async function deleteIndex({ client, snapshot, record, observed }: ActionContext): Promise<ActionOutcome> {
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
  await client.request('DELETE', `/${enc(index)}`);
  return { status: 'completed', deleted: true, message: `Deleted index [index=${index}]` };
}
