/**
 * What the lifecycle engine needs to know about every index, read in a fixed number of bulk calls
 * whatever the number of indices: `_cat/indices` (uuid, creation date, documents, primary store size),
 * index settings (write block, replicas, allocation filters), shard-level store stats (the largest
 * primary shard) and the aliases. No per-index round trips.
 */
import type { OpenSearchClient } from '../opensearch-client';

/** One index as the cluster reports it. */
export interface ObservedIndex {
  index: string;
  uuid: string;
  /** Wall-clock creation time (ms). */
  creation_date: number;
  status: string;
  health: string;
  /** Documents in the primaries. */
  docs: number;
  primary_bytes: number;
  largest_primary_shard_bytes: number;
  write_block: boolean;
  /** `index.hidden`: never attached through an ism_template. */
  hidden: boolean;
  replicas: number;
  /** `index.routing.allocation.require.*`. */
  allocation_require: Record<string, string>;
  /** The aliases on this index, with whether it is their write index. */
  aliases: Record<string, { is_write_index?: boolean }>;
}

export interface ClusterSnapshot {
  indices: Map<string, ObservedIndex>;
  /** Alias → its write index (explicit, or the only index when the alias has one). */
  writeIndexOf(alias: string): string | undefined;
}

type CatIndex = {
  index: string;
  uuid: string;
  status: string;
  health: string;
  'docs.count': string | null;
  'pri.store.size': string | null;
  'creation.date': string;
};
type IndexSettings = Record<
  string,
  {
    settings: {
      index: {
        number_of_replicas?: string;
        hidden?: string;
        blocks?: { write?: string; read_only?: string };
        routing?: { allocation?: { require?: Record<string, string> } };
      };
    };
  }
>;
type ShardStats = {
  indices?: Record<
    string,
    { shards: Record<string, { routing: { primary: boolean }; store: { size_in_bytes: number } }[]> }
  >;
};
export type Aliases = Record<string, { aliases: Record<string, { is_write_index?: boolean }> }>;

/** The three bulk reads the bench calls the floor: `_cat/indices`, settings and stats of all indices. */
export async function readIndexState(client: OpenSearchClient) {
  return Promise.all([
    client.request<CatIndex[]>(
      'GET',
      '/_cat/indices?format=json&bytes=b&expand_wildcards=all&h=index,uuid,status,health,docs.count,pri.store.size,creation.date',
    ),
    client.request<IndexSettings>(
      'GET',
      '/_all/_settings?expand_wildcards=all&filter_path=*.settings.index.number_of_replicas,*.settings.index.hidden,*.settings.index.blocks,*.settings.index.routing.allocation.require',
    ),
    client.request<ShardStats>(
      'GET',
      '/_stats/store?level=shards&expand_wildcards=all&filter_path=indices.*.shards.*.routing.primary,indices.*.shards.*.store.size_in_bytes',
    ),
  ]);
}

export async function clusterSnapshot(client: OpenSearchClient): Promise<ClusterSnapshot> {
  const [[cat, settings, stats], aliases] = await Promise.all([
    readIndexState(client),
    client.request<Aliases>('GET', '/_alias?expand_wildcards=all'),
  ]);
  const indices = new Map<string, ObservedIndex>();
  for (const row of cat) {
    const s = settings[row.index]?.settings.index ?? {};
    const shards = Object.values(stats.indices?.[row.index]?.shards ?? {}).flat();
    indices.set(row.index, {
      index: row.index,
      uuid: row.uuid,
      creation_date: Number(row['creation.date']),
      status: row.status,
      health: row.health,
      docs: Number(row['docs.count'] ?? 0),
      primary_bytes: Number(row['pri.store.size'] ?? 0),
      largest_primary_shard_bytes: Math.max(
        0,
        ...shards.filter((sh) => sh.routing.primary).map((sh) => sh.store.size_in_bytes),
      ),
      write_block: s.blocks?.write === 'true' || s.blocks?.read_only === 'true',
      hidden: s.hidden === 'true' || row.index.startsWith('.'),
      replicas: Number(s.number_of_replicas ?? 0),
      allocation_require: s.routing?.allocation?.require ?? {},
      aliases: aliases[row.index]?.aliases ?? {},
    });
  }
  const members = new Map<string, { index: string; is_write_index?: boolean }[]>();
  for (const [index, { aliases: own }] of Object.entries(aliases))
    for (const [alias, a] of Object.entries(own))
      members.set(alias, [...(members.get(alias) ?? []), { index, is_write_index: a.is_write_index }]);
  return {
    indices,
    writeIndexOf: (alias) => writeIndexAmong(members.get(alias) ?? []),
  };
}

/** The index an alias writes to: the one marked is_write_index, or its only index unless marked false. */
export function writeIndexAmong(members: { index: string; is_write_index?: boolean }[]): string | undefined {
  const explicit = members.find((m) => m.is_write_index === true);
  if (explicit) return explicit.index;
  return members.length === 1 && members[0].is_write_index !== false ? members[0].index : undefined;
}

/** The write index of `alias` in a `GET _alias/<alias>` answer. */
export function writeIndexInAnswer(answer: Aliases | undefined, alias: string): string | undefined {
  return writeIndexAmong(
    Object.entries(answer ?? {}).map(([index, a]) => ({
      index,
      is_write_index: a.aliases[alias]?.is_write_index,
    })),
  );
}

/** An index's identity: what a lifecycle record is attached to. */
export interface IndexIdentity {
  index: string;
  uuid: string;
  /** Wall-clock creation time (ms). */
  creation_date: number;
}

/**
 * The indices a name, list or pattern resolves to, by name, in one `_cat/indices` call (the cluster
 * resolves patterns; a missing concrete name is its 404).
 */
export async function indexIdentities(client: OpenSearchClient, pattern: string): Promise<IndexIdentity[]> {
  const rows = await client.request<{ index: string; uuid: string; 'creation.date': string }[]>(
    'GET',
    `/_cat/indices/${encodeURIComponent(pattern)}?format=json&h=index,uuid,creation.date&s=index`,
  );
  return rows.map((r) => ({ index: r.index, uuid: r.uuid, creation_date: Number(r['creation.date']) }));
}
