/**
 * One pass of plat's lifecycle engine over every managed index (docs/search-lifecycle.md#lifecycle-engine):
 * read the cluster in bulk, attach new indices claimed by an `ism_template`, advance each managed
 * index by one step, and write back only the records that changed, in one bulk call guarded by
 * their versions. Temporal runs a pass on a Schedule; the state lives in the cluster.
 */
import type { OpenSearchClient } from '../opensearch-client';
import { clusterSnapshot, indexIdentities, type ObservedIndex } from './cluster-snapshot';
import { advanceIndex, type IndexEvent } from './index-step';
import { templatePolicyFor } from './ism-template-match';
import {
  MANAGED_INDEX,
  PlatLifecycleStore,
  POLICIES_INDEX,
  type ManagedWrite,
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

/** How many indices run their step at once (most steps make no call at all). */
const CONCURRENCY = 8;

export interface PassOptions {
  /**
   * Cluster-changing actions one pass may run (default 500); the rest run at the next passes. Keeps
   * a pass short when many indices act at once (a policy attached to thousands of old indices).
   */
  maxActions?: number;
  /** Called as indices are stepped (the activity heartbeats with it). */
  onProgress?: (stepped: number, total: number) => void;
}

/** Changed records are written in batches of this size as the pass goes, not all at its end. */
const WRITE_BATCH = 200;

export async function lifecyclePass(
  client: OpenSearchClient,
  /** The engine's clock: the workflow's time, so time-skipping tests age indices in seconds. */
  now: number,
  opts: PassOptions = {},
): Promise<PassSummary> {
  const store = new PlatLifecycleStore(client);
  const clockOffset = now - Date.now();
  const [snapshot, { managed, claimedUntil }, policies] = await Promise.all([
    clusterSnapshot(client),
    store.engineState(),
    store.listPolicies(),
  ]);
  const summary: PassSummary = {
    managed: 0,
    attached: [],
    events: [],
    waiting: 0,
    failed: [],
    write_conflicts: [],
  };
  const writes: ManagedWrite[] = [];

  type Item = { record: ManagedIndex; seq?: { seq_no: number; primary_term: number } };
  const items: Item[] = managed.map((m) => ({
    record: m.record,
    seq: { seq_no: m.seq_no, primary_term: m.primary_term },
  }));
  const isManaged = new Set(managed.map((m) => m.record.index));
  let newest = claimedUntil ?? 0;
  for (const observed of snapshot.indices.values()) {
    newest = Math.max(newest, observed.creation_date);
    // Claimed once, when new: an index seen by an earlier pass keeps the choice made then.
    if (claimedUntil !== undefined && observed.creation_date <= claimedUntil) continue;
    if (isManaged.has(observed.index) || !attachable(observed)) continue;
    const claim = templatePolicyFor(observed, policies);
    if (!claim) continue;
    items.push({ record: attachedRecord(observed, claim.policy, clockOffset) });
    summary.attached.push(observed.index);
  }

  const created: string[] = [];
  let budget = opts.maxActions ?? 500;
  const mayAct = () => budget-- > 0;
  let stepped = 0;
  // What is done is recorded as the pass goes: a pass cut short (a timeout) loses little.
  const flushIfFull = async () => {
    if (writes.length >= WRITE_BATCH) summary.write_conflicts.push(...(await store.write(writes.splice(0))));
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
    let result;
    if (!observed || observed.uuid !== record.index_uuid) {
      // Deleted or re-created by someone else: the record no longer describes an index.
      result = {
        events: [
          {
            index: record.index,
            kind: 'gone' as const,
            message: observed
              ? `${record.index} was re-created (new uuid); its lifecycle record is dropped`
              : `${record.index} no longer exists; its lifecycle record is dropped`,
          },
        ],
      };
    } else result = await advanceIndex(record, { client, snapshot, observed, now, mayAct });
    summary.events.push(...result.events);
    if (result.new_index) created.push(result.new_index);
    const next = 'record' in result ? result.record : undefined;
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
  });

  // Indices a rollover just made: ISM attaches them at creation, so does plat.
  for (const index of created) {
    const attached = await attachNew(client, index, policies, clockOffset);
    if (attached) {
      writes.push({ op: 'create', record: attached });
      summary.attached.push(index);
      summary.managed++;
    }
  }
  if (newest !== claimedUntil) writes.push({ op: 'claimed_until', time: newest });
  summary.write_conflicts.push(...(await store.write(writes)));
  if (budget < 0) summary.deferred = -budget;
  return summary;
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
  client: OpenSearchClient,
  index: string,
  policies: StoredPolicy[],
  clockOffset: number,
): Promise<ManagedIndex | undefined> {
  const [observed] = await indexIdentities(client, index);
  const claim = templatePolicyFor(observed, policies);
  return claim ? attachedRecord(observed, claim.policy, clockOffset) : undefined;
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
