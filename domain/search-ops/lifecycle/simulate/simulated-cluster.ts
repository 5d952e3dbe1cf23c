/**
 * An OpenSearch cluster as the simulator models it (docs/search-lifecycle.md#simulating-a-policy):
 * indices with their creation time, documents, primary bytes, write block, replicas, allocation
 * filters and, on a managed domain, storage tier; aliases with their write index. It implements the
 * lifecycle port, so plat's engine acts on it as on a real cluster, and reads back as the snapshot a
 * pass starts from. Rollover names the next index as OpenSearch does (`-000002` after `-000001`).
 * Shards move at once: the model has nodes of every attribute an allocation asks for.
 */
import type { ClusterSnapshot, IndexIdentity, ObservedIndex } from '../cluster-snapshot';
import type { LifecycleCluster } from '../lifecycle-cluster';

/** One index of the model. */
export interface SimulatedIndex {
  index: string;
  uuid: string;
  /** Simulated time (ms from the start). */
  creation_date: number;
  docs: number;
  primary_bytes: number;
  shards: number;
  replicas: number;
  write_block: boolean;
  /** `index.routing.allocation.*` settings, by their full names. */
  allocation: Record<string, string>;
  /** On a managed domain, after warm_migration or cold_migration. */
  storage?: 'warm' | 'cold';
  aliases: Record<string, { is_write_index?: boolean }>;
}

/** A change the engine made, for the timeline. */
export type ClusterChange =
  { kind: 'rollover'; alias: string; from: string; to: string } | { kind: 'deleted'; index: string };

export class SimulatedCluster implements LifecycleCluster {
  readonly indices = new Map<string, SimulatedIndex>();
  /** Indices changed since `drainChanged()`; their next step must be worked out again. */
  private changed = new Set<string>();
  /** What the engine did since `drainLog()`. */
  private log: ClusterChange[] = [];
  private uuids = 0;
  /** Each index as a pass reads it; replaced, never changed in place. */
  private observed = new Map<string, ObservedIndex>();
  /** The snapshot handed out: `observed`, and the writers as they were. */
  private frozen?: ClusterSnapshot;
  /** While a pass runs, its snapshot stays as read: changes wait in `stale` until the pass ends. */
  private inPass = false;
  private readonly stale = new Set<string>();
  /** Alias → its indices, and the one marked `is_write_index: true`: a writer in O(1). */
  private readonly members = new Map<string, Set<string>>();
  private readonly marked = new Map<string, string>();
  /** Creation time of the indices the engine creates now (set by the simulator before each pass). */
  clock = 0;
  readonly managedStorage?: LifecycleCluster['managedStorage'];

  constructor(
    /** Shards and replicas of every new index (the index template's). */
    private readonly template: { shards: number; replicas: number },
    managedDomain: boolean,
  ) {
    if (managedDomain)
      this.managedStorage = {
        migrate: async (index, tier) => {
          this.get(index).storage = tier;
          this.touch(index);
        },
        coldDelete: (index) => this.deleteIndex(index),
      };
  }

  /** The first index with the write alias, as bootstrap creates it. */
  bootstrap(alias: string, at: number): SimulatedIndex {
    return this.create(`${alias}-000001`, at, alias);
  }

  /** Adds documents and bytes to the alias's write index. */
  ingest(alias: string, docs: number, bytes: number): void {
    const writer = this.writerOf(alias);
    if (!writer || (!docs && !bytes)) return;
    const index = this.get(writer);
    index.docs += docs;
    index.primary_bytes += bytes;
    this.refresh(writer);
  }

  /**
   * The snapshot a pass starts from: until `endPass()`, the pass's own actions do not show in it, as
   * they do not in a real pass's snapshot.
   */
  beginPass(): ClusterSnapshot {
    this.inPass = true;
    return this.snapshot();
  }

  /** The pass is over: its changes show in the next snapshot. */
  endPass(): void {
    this.inPass = false;
    for (const index of this.stale) this.refresh(index);
    this.stale.clear();
  }

  /** The cluster as it is now (between passes). */
  snapshot(): ClusterSnapshot {
    if (!this.frozen) {
      const writers = new Map([...this.members.keys()].map((alias) => [alias, this.writerOf(alias)]));
      this.frozen = { indices: this.observed, writeIndexOf: (alias) => writers.get(alias) };
    }
    return this.frozen;
  }

  /** Indices changed since the last call. */
  drainChanged(): Set<string> {
    const out = this.changed;
    this.changed = new Set();
    return out;
  }

  /** Rollovers and deletions since the last call. */
  drainLog(): ClusterChange[] {
    return this.log.splice(0);
  }

  /** The alias's write index: the one marked, or its only index unless marked false (OpenSearch's rule). */
  writerOf(alias: string): string | undefined {
    const marked = this.marked.get(alias);
    if (marked) return marked;
    const members = this.members.get(alias);
    if (members?.size !== 1) return undefined;
    const [only] = members;
    return this.indices.get(only)?.aliases[alias]?.is_write_index === false ? undefined : only;
  }

