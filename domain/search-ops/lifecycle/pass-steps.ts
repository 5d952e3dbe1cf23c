/**
 * The steps of one lifecycle pass once the cluster and the store have been read
 * (docs/search-lifecycle.md#lifecycle-engine): claim new indices by `ism_template`, advance each managed
 * index by one step, attach the indices a rollover created, and hand the changed records to `write` as
 * the pass goes. No I/O of its own: the real pass (`lifecycle-pass.ts`) and the simulator
 * (docs/search-lifecycle.md#simulating-a-policy) give it their cluster and store.
 */
import type { ClusterSnapshot, ObservedIndex } from './cluster-snapshot';
import { advanceIndex, type IndexEvent, type StepResult } from './index-step';
import { templatePolicyFor } from './ism-template-match';
import type { LifecycleCluster } from './lifecycle-cluster';
import {
  MANAGED_INDEX,
  POLICIES_INDEX,
  type ManagedWrite,
  type StoredManagedIndex,
  type StoredPolicy,
} from './lifecycle-store';
import { attachedRecord, type ManagedIndex } from './managed-index';

export interface PassSummary {
  /** Indices under management after the pass. */
  managed: number;
  /** Indices an ism_template attached in this pass. */
  attached: string[];
  /** What happened: initialisations, completed actions, transitions, failures, deletions. */
  events: IndexEvent[];
  /** Indices waiting for a condition (rollover thresholds, transition ages, shard moves). */
  waiting: number;
  /** Indices whose current action failed, with the cause. */
  failed: { index: string; action?: string; cause: string; retries_left: boolean }[];
  /** Records changed meanwhile by someone else; the next pass takes them up. */
  write_conflicts: { index: string; reason: string }[];
  /** Actions left for the next pass because this one spent its budget (PassOptions.maxActions). */
  deferred?: number;
}

export interface PassOptions {
  /**
   * Cluster-changing actions one pass may run (default 500); the rest run at the next passes. Keeps
   * a pass short when many indices act at once (a policy attached to thousands of old indices).
   */
  maxActions?: number;
  /** Called as indices are stepped (the activity heartbeats with it). */
  onProgress?: (stepped: number, total: number) => void;
}

/** What a pass starts from: the cluster and the store as read at its start. */
export interface PassState {
  snapshot: ClusterSnapshot;
  managed: StoredManagedIndex[];
  /** The newest creation time an earlier pass has seen: only newer indices are claimed. */
  claimedUntil?: number;
  policies: StoredPolicy[];
}

/** Where a pass's effects go. */
export interface PassPorts {
  cluster: LifecycleCluster;
  /** Writes records (guarded by their versions); answers those refused, with the reason. */
  write(writes: ManagedWrite[]): Promise<{ index: string; reason: string }[]>;
}

/** How many indices run their step at once (most steps make no call at all). */
const CONCURRENCY = 8;

/** Changed records are written in batches of this size as the pass goes, not all at its end. */
const WRITE_BATCH = 200;

type Seq = { seq_no: number; primary_term: number };
type Item = { record: ManagedIndex; seq?: Seq };

/** Where a pass collects what its steps did: the summary, the writes to make, the indices created. */
interface PassEffects {
  summary: PassSummary;
  writes: ManagedWrite[];
  created: string[];
}

export async function runPassSteps(
  ports: PassPorts,
  state: PassState,
  /** The engine's clock (ms). */
  now: number,
  /** Engine clock minus wall clock: creation dates the cluster reports are moved onto the engine's clock. */
  clockOffset: number,
  opts: PassOptions & {
    /**
     * Steps only the records it accepts; the others are kept as they are. The simulator leaves out
     * the indices it has shown to have nothing to do at this pass.
     */
    only?: (index: string) => boolean;
  } = {},
): Promise<PassSummary> {
  const { cluster } = ports;
  const { snapshot, claimedUntil, policies } = state;
  const summary: PassSummary = {
    managed: 0,
    attached: [],
    events: [],
    waiting: 0,
    failed: [],
    write_conflicts: [],
  };
  const effects: PassEffects = { summary, writes: [], created: [] };
  const { writes } = effects;
  const items = recordsToStep(state.managed, opts.only, summary);
  const newest = claimNewIndices(state, clockOffset, items, summary);

  let budget = opts.maxActions ?? 500;
  const mayAct = () => budget-- > 0;
  let stepped = 0;
  // What is done is recorded as the pass goes: a pass cut short (a timeout) loses little.
  const flushIfFull = async () => {
    if (writes.length >= WRITE_BATCH) summary.write_conflicts.push(...(await ports.write(writes.splice(0))));
  };
  await eachLimited(items, CONCURRENCY, async ({ record, seq }) => {
    opts.onProgress?.(++stepped, items.length);
    await flushIfFull();
    const observed = snapshot.indices.get(record.index);
    if (record.auto_manage === false) {
      // A removed policy's marker: kept while its index exists.
      if (!observed && seq) writes.push({ op: 'remove', index: record.index, ...seq });
      return;
    }
    // Deleted or re-created by someone else: the record no longer describes an index.
    const result =
      !observed || observed.uuid !== record.index_uuid
        ? goneResult(record.index, observed !== undefined)
        : await advanceIndex(record, { cluster, snapshot, observed, now, mayAct });
    recordStep(effects, record, seq, result);
  });

  // Indices a rollover just made: ISM attaches them at creation, so does plat.
  for (const index of effects.created) {
    const attached = await attachNew(cluster, index, policies, clockOffset);
    if (attached) {
      writes.push({ op: 'create', record: attached });
      summary.attached.push(index);
      summary.managed++;
    }
  }
  if (newest !== claimedUntil) writes.push({ op: 'claimed_until', time: newest });
  summary.write_conflicts.push(...(await ports.write(writes)));
  if (budget < 0) summary.deferred = -budget;
  return summary;
}

