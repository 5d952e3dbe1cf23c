/**
 * A lifecycle policy's effect over simulated months, in seconds (docs/search-lifecycle.md#simulating-a-policy):
 * plat's lifecycle engine (`runPassSteps`, `advanceIndex`, `runAction`: the code that runs the policy
 * on a cluster) on an in-memory cluster and a simulated clock. The rolling index is bootstrapped and
 * attached as `setUpRollingIndex` does; the profile's documents go to the alias's write index between
 * passes; passes come every `pass_interval`, and those where no index has anything to do are skipped,
 * which changes nothing (next-active-pass.ts says why).
 */
import type { IsmPolicy } from '../../ism-policy';
import { parseDuration } from '../../ism-units';
import { templatePolicyFor } from '../ism-template-match';
import { attachedRecord } from '../managed-index';
import { runPassSteps } from '../pass-steps';
import { DAY_MS, IngestProfile } from './ingest-profile';
import { nextActivePass, type ProbeContext } from './next-active-pass';
import { PassQueue } from './pass-queue';
import { SimulatedCluster } from './simulated-cluster';
import { SimulatedStore } from './simulated-store';
import type { IngestProfileInput } from './simulation-input';
import type { DayRow, SimulationResult, TimelineEvent } from './simulation-result';
import { dayRow, summarize } from './tier-rows';
import { createdEvent, passEvents, type EventTime } from './timeline';

/** A simulation with its policy resolved and validated. */
export interface SimulationOptions {
  policy_id: string;
  policy: IsmPolicy;
  days: number;
  profile: IngestProfileInput;
  pass_interval: string;
  managed_domain: boolean;
  alias: string;
  shards: number;
  replicas: number;
  /** The simulated start (epoch ms), for the timeline's dates; default today, 00:00 UTC. */
  start?: number;
  /** Run every pass for every index, skipping nothing: the reference the skipping is tested against. */
  exhaustive?: boolean;
}

/**
 * How long after a pass's clock reading the indices it creates are created. A real pass reads its
 * clock, then works: an index it rolls over to is a moment younger than the pass time, so a
 * `min_index_age` that is a whole number of intervals is met one pass later, as on a real cluster.
 */
export const CREATION_LAG_MS = 1000;

/**
 * Beyond these the simulation stops, saying so: a policy that keeps an index per pass for years, or
 * acts at every pass. (A cluster holds 1,000 shards per node by default: 5,000 indices is far past it.)
 */
export const LIMITS = { indices: 5_000, events: 50_000, steps: 300_000 };

export async function simulatePolicy(o: SimulationOptions): Promise<SimulationResult> {
  const began = Date.now();
  const sim = newSimulation(o);
  const first = await bootstrap(sim);
  const notes: string[] = [];
  if (!templatePolicyFor({ index: `${o.alias}-000002`, creation_date: 1 }, sim.store.policies))
    notes.push(
      `No ism_template of ${o.policy_id} claims ${o.alias}-*: the first index is attached by hand, ` +
        'the indices rollover creates stay unmanaged.',
    );

  const queue = new PassQueue();
  /** Indices whose next active pass must be worked out (again). */
  const pending = new Set<string>([first]);
  let pass = 0;
  let mustRun = 1;
  let truncated: SimulationResult['truncated'];
  for (;;) {
    if (pending.size) await schedule(sim, queue, pending, pass);
    const next = Math.min(mustRun, queue.next());
    if (next > sim.lastPass) break;
    mustRun = await runPass(sim, queue, pending, next);
    pass = next;
    const t = next * sim.interval;
    rowsUntil(sim, t, true);
    const reason = limitReached(sim);
    if (reason) {
      truncated = {
        day: Math.floor(t / DAY_MS),
        reason: `stopped on day ${Math.floor(t / DAY_MS)}: ${reason}`,
      };
      break;
    }
  }
  if (!truncated) rowsUntil(sim, o.days * DAY_MS, true);
  return resultOf(sim, notes, truncated, began);
}

