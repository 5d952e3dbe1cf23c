/**
 * The next pass at which an index has something to do, found by asking the engine itself
 * (docs/search-lifecycle.md#simulating-a-policy). Between two passes where nothing happens, an
 * index's step depends only on time and on the documents its alias writes, and every condition of
 * the engine (ages, retry backoffs, timeouts, document counts, sizes) is a threshold that, once met,
 * stays met. So whether a pass would act is monotone in the pass number, and a probe of the engine's
 * own `advanceIndex` at any future pass (with the documents written by then, on a read-only view of
 * the cluster) tells on which side of the first active pass it lies. The policy's own thresholds
 * say where to look first; a bisection settles the exact pass. Passes where no index acts are never
 * run, so a year of 5-minute passes takes as long as its events.
 */
import { parseDuration, parseSize } from '../../ism-units';
import type { ClusterSnapshot, ObservedIndex } from '../cluster-snapshot';
import { advanceIndex } from '../index-step';
import type { LifecycleCluster } from '../lifecycle-cluster';
import type { ManagedIndex } from '../managed-index';
import type { IngestProfile } from './ingest-profile';

/** What a probe needs: the cluster as the last pass left it, and the documents still to come. */
export interface ProbeContext {
  snapshot: ClusterSnapshot;
  cluster: LifecycleCluster;
  profile: IngestProfile;
  /** Documents are written up to this time; later ones are projected. */
  ingestedUntil: number;
  /** The index the alias writes to, which the projected documents go to. */
  writer: string | undefined;
  shards: number;
  interval: number;
  lastPass: number;
  /** Counts every step the engine is asked for (probes included): the simulation's work. */
  countStep(): void;
}

/** Thrown by the read-only view on any change: a probe that would act is an active pass. */
class ProbeWouldAct extends Error {}

