/**
 * Indices, documents and bytes per tier (docs/search-lifecycle.md#simulating-a-policy): a tier is
 * the policy state an index is in (`unmanaged` for indices no policy claims), with where its shards
 * sit when an allocation or a managed-domain migration placed them. Also the run's summary.
 */
import type { ManagedIndex } from '../managed-index';
import type { SimulatedIndex } from './simulated-cluster';
import type { DayRow, SimulationResult, TierRow, TimelineEvent } from './simulation-result';

export const UNMANAGED = 'unmanaged';

/** The cluster at the end of day `day`, per tier in `order` (tiers without indices left out). */
export function dayRow(
  day: number,
  at: string,
  indices: Iterable<SimulatedIndex>,
  record: (index: string) => ManagedIndex | undefined,
  order: string[],
): DayRow {
  const tiers = new Map<string, TierRow & { places: Set<string> }>();
  const total = { indices: 0, docs: 0, primary_bytes: 0, total_bytes: 0 };
  for (const i of indices) {
    const rec = record(i.index);
    const tier =
      !rec || rec.auto_manage === false ? UNMANAGED : (rec.state?.name ?? rec.policy.default_state);
    if (!order.includes(tier)) order.push(tier);
    const row = tiers.get(tier) ?? {
      tier,
      indices: 0,
      docs: 0,
      primary_bytes: 0,
      total_bytes: 0,
      places: new Set<string>(),
    };
    const bytes = i.primary_bytes * (1 + i.replicas);
    row.indices++;
    row.docs += i.docs;
    row.primary_bytes += i.primary_bytes;
    row.total_bytes += bytes;
    for (const p of placement(i)) row.places.add(p);
    tiers.set(tier, row);
    total.indices++;
    total.docs += i.docs;
    total.primary_bytes += i.primary_bytes;
    total.total_bytes += bytes;
  }
  return {
    day,
    at,
    tiers: order.flatMap((name) => {
      const row = tiers.get(name);
      if (!row) return [];
      const { places, ...rest } = row;
      return [{ ...rest, ...(places.size ? { placement: [...places].sort() } : {}) }];
    }),
    total,
  };
}

/** Where an index's shards sit, as people name it: `temp=warm` nodes, UltraWarm, cold storage. */
function placement(i: SimulatedIndex): string[] {
  const out = Object.entries(i.allocation).map(
    ([k, v]) => `${k.replace('index.routing.allocation.', '').replace(/^require\./, '')}=${v}`,
  );
  if (i.storage === 'warm') out.push('UltraWarm');
  if (i.storage === 'cold') out.push('cold storage');
  return out;
}

/** Peak, first rollover and deletion, and the steady state once deletions begin. */
export function summarize(
  daily: DayRow[],
  timeline: TimelineEvent[],
  order: string[],
): SimulationResult['summary'] {
  const firstOf = (kind: TimelineEvent['kind']) => {
    const e = timeline.find((x) => x.kind === kind);
    return e && { day: e.day, time: e.time, index: e.index };
  };
  const first_deletion = firstOf('deleted');
  let peak = { day: 0, indices: 0, primary_bytes: 0, total_bytes: 0 };
  for (const r of daily)
    if (r.total.total_bytes > peak.total_bytes)
      peak = {
        day: r.day,
        indices: r.total.indices,
        primary_bytes: r.total.primary_bytes,
        total_bytes: r.total.total_bytes,
      };
  let steady_state: SimulationResult['summary']['steady_state'];
  const settled = first_deletion ? daily.filter((r) => r.day > first_deletion.day) : [];
  if (settled.length) {
    const avg = (f: (r: DayRow) => number) => settled.reduce((s, r) => s + f(r), 0) / settled.length;
    const tierOf = (r: DayRow, tier: string) => r.tiers.find((t) => t.tier === tier);
    steady_state = {
      from_day: settled[0].day,
      tiers: order
        .filter((tier) => settled.some((r) => tierOf(r, tier)))
        .map((tier) => ({
          tier,
          indices: Math.round(avg((r) => tierOf(r, tier)?.indices ?? 0) * 10) / 10,
          primary_bytes: Math.round(avg((r) => tierOf(r, tier)?.primary_bytes ?? 0)),
          total_bytes: Math.round(avg((r) => tierOf(r, tier)?.total_bytes ?? 0)),
        })),
      total_bytes: Math.round(avg((r) => r.total.total_bytes)),
    };
  }
  return {
    indices_created: timeline.filter((e) => e.kind === 'created').length,
    indices_deleted: timeline.filter((e) => e.kind === 'deleted').length,
    ...(firstOf('rolled_over') ? { first_rollover: firstOf('rolled_over') } : {}),
    ...(first_deletion ? { first_deletion } : {}),
    peak,
    ...(daily.length ? { last_day: daily[daily.length - 1] } : {}),
    ...(steady_state ? { steady_state } : {}),
    failures: timeline.filter((e) => e.kind === 'failed').length,
  };
}