/** A running simulation: its options, cluster, store and clock, and what it recorded so far. */
type Simulation = ReturnType<typeof newSimulation>;

function newSimulation(o: SimulationOptions) {
  const interval = parseDuration(o.pass_interval)!;
  return {
    o,
    interval,
    lastPass: Math.floor((o.days * DAY_MS) / interval),
    start: o.start ?? Math.floor(Date.now() / DAY_MS) * DAY_MS,
    profile: new IngestProfile(o.profile, o.days),
    cluster: new SimulatedCluster({ shards: o.shards, replicas: o.replicas }, o.managed_domain),
    store: new SimulatedStore(o.policy_id, o.policy, 0),
    /** The policy's states in order; dayRow adds `unmanaged` when an index is. */
    tiers: o.policy.states.map((s) => s.name),
    timeline: [] as TimelineEvent[],
    daily: [] as DayRow[],
    steps: 0,
    passesRun: 0,
    /** The profile's documents are written up to this time. */
    ingestedUntil: 0,
    /** The first day without its row yet. */
    nextDay: 1,
  };
}

/** The rolling index as bootstrap leaves it: the first index, attached to the policy at once. */
async function bootstrap({ o, cluster, store, timeline, start }: Simulation): Promise<string> {
  const first = cluster.bootstrap(o.alias, 0);
  await store.write([{ op: 'create', record: attachedRecord(first, store.policies[0], 0) }]);
  timeline.push(
    createdEvent({ t: 0, start, pass: 0 }, first.index, true, o.policy_id, o.policy.default_state),
  );
  return first.index;
}

/** Writes the profile's documents up to `t` to the alias. */
function ingestTo(sim: Simulation, t: number): void {
  if (t <= sim.ingestedUntil) return;
  const { profile } = sim;
  const docs = profile.docsAt(t) - profile.docsAt(sim.ingestedUntil);
  const bytes = profile.bytesAt(t) - profile.bytesAt(sim.ingestedUntil);
  sim.cluster.ingest(sim.o.alias, docs, bytes);
  sim.ingestedUntil = t;
}

/** The rows of the days ending before `t` (or at it, when `atT`). */
function rowsUntil(sim: Simulation, t: number, atT: boolean): void {
  while (sim.nextDay <= sim.o.days && (sim.nextDay * DAY_MS < t || (atT && sim.nextDay * DAY_MS === t))) {
    ingestTo(sim, sim.nextDay * DAY_MS);
    const at = new Date(sim.start + sim.nextDay * DAY_MS).toISOString();
    sim.daily.push(dayRow(sim.nextDay, at, sim.cluster.indices.values(), (i) => sim.store.get(i), sim.tiers));
    sim.nextDay++;
  }
}

/** Queues the `pending` indices at their next active pass after `pass` (every pass, when exhaustive). */
async function schedule(
  sim: Simulation,
  queue: PassQueue,
  pending: Set<string>,
  pass: number,
): Promise<void> {
  const { o, cluster, store } = sim;
  const probe: ProbeContext = {
    snapshot: cluster.snapshot(),
    cluster,
    profile: sim.profile,
    ingestedUntil: sim.ingestedUntil,
    writer: cluster.writerOf(o.alias),
    shards: o.shards,
    interval: sim.interval,
    lastPass: sim.lastPass,
    countStep: () => sim.steps++,
  };
  for (const index of pending) {
    const record = store.get(index);
    if (!record || record.auto_manage === false) queue.delete(index);
    else queue.set(index, o.exhaustive ? pass + 1 : await nextActivePass(record, pass, probe));
  }
  pending.clear();
}

/**
 * Runs pass `next` for the indices due at it, adds its events to the timeline and what it touched to
 * `pending`; answers the pass that must run next whatever the queue says (Infinity: none).
 */