/** The first pass after `fromPass` at which the index acts or its record changes; Infinity if none. */
export async function nextActivePass(
  record: ManagedIndex,
  fromPass: number,
  ctx: ProbeContext,
): Promise<number> {
  const base = ctx.snapshot.indices.get(record.index);
  if (!base || base.uuid !== record.index_uuid) return fromPass + 1;
  const view = readOnly(ctx.cluster);
  const before = comparable(record);
  const active = async (pass: number): Promise<boolean> => {
    ctx.countStep();
    const now = pass * ctx.interval;
    const result = await advanceIndex(record, {
      cluster: view,
      snapshot: ctx.snapshot,
      observed: observedAt(base, now, ctx),
      now,
      mayAct: () => true,
    });
    return (
      result.events.length > 0 || !!result.new_index || !result.record || comparable(result.record) !== before
    );
  };

  let lo = fromPass + 1;
  if (lo > ctx.lastPass) return Infinity;
  if (await active(lo)) return lo;
  const candidates = [
    ...new Set(
      hintTimes(record, base, ctx)
        .map((t) => Math.ceil(t / ctx.interval))
        .flatMap((p) => [p, p + 1]),
    ),
    ctx.lastPass,
  ]
    .filter((p) => p > lo && p <= ctx.lastPass)
    .sort((a, b) => a - b);
  for (const c of candidates) {
    if (c <= lo) continue;
    if (!(await active(c))) {
      lo = c;
      continue;
    }
    // The first active pass lies in (lo, c]: usually c itself, when the hint was exact.
    if (c - 1 === lo || !(await active(c - 1))) return c;
    let hi = c - 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await active(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }
  return Infinity;
}

/** The index at `now`: the write index with the documents and bytes written by then. */
function observedAt(base: ObservedIndex, now: number, ctx: ProbeContext): ObservedIndex {
  if (base.index !== ctx.writer || now <= ctx.ingestedUntil) return base;
  const docs = ctx.profile.docsAt(now) - ctx.profile.docsAt(ctx.ingestedUntil);
  const bytes = ctx.profile.bytesAt(now) - ctx.profile.bytesAt(ctx.ingestedUntil);
  const primary = base.primary_bytes + bytes;
  return {
    ...base,
    docs: base.docs + docs,
    primary_bytes: primary,
    largest_primary_shard_bytes: Math.ceil(primary / ctx.shards),
  };
}

/**
 * Times at which a threshold of the index's current state may be met: ages from creation or
 * rollover, timeouts, retry backoffs, and when the write index reaches a document count or size.
 * Only where to look first: a missing time costs probes, never correctness.
 */
function hintTimes(rec: ManagedIndex, base: ObservedIndex, ctx: ProbeContext): number[] {
  const state = rec.policy.states.find((s) => s.name === (rec.state?.name ?? rec.policy.default_state));
  if (!state) return [];
  const out: number[] = [];
  const ms = (d: unknown) => (typeof d === 'string' ? parseDuration(d) : undefined);
  const isWriter = base.index === ctx.writer;
  const end = ctx.lastPass * ctx.interval;
  const reach = (measure: 'docs' | 'bytes', target: number, have: number) => {
    if (!isWriter || have >= target) return;
    const profiled = measure === 'docs' ? ctx.profile.docsAt : ctx.profile.bytesAt;
    const at = ctx.profile.reaches(
      measure,
      target - have + profiled.call(ctx.profile, ctx.ingestedUntil),
      ctx.ingestedUntil,
      end,
    );
    if (at !== undefined) out.push(at);
  };
  const sizeOf = (s: unknown) => (typeof s === 'string' ? parseSize(s) : undefined);
  const thresholds = (c: Record<string, unknown>) => {
    const age = ms(c.min_index_age);
    if (age !== undefined) out.push(rec.index_creation_date + age);
    const sinceRollover = ms(c.min_rollover_age);
    if (sinceRollover !== undefined && rec.rolled_over_time !== undefined)
      out.push(rec.rolled_over_time + sinceRollover);
    if (typeof c.min_doc_count === 'number') reach('docs', c.min_doc_count, base.docs);
    const size = sizeOf(c.min_size);
    if (size !== undefined) reach('bytes', size, base.primary_bytes);
    const shard = sizeOf(c.min_primary_shard_size);
    if (shard !== undefined) reach('bytes', (shard - 1) * ctx.shards + 1, base.primary_bytes);
  };
  for (const action of state.actions as Record<string, unknown>[]) {
    if (action.rollover) thresholds(action.rollover as Record<string, unknown>);
    const timeout = ms(action.timeout);
    if (timeout !== undefined && rec.action) out.push(rec.action.start_time + timeout + 1);
    if (rec.action?.failed) {
      const retry = (action.retry ?? {}) as { count?: number; delay?: string };
      const delay = ms(retry.delay ?? '1m') ?? 60_000;
      for (let n = 1; n <= Math.min(retry.count ?? 3, 20); n++)
        out.push(...[delay, delay * n, delay * 2 ** (n - 1)].map((w) => rec.action!.last_retry_time + w));
    }
  }
  for (const t of state.transitions) thresholds((t.conditions ?? {}) as Record<string, unknown>);
  return out;
}

/** A record as compared between passes: without its policy, which a step never changes. */
function comparable(rec: ManagedIndex): string {
  return JSON.stringify({ ...rec, policy: undefined });
}

/** The cluster for probes: reads pass through, any change throws. */
function readOnly(cluster: LifecycleCluster): LifecycleCluster {
  const refuse = async (): Promise<never> => {
    throw new ProbeWouldAct('a probe acts');
  };
  return {
    writeIndexOf: (alias) => cluster.writeIndexOf(alias),
    shardPlacement: (index, require) => cluster.shardPlacement(index, require),
    identity: (index) => cluster.identity(index),
    rollover: refuse,
    addAliases: refuse,
    setWriteBlock: refuse,
    setReplicas: refuse,
    setAllocation: refuse,
    deleteIndex: refuse,
    ...(cluster.managedStorage ? { managedStorage: { migrate: refuse, coldDelete: refuse } } : {}),
  };
}
