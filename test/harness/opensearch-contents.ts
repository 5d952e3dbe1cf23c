/**
 * What a test can leave on an OpenSearch node, read as one comparable value: every index (hidden
 * and closed ones too) and alias, the rest of the cluster metadata (index, component and legacy
 * templates, data streams, ingest and search pipelines, stored scripts, ...), the persistent and
 * transient cluster settings, and the ISM policies when the plugin is there. A node's contents when
 * it had just started are the yardstick a wiped node is held to (test/harness/opensearch-pool.ts).
 */
import type { OpenSearchCall } from './opensearch-call';

/** The ISM plugin's component name in `_cat/plugins`. */
export const ISM_COMPONENT = 'opensearch-index-management';

/** A node's contents; two nodes hold the same when their `contentsDiff` is empty. */
export interface NodeContents {
  /** Every index name, sorted. */
  indices: string[];
  /** `alias → index`, sorted. */
  aliases: string[];
  /** The cluster metadata but indices, ids and bookkeeping, with empty entries dropped. */
  metadata: Record<string, unknown>;
  /** Cluster settings by flat name. */
  settings: { persistent: Record<string, unknown>; transient: Record<string, unknown> };
  /** ISM policy ids, sorted (none without the plugin). */
  ismPolicies: string[];
}

/** The cluster metadata as `_cluster/state/metadata` gives it. */
export type ClusterMetadata = Record<string, unknown> & {
  indices?: Record<
    string,
    { aliases?: string[]; settings?: { index?: { blocks?: Record<string, string> } } }
  >;
};

/** Metadata that a node changes by itself (ids, elections, tombstones of deleted indices). */
const BOOKKEEPING = [
  'cluster_uuid',
  'cluster_uuid_committed',
  'cluster_coordination',
  'index-graveyard',
  'indices',
];

/** The node's cluster metadata. */
export async function clusterMetadata(call: OpenSearchCall): Promise<ClusterMetadata> {
  const state = await call<{ metadata: ClusterMetadata }>('GET', '/_cluster/state/metadata');
  return state!.metadata;
}

/** The node's cluster settings by flat name. */
export async function clusterSettings(call: OpenSearchCall): Promise<NodeContents['settings']> {
  return (await call<NodeContents['settings']>('GET', '/_cluster/settings?flat_settings=true'))!;
}

/** True when the node runs the ISM plugin. */
export async function hasIsm(call: OpenSearchCall): Promise<boolean> {
  const plugins = await call<{ component: string }[]>('GET', '/_cat/plugins?format=json');
  return plugins!.some((p) => p.component === ISM_COMPONENT);
}

/** The node's ISM policy ids (none without the plugin). */
export async function ismPolicyIds(call: OpenSearchCall): Promise<string[]> {
  if (!(await hasIsm(call))) return [];
  const listed = await call<{ policies: { _id: string }[] }>(
    'GET',
    '/_plugins/_ism/policies?size=10000',
    undefined,
    {
      missingOk: true,
    },
  );
  return (listed?.policies ?? []).map((p) => p._id).sort();
}

/** What the node holds now. */
export async function nodeContents(call: OpenSearchCall): Promise<NodeContents> {
  const [metadata, settings, ismPolicies] = await Promise.all([
    clusterMetadata(call),
    clusterSettings(call),
    ismPolicyIds(call),
  ]);
  const indices = metadata.indices ?? {};
  const rest = Object.fromEntries(Object.entries(metadata).filter(([k]) => !BOOKKEEPING.includes(k)));
  return {
    indices: Object.keys(indices).sort(),
    aliases: Object.entries(indices)
      .flatMap(([index, m]) => (m.aliases ?? []).map((alias) => `${alias} → ${index}`))
      .sort(),
    metadata: (canonical(rest) ?? {}) as Record<string, unknown>,
    settings: { persistent: settings.persistent ?? {}, transient: settings.transient ?? {} },
    ismPolicies,
  };
}

/** How `now` differs from `fresh`, one line per part; empty when the node holds what it did fresh. */
export function contentsDiff(now: NodeContents, fresh: NodeContents): string[] {
  return (Object.keys(fresh) as (keyof NodeContents)[]).flatMap((part) => {
    const [a, b] = [JSON.stringify(canonical(now[part])), JSON.stringify(canonical(fresh[part]))];
    return a === b ? [] : [`${part}: ${a?.slice(0, 400) ?? 'none'} (fresh: ${b?.slice(0, 200) ?? 'none'})`];
  });
}

/** `value` with object keys sorted and empty objects and arrays dropped (undefined when nothing is left). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical).filter((v) => v !== undefined);
    return items.length ? items : undefined;
  }
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value;
}