async function runPass(
  sim: Simulation,
  queue: PassQueue,
  pending: Set<string>,
  next: number,
): Promise<number> {
  const { o, cluster, store } = sim;
  const t = next * sim.interval;
  rowsUntil(sim, t, false);
  ingestTo(sim, t);
  cluster.clock = t + CREATION_LAG_MS;
  const dueNow = [...queue.at(next)];
  const stepping = new Set(dueNow);
  const summary = await runPassSteps(
    { cluster, write: (writes) => store.write(writes) },
    {
      snapshot: cluster.beginPass(),
      managed: store.managed(),
      claimedUntil: store.claimedUntil,
      policies: store.policies,
    },
    t,
    0,
    { only: (index) => stepping.has(index) },
  );
  cluster.endPass();
  // A long run shares the process: let other work (a gateway's requests) in now and then.
  if (++sim.passesRun % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
  sim.steps += dueNow.length;
  const when: EventTime = { t, start: sim.start, pass: next };
  const changes = cluster.drainLog();
  sim.timeline.push(
    ...passEvents(
      when,
      summary.events,
      changes,
      summary.attached,
      (i) => store.get(i),
      o.policy_id,
      o.policy.default_state,
    ),
  );
  // What was stepped, and what changed, is worked out again from here.
  for (const index of [...dueNow, ...cluster.drainChanged(), ...store.drainWritten()]) pending.add(index);
  if (o.exhaustive) for (const { record } of store.managed()) pending.add(record.index);
  // An index created and not claimed at once is looked at by the next pass's claim, as for real.
  return changes.some((c) => c.kind === 'rollover' && !summary.attached.includes(c.to)) ? next + 1 : Infinity;
}

/** Why the simulation must stop (LIMITS), if it must. */
function limitReached({ cluster, timeline, steps }: Simulation): string | undefined {
  return cluster.indices.size > LIMITS.indices
    ? `more than ${LIMITS.indices.toLocaleString('en-US')} indices at once`
    : timeline.length > LIMITS.events
      ? `more than ${LIMITS.events.toLocaleString('en-US')} events`
      : steps > LIMITS.steps
        ? `more than ${LIMITS.steps.toLocaleString('en-US')} engine steps (the policy acts at almost every pass)`
        : undefined;
}

function resultOf(
  { o, lastPass, passesRun, profile, tiers, timeline, daily, steps, start }: Simulation,
  /** Notes from the set-up, after the general ones. */
  setUpNotes: string[],
  truncated: SimulationResult['truncated'],
  began: number,
): SimulationResult {
  const notes = [
    `The engine passes every ${o.pass_interval} (${lastPass.toLocaleString('en-US')} passes; ` +
      `${passesRun.toLocaleString('en-US')} had something to do). plat's schedule runs every ` +
      'PLAT_LIFECYCLE_INTERVAL (default 5m), ISM every 5 minutes: each event happens at the first pass after its condition is met.',
    'Sizes are the profile’s bytes, spread evenly over the primary shards; a real index’s store size also depends on its mappings, compression and merges.',
    'Shards move at once: the simulated cluster has nodes of every attribute an allocation asks for.',
    ...setUpNotes,
  ];
  if (o.managed_domain)
    notes.push(
      'warm_migration and cold_migration move an index to UltraWarm or cold storage at once; a real migration takes a while.',
    );
  if (profile.capped) notes.push('The daily volume stopped growing at 1e12 documents or 1e15 bytes a day.');

  return {
    policy_id: o.policy_id,
    alias: o.alias,
    days: o.days,
    start: new Date(start).toISOString(),
    pass_interval: o.pass_interval,
    managed_domain: o.managed_domain,
    shards: o.shards,
    replicas: o.replicas,
    profile: {
      docs_per_day: o.profile.docs_per_day,
      ...(o.profile.bytes_per_day !== undefined ? { bytes_per_day: o.profile.bytes_per_day } : {}),
      ...(o.profile.doc_bytes !== undefined ? { doc_bytes: o.profile.doc_bytes } : {}),
      growth_percent: o.profile.growth_percent,
    },
    notes,
    tiers,
    timeline,
    daily,
    summary: summarize(daily, timeline, tiers),
    ...(truncated ? { truncated } : {}),
    stats: { passes: lastPass, passes_run: passesRun, engine_steps: steps, elapsed_ms: Date.now() - began },
  };
}
