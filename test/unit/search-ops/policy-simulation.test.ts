/**
 * The policy simulator (docs/search-lifecycle.md#simulating-a-policy): plat's engine on a model
 * cluster and a simulated clock. Rollover days at each condition, transitions and deletion, tiers per
 * day with their placement, managed-domain actions, the passes it skips changing nothing, its speed,
 * and its refusals.
 */
import { PolicyInvalid } from '../../../domain/search-ops/lifecycle/apply-policy';
import { runAction } from '../../../domain/search-ops/lifecycle/lifecycle-actions';
import { SimulatedCluster } from '../../../domain/search-ops/lifecycle/simulate/simulated-cluster';
import {
  runSimulation,
  SimulationPolicyNotFound,
} from '../../../domain/search-ops/lifecycle/simulate/run-simulation';
import { simulatePolicy } from '../../../domain/search-ops/lifecycle/simulate/simulate-policy';
import { simulationRequestSchema } from '../../../domain/search-ops/lifecycle/simulate/simulation-input';
import {
  aliasFromTemplate,
  builtinPolicy,
  simulationPolicy,
} from '../../../domain/search-ops/lifecycle/simulate/simulation-policy';
import type {
  SimulationResult,
  TimelineEvent,
} from '../../../domain/search-ops/lifecycle/simulate/simulation-result';

const START = Date.UTC(2026, 0, 1);
const GB = 1024 ** 3;

/** `day HH:MM index kind[ detail]`, the timeline as a reader scans it. */
const line = (e: TimelineEvent) =>
  `${e.day} ${e.time} ${e.index} ${e.kind}${e.to ? ` ${e.from}→${e.to}` : ''}${e.action && e.kind !== 'rolled_over' ? ` ${e.action}` : ''}${e.new_index ? ` ${e.new_index}` : ''}`;
const lines = (r: SimulationResult, kinds?: TimelineEvent['kind'][]) =>
  r.timeline.filter((e) => !kinds || kinds.includes(e.kind)).map(line);
const tierOf = (r: SimulationResult, day: number, tier: string) =>
  r.daily.find((d) => d.day === day)?.tiers.find((t) => t.tier === tier);

/** hot (rollover on `rollover`) → delete at `deleteAfter`. */
const hotThenDelete = (rollover: Record<string, unknown>, deleteAfter: string) => ({
  default_state: 'hot',
  states: [
    {
      name: 'hot',
      actions: [{ rollover }],
      transitions: [{ state_name: 'delete', conditions: { min_index_age: deleteAfter } }],
    },
    { name: 'delete', actions: [{ delete: {} }] },
  ],
  ism_template: { index_patterns: ['logs-*'], priority: 1 },
});

const simulate = (
  body: unknown,
  o: Partial<Parameters<typeof simulatePolicy>[0]> & { managedDomain?: boolean } = {},
) =>
  simulatePolicy({
    policy_id: 'test',
    policy: simulationPolicy('test', body, o.managedDomain ?? false),
    days: 5,
    profile: { docs_per_day: 2400, doc_bytes: 100, growth_percent: 0 },
    pass_interval: '1h',
    managed_domain: o.managedDomain ?? false,
    alias: 'logs',
    shards: 1,
    replicas: 1,
    start: START,
    ...o,
  });