  // ---- the lifecycle port ------------------------------------------------------------------------

  async writeIndexOf(alias: string): Promise<string | undefined> {
    return this.writerOf(alias);
  }

  async rollover(alias: string): Promise<{ new_index: string }> {
    const from = this.writerOf(alias);
    if (!from) throw new Error(`rollover target [${alias}] does not point to a write index`);
    const name = nextName(from);
    if (this.indices.has(name)) throw new Error(`index [${name}] already exists`);
    this.setAlias(from, alias, { is_write_index: false });
    this.touch(from);
    this.create(name, this.clock, alias);
    this.log.push({ kind: 'rollover', alias, from, to: name });
    return { new_index: name };
  }

  async addAliases(index: string, aliases: string[]): Promise<void> {
    const i = this.get(index);
    for (const a of aliases) if (!i.aliases[a]) this.setAlias(index, a, {});
    this.touch(index);
  }

  async setWriteBlock(index: string, blocked: boolean): Promise<void> {
    this.get(index).write_block = blocked;
    this.touch(index);
  }

  async setReplicas(index: string, replicas: number): Promise<void> {
    this.get(index).replicas = replicas;
    this.touch(index);
  }

  async setAllocation(index: string, settings: Record<string, string>): Promise<void> {
    Object.assign(this.get(index).allocation, settings);
    this.touch(index);
  }

  async shardPlacement(index: string): Promise<{ total: number; elsewhere: number }> {
    const i = this.get(index);
    return { total: i.shards * (1 + i.replicas), elsewhere: 0 };
  }

  async deleteIndex(index: string): Promise<void> {
    const i = this.get(index);
    for (const alias of Object.keys(i.aliases)) {
      this.members.get(alias)?.delete(index);
      if (this.marked.get(alias) === index) this.marked.delete(alias);
    }
    this.indices.delete(index);
    this.touch(index);
    this.log.push({ kind: 'deleted', index });
  }

  async identity(index: string): Promise<IndexIdentity | undefined> {
    const i = this.indices.get(index);
    return i && { index: i.index, uuid: i.uuid, creation_date: i.creation_date };
  }

  // ---- internals ---------------------------------------------------------------------------------

  /** A new index, the write index of `alias`. */
  private create(name: string, at: number, alias: string): SimulatedIndex {
    const index: SimulatedIndex = {
      index: name,
      uuid: `sim-${++this.uuids}`,
      creation_date: at,
      docs: 0,
      primary_bytes: 0,
      shards: this.template.shards,
      replicas: this.template.replicas,
      write_block: false,
      allocation: {},
      aliases: {},
    };
    this.indices.set(name, index);
    this.setAlias(name, alias, { is_write_index: true });
    this.touch(name);
    return index;
  }

  private setAlias(index: string, alias: string, entry: { is_write_index?: boolean }): void {
    this.get(index).aliases[alias] = entry;
    const members = this.members.get(alias) ?? new Set<string>();
    members.add(index);
    this.members.set(alias, members);
    if (entry.is_write_index) this.marked.set(alias, index);
    else if (this.marked.get(alias) === index) this.marked.delete(alias);
  }

  private get(index: string): SimulatedIndex {
    const i = this.indices.get(index);
    // OpenSearch's own words for a missing index: the engine reports them as the action's cause.
    if (!i) throw new Error(`no such index [${index}]`);
    return i;
  }

  /** An index changed by the engine: its next step is worked out again. */
  private touch(index: string): void {
    this.refresh(index);
    this.changed.add(index);
  }

  /** The index as the next snapshot reads it. */
  private refresh(index: string): void {
    if (this.inPass) {
      this.stale.add(index);
      return;
    }
    const i = this.indices.get(index);
    if (i) this.observed.set(index, observedOf(i));
    else this.observed.delete(index);
    // The writers are read again (cheap: one per alias).
    this.frozen = undefined;
  }
}

/** An index as `clusterSnapshot` reports a real one. */
export function observedOf(i: SimulatedIndex): ObservedIndex {
  return {
    index: i.index,
    uuid: i.uuid,
    creation_date: i.creation_date,
    status: 'open',
    health: 'green',
    docs: i.docs,
    primary_bytes: i.primary_bytes,
    // Documents are routed evenly over the primaries.
    largest_primary_shard_bytes: Math.ceil(i.primary_bytes / i.shards),
    write_block: i.write_block,
    hidden: false,
    replicas: i.replicas,
    allocation_require: Object.fromEntries(
      Object.entries(i.allocation)
        .filter(([k]) => k.startsWith('index.routing.allocation.require.'))
        .map(([k, v]) => [k.slice('index.routing.allocation.require.'.length), v]),
    ),
    aliases: structuredClone(i.aliases),
  };
}

/** OpenSearch's rollover name: the number at the end plus one, six digits. */
export function nextName(index: string): string {
  const m = /^(.*-)(\d+)$/.exec(index);
  if (!m) throw new Error(`index name [${index}] does not match pattern '^.*-\\d+$'`);
  return `${m[1]}${String(Number(m[2]) + 1).padStart(6, '0')}`;
}