/** The stored records the pass steps; those `only` leaves out are counted as they are. */
function recordsToStep(
  managed: StoredManagedIndex[],
  only: ((index: string) => boolean) | undefined,
  summary: PassSummary,
): Item[] {
  const items: Item[] = [];
  for (const m of managed) {
    if (only && !only(m.record.index)) {
      if (m.record.auto_manage !== false) summary.managed++;
      continue;
    }
    items.push({ record: m.record, seq: { seq_no: m.seq_no, primary_term: m.primary_term } });
  }
  return items;
}

/**
 * Adds to `items` the new indices an ism_template claims; answers the newest creation time seen, the
 * next pass's `claimedUntil`.
 */
function claimNewIndices(
  { snapshot, managed, claimedUntil, policies }: PassState,
  clockOffset: number,
  items: Item[],
  summary: PassSummary,
): number {
  let isManaged: Set<string> | undefined;
  let newest = claimedUntil ?? 0;
  for (const observed of snapshot.indices.values()) {
    newest = Math.max(newest, observed.creation_date);
    // Claimed once, when new: an index seen by an earlier pass keeps the choice made then.
    if (claimedUntil !== undefined && observed.creation_date <= claimedUntil) continue;
    isManaged ??= new Set(managed.map((m) => m.record.index));
    if (isManaged.has(observed.index) || !attachable(observed)) continue;
    const claim = templatePolicyFor(observed, policies);
    if (!claim) continue;
    items.push({ record: attachedRecord(observed, claim.policy, clockOffset) });
    summary.attached.push(observed.index);
  }
  return newest;
}

/** The step of a record whose index was deleted (or re-created, `recreated`) by someone else. */
function goneResult(index: string, recreated: boolean): StepResult {
  const message = recreated
    ? `${index} was re-created (new uuid); its lifecycle record is dropped`
    : `${index} no longer exists; its lifecycle record is dropped`;
  return { events: [{ index, kind: 'gone', message }] };
}

/** Counts one index's step in the summary and queues the write of its changed record. */
function recordStep(
  { summary, writes, created }: PassEffects,
  record: ManagedIndex,
  seq: Seq | undefined,
  result: StepResult,
): void {
  summary.events.push(...result.events);
  if (result.new_index) created.push(result.new_index);
  const next = result.record;
  if (!next) {
    if (seq) writes.push({ op: 'remove', index: record.index, ...seq });
    return;
  }
  summary.managed++;
  if (next.step?.step_status === 'condition_not_met') summary.waiting++;
  if (next.action?.failed)
    summary.failed.push({
      index: next.index,
      action: next.action.name,
      cause: next.info?.cause ?? next.info?.message ?? 'unknown',
      retries_left: retriesLeft(next),
    });
  if (!seq) writes.push({ op: 'create', record: next });
  else if (JSON.stringify(next) !== JSON.stringify(record))
    writes.push({ op: 'update', record: next, ...seq });
}

/** Not plat's own store, not hidden or system indices, not closed. */
function attachable(observed: ObservedIndex): boolean {
  return (
    !observed.hidden &&
    observed.status === 'open' &&
    observed.index !== POLICIES_INDEX &&
    observed.index !== MANAGED_INDEX
  );
}

async function attachNew(
  cluster: LifecycleCluster,
  index: string,
  policies: StoredPolicy[],
  clockOffset: number,
): Promise<ManagedIndex | undefined> {
  const identity = await cluster.identity(index);
  const claim = identity && templatePolicyFor(identity, policies);
  return claim ? attachedRecord(identity, claim.policy, clockOffset) : undefined;
}

function retriesLeft(rec: ManagedIndex): boolean {
  const state = rec.policy.states.find((s) => s.name === rec.state?.name);
  const spec = state?.actions[rec.action?.index ?? -1] as { retry?: { count: number } } | undefined;
  return (rec.action?.consumed_retries ?? 0) < (spec?.retry?.count ?? 3);
}

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