describe('policy simulator', () => {
  it('rolls over when min_doc_count is reached, at the first pass after, and deletes at min_index_age', async () => {
    // 100 documents an hour: 1,000 after ten hours.
    const r = await simulate(hotThenDelete({ min_doc_count: 1000 }, '2d'), { days: 3 });
    expect(lines(r, ['rolled_over', 'transitioned', 'deleted']).slice(0, 6)).toEqual([
      '0 10:00 logs-000001 rolled_over logs-000002',
      '0 20:00 logs-000002 rolled_over logs-000003',
      '1 06:00 logs-000003 rolled_over logs-000004',
      '1 16:00 logs-000004 rolled_over logs-000005',
      '2 00:00 logs-000001 transitioned hot→delete',
      '2 00:00 logs-000001 deleted delete',
    ]);
    expect(r.timeline[0]).toMatchObject({ index: 'logs-000001', kind: 'created', managed: true, pass: 0 });
    expect(r.timeline[2]).toMatchObject({
      index: 'logs-000002',
      kind: 'created',
      managed: true,
      at: '2026-01-01T10:00:00.000Z',
    });
    // At the end of day 1: two indices of 1,000 documents (100 bytes each), and the write index.
    expect(tierOf(r, 1, 'hot')).toMatchObject({
      indices: 3,
      docs: 2400,
      primary_bytes: 240_000,
      total_bytes: 480_000,
    });
    expect(r.summary).toMatchObject({
      first_rollover: { day: 0, time: '10:00', index: 'logs-000001' },
      first_deletion: { day: 2, time: '00:00', index: 'logs-000001' },
    });
  });

  it('rolls over at min_index_age one pass late after the first index, as a real pass creates indices after its clock reading', async () => {
    const r = await simulate(hotThenDelete({ min_index_age: '1d' }, '30d'), { days: 4 });
    expect(lines(r, ['rolled_over'])).toEqual([
      '1 00:00 logs-000001 rolled_over logs-000002',
      '2 01:00 logs-000002 rolled_over logs-000003',
      '3 02:00 logs-000003 rolled_over logs-000004',
    ]);
    // Daily passes: the 1-day-old index is a second short of a day at the next pass, so it waits two.
    const daily = await simulate(hotThenDelete({ min_index_age: '1d' }, '30d'), {
      days: 6,
      pass_interval: '1d',
    });
    expect(lines(daily, ['rolled_over'])).toEqual([
      '1 00:00 logs-000001 rolled_over logs-000002',
      '3 00:00 logs-000002 rolled_over logs-000003',
      '5 00:00 logs-000003 rolled_over logs-000004',
    ]);
  });

  it('rolls over at min_size on the primary store, and at min_primary_shard_size on the largest primary shard', async () => {
    const profile = { docs_per_day: 24_000, bytes_per_day: 24 * GB, growth_percent: 0 };
    const size = await simulate(hotThenDelete({ min_size: '10gb' }, '30d'), { days: 1, profile });
    expect(lines(size, ['rolled_over'])).toEqual([
      '0 10:00 logs-000001 rolled_over logs-000002',
      '0 20:00 logs-000002 rolled_over logs-000003',
    ]);
    // Two primaries share the bytes: 10gb on the largest shard is 20gb in all.
    const shard = await simulate(hotThenDelete({ min_primary_shard_size: '10gb' }, '30d'), {
      days: 1,
      profile,
      shards: 2,
    });
    expect(lines(shard, ['rolled_over'])).toEqual(['0 20:00 logs-000001 rolled_over logs-000002']);
  });

  it('counts indices, documents and bytes per tier per day, with the placement an allocation sets', async () => {
    const r = await runSimulation(
      {
        policy_id: 'selfManagedWarmPolicy',
        days: 100,
        profile: { docs_per_day: 1_000_000, doc_bytes: 1000, growth_percent: 0 },
        pass_interval: '1h',
      },
      { start: START },
    );
    expect(r.alias).toBe('logs');
    expect(r.tiers).toEqual(['hot', 'warm', 'delete']);
    // Rolled over every 25 hours (1d at hourly passes); warm at 7d: read-only, on temp=warm, no replicas.
    expect(lines(r).slice(0, 3)).toEqual([
      '0 00:00 logs-000001 created',
      '1 00:00 logs-000001 rolled_over logs-000002',
      '1 00:00 logs-000002 created',
    ]);
    expect(lines(r).filter((l) => l.includes('logs-000001 '))).toEqual([
      '0 00:00 logs-000001 created',
      '1 00:00 logs-000001 rolled_over logs-000002',
      '7 00:00 logs-000001 transitioned hot→warm',
      '7 00:00 logs-000001 action_completed read_only',
      '7 01:00 logs-000001 action_completed allocation',
      '7 02:00 logs-000001 action_completed replica_count',
      '90 00:00 logs-000001 transitioned warm→delete',
      '90 00:00 logs-000001 deleted delete',
    ]);
    const warm = tierOf(r, 30, 'warm')!;
    expect(warm.placement).toEqual(['temp=warm']);
    expect(warm.total_bytes).toBe(warm.primary_bytes);
    const hot = tierOf(r, 30, 'hot')!;
    expect(hot.total_bytes).toBe(2 * hot.primary_bytes);
    expect(hot.indices + warm.indices).toBe(r.daily[29].total.indices);
    // Created after day 23 (one every 25 hours): six still hot.
    expect(hot.indices).toBe(6);
    expect(r.summary.first_deletion).toMatchObject({ day: 90, index: 'logs-000001' });
    expect(r.summary.steady_state?.tiers.map((t) => t.tier)).toEqual(['hot', 'warm']);
  });

  it('moves indices to UltraWarm and cold storage and deletes them on a managed domain; refuses those actions elsewhere as the engine does', async () => {
    const r = await runSimulation(
      {
        policy_id: 'tieredPolicy',
        days: 95,
        profile: { docs_per_day: 1000, doc_bytes: 1000, growth_percent: 0 },
        managed_domain: true,
        pass_interval: '1h',
      },
      { start: START },
    );
    expect(lines(r).filter((l) => l.includes('logs-000001 '))).toEqual([
      '0 00:00 logs-000001 created',
      '1 00:00 logs-000001 rolled_over logs-000002',
      '7 00:00 logs-000001 transitioned hot→warm',
      '7 00:00 logs-000001 action_completed warm_migration',
      '30 00:00 logs-000001 transitioned warm→cold',
      '30 00:00 logs-000001 action_completed cold_migration',
      '90 00:00 logs-000001 transitioned cold→delete',
      '90 00:00 logs-000001 deleted cold_delete',
    ]);
    expect(tierOf(r, 40, 'warm')?.placement).toEqual(['UltraWarm']);
    expect(tierOf(r, 40, 'cold')?.placement).toEqual(['cold storage']);

    // A self-managed cluster: the policy is refused as applyPolicy refuses it, naming what to use.
    const refused = await runSimulation({
      policy_id: 'tieredPolicy',
      days: 10,
      profile: { docs_per_day: 1, doc_bytes: 1, growth_percent: 0 },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PolicyInvalid);
    expect((refused as PolicyInvalid).problems.map((p) => p.message).join(' ')).toMatch(
      /warm_migration exists only on a managed domain.*read_only, allocation/,
    );
    // A cluster without the storage tiers (a real one under plat's engine) fails the action, with the engine's words.
    const cluster = new SimulatedCluster({ shards: 1, replicas: 0 }, false);
    const index = cluster.bootstrap('x', 0);
    await expect(
      runAction(
        'warm_migration',
        {},
        {
          cluster,
          snapshot: cluster.snapshot(),
          observed: cluster.snapshot().indices.get(index.index)!,
          record: {} as never,
          now: 0,
        },
      ),
    ).rejects.toThrow(/warm_migration is not available on this cluster: it exists only on a managed domain/);
  });

  it('reports failures with their cause and backoff, and indices no ism_template claims as unmanaged', async () => {
    const r = await simulate(
      {
        default_state: 'hot',
        states: [
          {
            name: 'hot',
            actions: [],
            transitions: [{ state_name: 'gone', conditions: { min_index_age: '1d' } }],
          },
          { name: 'gone', actions: [{ delete: {}, retry: { count: 2, backoff: 'constant', delay: '3h' } }] },
        ],
      },
      { days: 3 },
    );
    expect(lines(r)).toEqual([
      '0 00:00 logs-000001 created',
      '1 00:00 logs-000001 transitioned hot→gone',
      '1 00:00 logs-000001 failed delete',
      '1 03:00 logs-000001 failed delete',
      '1 06:00 logs-000001 failed delete',
    ]);
    expect(r.timeline[2].cause).toMatch(/still the write index of logs.*roll the alias over first/);
    expect(r.notes.join(' ')).toMatch(/No ism_template of test claims logs-\*/);

    const unclaimed = await simulate(
      { ...hotThenDelete({ min_doc_count: 1000 }, '30d'), ism_template: undefined },
      { days: 1 },
    );
    expect(unclaimed.timeline.find((e) => e.index === 'logs-000002')).toMatchObject({
      kind: 'created',
      managed: false,
    });
    expect(unclaimed.daily[0].tiers.map((t) => [t.tier, t.indices])).toEqual([
      ['hot', 1],
      ['unmanaged', 1],
    ]);
  });

  it('skips only passes where nothing happens: the same result as running every pass for every index', async () => {
    const cases: [unknown, Partial<Parameters<typeof simulatePolicy>[0]> & { managedDomain?: boolean }][] = [
      [builtinPolicy('selfManagedTieredPolicy', 'logs'), { days: 60, pass_interval: '2h', shards: 2 }],
      [builtinPolicy('tieredPolicy', 'logs'), { days: 40, pass_interval: '3h', managedDomain: true }],
      [
        {
          default_state: 'hot',
          states: [
            {
              name: 'hot',
              actions: [{ rollover: { min_doc_count: 5000, min_size: '400kb' } }],
              transitions: [{ state_name: 'warm', conditions: { min_rollover_age: '1d' } }],
            },
            {
              name: 'warm',
              actions: [{ read_only: {}, timeout: '1h' }, { replica_count: { number_of_replicas: 0 } }],
              transitions: [{ state_name: 'gone', conditions: { min_doc_count: 100, min_index_age: '2d' } }],
            },
            { name: 'gone', actions: [{ delete: {} }] },
          ],
          ism_template: { index_patterns: ['logs-*'], priority: 1 },
        },
        {
          days: 12,
          pass_interval: '20m',
          profile: { docs_per_day: 7000, doc_bytes: 50, growth_percent: 8 },
        },
      ],
    ];
    for (const [body, o] of cases) {
      const skipping = await simulate(body, o);
      const every = await simulate(body, { ...o, exhaustive: true });
      expect(skipping.stats.passes_run).toBeLessThan(every.stats.passes_run);
      const same = (r: SimulationResult) =>
        JSON.stringify({ ...r, stats: undefined, notes: r.notes.slice(1) });
      expect(same(skipping)).toBe(same(every));
    }
  });

  // How fast: npm run bench:simulate (timed assertions stay out of the tests).
  it('simulates a year of 5-minute passes, day by day', async () => {
    const r = await runSimulation({
      policy_id: 'selfManagedTieredPolicy',
      days: 365,
      profile: { docs_per_day: 2_000_000, doc_bytes: 600, growth_percent: 0.5 },
    });
    expect(r.pass_interval).toBe('5m');
    expect(r.stats.passes).toBe(365 * 288);
    expect(r.daily).toHaveLength(365);
    expect(r.notes[0]).toMatch(/passes every 5m \(105,120 passes/);
  });

  it('stops a simulation that acts at every pass, saying so', async () => {
    // Two states moving to each other without conditions: the engine chains 16 transitions a pass.
    const cycle = {
      default_state: 'a',
      states: [
        { name: 'a', actions: [], transitions: [{ state_name: 'b' }] },
        { name: 'b', actions: [], transitions: [{ state_name: 'a' }] },
      ],
    };
    const r = await simulate(cycle, { days: 3650, pass_interval: '1m' });
    expect(r.truncated?.reason).toMatch(/stopped on day 2: more than 50,000 events/);
    expect(r.daily).toHaveLength(2);
  });

  it('refuses bad input with the field and the limit, and unknown policies', async () => {
    const problems = (body: unknown) => {
      const parsed = simulationRequestSchema.safeParse(body);
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    const profile = { docs_per_day: 10, doc_bytes: 10 };
    expect(problems({ policy_id: 'retentionPolicy', days: 30, profile })).toEqual([]);
    expect(problems({ policy_id: 'retentionPolicy', days: 3651, profile })).toEqual([
      'days: Too big: expected number to be <=3650',
    ]);
    expect(problems({ policy_id: 'retentionPolicy', days: 0, profile })[0]).toMatch(/^days: Too small/);
    expect(
      problems({ policy_id: 'r', days: 1, profile: { docs_per_day: 1, doc_bytes: 1, bytes_per_day: 1 } }),
    ).toEqual(['profile.bytes_per_day: give exactly one of bytes_per_day and doc_bytes']);
    expect(problems({ days: 1, profile })).toEqual(['policy_id: give exactly one of policy_id and policy']);
    for (const bad of ['30s', '90m', '25h', '2d', '0m'])
      expect(problems({ policy_id: 'r', days: 1, profile, pass_interval: bad })[0]).toMatch(
        /^pass_interval: a pass interval from 1m to 24h/,
      );
    for (const good of ['1m', '60m', '1h', '24h', '1d'])
      expect(problems({ policy_id: 'r', days: 1, profile, pass_interval: good })).toEqual([]);
    expect(problems({ policy_id: 'r', days: 1, profile: { docs_per_day: 1e13, doc_bytes: 1 } })[0]).toMatch(
      /docs_per_day: Too big/,
    );

    await expect(
      runSimulation({ policy_id: 'my-policy', days: 1, profile: { ...profile, growth_percent: 0 } }),
    ).rejects.toThrow(SimulationPolicyNotFound);
    const invalid = await runSimulation({
      policy: { default_state: 'hot', states: [{ name: 'hot', transitions: [{ state_name: 'nowhere' }] }] },
      days: 1,
      profile: { ...profile, growth_percent: 0 },
    }).catch((e: unknown) => e);
    expect((invalid as PolicyInvalid).problems).toEqual([
      {
        path: 'states.0.transitions.0.state_name',
        message: 'state hot moves to nowhere, which is not one of the states',
      },
    ]);
    expect(aliasFromTemplate({ ism_template: [{ index_patterns: ['app-logs-*'] }] })).toBe('app-logs');
    expect(aliasFromTemplate({ ism_template: { index_patterns: ['*'] } })).toBe('logs');
  });
});
