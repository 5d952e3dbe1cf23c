/**
 * What the lifecycle actions do to a cluster, as a port (docs/search-lifecycle.md#simulating-a-policy):
 * the real cluster through its REST API (`opensearch-lifecycle-cluster.ts`), or the simulator's
 * in-memory model (`simulate/simulated-cluster.ts`). The actions' logic (rollover conditions, alias
 * resolution, "already rolled over", delete guards) is written once, against this interface, so a
 * simulation runs the very code that runs the policy.
 */
import type { IndexIdentity } from './cluster-snapshot';

export interface LifecycleCluster {
  /** The alias's write index now, read afresh: a manual rollover may have moved it since the snapshot. */
  writeIndexOf(alias: string): Promise<string | undefined>;
  /** Rolls the alias over (`POST /<alias>/_rollover`): the new write index. */
  rollover(alias: string): Promise<{ new_index: string }>;
  /** Adds the aliases to the index (`copy_alias`). */
  addAliases(index: string, aliases: string[]): Promise<void>;
  /** `index.blocks.write`. */
  setWriteBlock(index: string, blocked: boolean): Promise<void>;
  /** `index.number_of_replicas`. */
  setReplicas(index: string, replicas: number): Promise<void>;
  /** `index.routing.allocation.{require,include,exclude}.<attribute>` settings, by their full names. */
  setAllocation(index: string, settings: Record<string, string>): Promise<void>;
  /**
   * The index's shards, and how many of them are not yet started on a node whose attributes satisfy
   * `require` (`_name` is the node's name). Unassigned replicas are placed by the filter when they are
   * assigned, so they do not count as elsewhere.
   */
  shardPlacement(
    index: string,
    require: Record<string, string>,
  ): Promise<{ total: number; elsewhere: number }>;
  deleteIndex(index: string): Promise<void>;
  /** Name, uuid and creation time of an index (one a rollover just created, to attach it). */
  identity(index: string): Promise<IndexIdentity | undefined>;
  /**
   * A managed domain's storage tiers (UltraWarm and cold storage), behind `warm_migration`,
   * `cold_migration` and `cold_delete`. Absent on a self-managed cluster, where those actions fail.
   */
  readonly managedStorage?: {
    migrate(index: string, tier: 'warm' | 'cold'): Promise<void>;
    coldDelete(index: string): Promise<void>;
  };
}
