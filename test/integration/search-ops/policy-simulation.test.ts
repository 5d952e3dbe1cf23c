/**
 * The policy simulator against the real thing (docs/search-lifecycle.md#simulating-a-policy): a
 * rolling index set up on a real OpenSearch node (no ISM: plat's engine runs the policy), fed the
 * same documents per simulated pass interval with bulk writes, and run by real passes at the same simulated
 * times. Every rollover, transition, action and deletion happens at the pass the simulator said, and
 * each day ends with the indices and documents per tier it said. Then the same simulator behind
 * `POST /v1/search/simulate` and `plat index simulate`, with and without a cluster.
 */
import { runPlat } from '../../harness/plat-cli';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPolicy } from '../../../domain/search-ops/lifecycle/apply-policy';
import { lifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { lifecyclePass } from '../../../domain/search-ops/lifecycle/lifecycle-pass';
import { setUpRollingIndex } from '../../../domain/search-ops/lifecycle/rolling-index-setup';
import { IngestProfile } from '../../../domain/search-ops/lifecycle/simulate/ingest-profile';
import { runSimulation } from '../../../domain/search-ops/lifecycle/simulate/run-simulation';
import type { IndexEvent } from '../../../domain/search-ops/lifecycle/index-step';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { apiCaller, type ApiCall } from '../../harness/api-caller';
import { startSearchGateways, type SearchGateways } from '../../harness/search-gateways';

const HOUR = 3_600_000;
const DAYS = 3;
/** Two hours between passes: 36 passes, each a bulk write, a refresh and a real pass. */
const PASS_HOURS = 2;
const PASSES_PER_DAY = 24 / PASS_HOURS;

/** hot (rollover at 150 documents or 12 hours) → warm at 1d (read-only, no replicas) → deleted at 2d. */
const POLICY = {
  description: 'simulated, then run for real',
  default_state: 'hot',
  states: [
    {
      name: 'hot',
      actions: [{ rollover: { min_doc_count: 150, min_index_age: '12h' } }],
      transitions: [{ state_name: 'warm', conditions: { min_index_age: '1d' } }],
    },
    {
      name: 'warm',
      actions: [{ read_only: {} }, { replica_count: { number_of_replicas: 0 } }],
      transitions: [{ state_name: 'delete', conditions: { min_index_age: '2d' } }],
    },
    { name: 'delete', actions: [{ delete: {} }], transitions: [] },
  ],
  ism_template: { index_patterns: ['simcmp-*'], priority: 50 },
};
/** 240 documents the first day, 30% more each day: some indices roll over by count, some by age. */
const PROFILE = { docs_per_day: 240, doc_bytes: 200, growth_percent: 30 };

describe('policy simulation against real passes (real OpenSearch node, no ISM)', () => {
  let search: SearchGateways;
  let client: OpenSearchClient;
  let token: string;
  const call = apiCaller(() => search.gateway.base);
  const callBare = apiCaller(() => search.bare.base);
  /** POST /v1/search/simulate to the gateway `on` calls, signed in unless told otherwise. */
  const simulate = (on: ApiCall, body: Record<string, unknown>, signedIn = true) =>
    on('POST', '/v1/search/simulate', body, signedIn ? token : undefined);

  beforeAll(async () => {
    search = await startSearchGateways('simulate-test');
    client = new OpenSearchClient({ url: search.node.url });
    token = (await call('POST', '/auth/signup', { username: 'planner', password: 'plan ahead!' })).body
      .id_token as string;
  }, 300_000);
  afterAll(async () => search?.stop());

  it('rolls over, transitions and deletes at the passes the simulator predicted, leaving the indices per tier it predicted', async () => {
    const sim = await runSimulation({
      policy: POLICY,
      days: DAYS,
      profile: PROFILE,
      pass_interval: `${PASS_HOURS}h`,
      alias: 'simcmp',
      shards: 1,
      replicas: 0,
    });
    // The simulation exercises both rollover conditions and every state.
    expect(sim.timeline.filter((e) => e.kind === 'rolled_over').map((e) => e.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\(min_doc_count/),
        expect.stringMatching(/\(min_index_age\)/),
      ]),
    );
    expect(sim.summary.indices_deleted).toBeGreaterThan(0);

    // The same set-up for real: the policy first, then the template and the first index, attached.
    const setup = await setUpRollingIndex(client, 'simcmp', { shards: 1, replicas: 0 }, { policy: POLICY });
    expect(setup).toMatchObject({ write_index: 'simcmp-000001', policy: { engine: 'plat' } });
    const manager = await lifecycleManager(client);
    const profile = new IngestProfile(PROFILE, DAYS);
    const t0 = Date.now();

    const real: string[] = [];
    const realDays: { day: number; tiers: Record<string, { indices: number; docs: number }> }[] = [];
    const PASS = PASS_HOURS * HOUR;
    for (let pass = 1; pass <= DAYS * PASSES_PER_DAY; pass++) {
      // The documents since the pass before, to the alias's write index.
      const docs = profile.docsAt(pass * PASS) - profile.docsAt((pass - 1) * PASS);
      if (docs > 0) {
        const lines = Array.from({ length: docs }, (_, i) => [
          JSON.stringify({ index: { _index: 'simcmp' } }),
          JSON.stringify({
            '@timestamp': new Date(t0 + pass * PASS).toISOString(),
            message: `doc ${pass}.${i}`,
          }),
        ]).flat();
        const res = await client.bulk<{ errors: boolean }>(
          `${lines.join('\n')}\n`,
          'refresh=true&require_alias=true',
        );
        expect(res.errors).toBe(false);
      }
      const summary = await lifecyclePass(client, t0 + pass * PASS);
      // The node also holds the gateways' own access logs, under their own policy.
      real.push(
        ...summary.events.filter((e) => e.index.startsWith('simcmp-')).flatMap((e) => described(pass, e)),
      );
      if (pass % PASSES_PER_DAY === 0)
        realDays.push({ day: pass / PASSES_PER_DAY, tiers: await tiersNow(client, manager) });
    }

    const predicted = sim.timeline.flatMap((e) => {
      if (e.kind === 'created') return [];
      const what =
        e.kind === 'rolled_over'
          ? 'rollover'
          : e.kind === 'transitioned'
            ? `${e.from}→${e.to}`
            : e.kind === 'deleted'
              ? 'deleted'
              : `${e.kind}:${e.action}`;
      return [`${e.pass} ${e.index} ${what}`];
    });
    expect(real.sort()).toEqual(predicted.sort());

    const predictedDays = sim.daily.map((d) => ({
      day: d.day,
      tiers: Object.fromEntries(d.tiers.map((t) => [t.tier, { indices: t.indices, docs: t.docs }])),
    }));
    expect(realDays).toEqual(predictedDays);
  }, 600_000);

  it('answers POST /v1/search/simulate without a cluster for built-in and given policies, and reads stored ones from the cluster', async () => {
    const profile = { docs_per_day: 2_000_000, doc_bytes: 600 };
    const builtin = await simulate(callBare, { policy_id: 'retentionPolicy', days: 40, profile });
    expect(builtin.status).toBe(200);
    expect(builtin.body).toMatchObject({
      policy_id: 'retentionPolicy',
      alias: 'logs',
      pass_interval: '5m',
      summary: { first_deletion: { day: 30, time: '00:00', index: 'logs-000001' } },
    });
    expect((builtin.body.daily as unknown[]).length).toBe(40);

    const given = await simulate(callBare, {
      policy: POLICY,
      days: 3,
      profile: PROFILE,
      pass_interval: '1h',
    });
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({ alias: 'simcmp', pass_interval: '1h' });

    // A stored policy needs the cluster: 503 without one, 404 for an id it does not have.
    const noCluster = await simulate(callBare, { policy_id: 'simcmp-lifecycle', days: 3, profile });
    expect(noCluster.status).toBe(503);
    expect((noCluster.body.error as { message: string }).message).toMatch(/OPENSEARCH_URL/);
    const stored = await simulate(call, { policy_id: 'simcmp-lifecycle', days: 6, profile: PROFILE });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      policy_id: 'simcmp-lifecycle',
      alias: 'simcmp',
      managed_domain: false,
    });
    expect((await simulate(call, { policy_id: 'no-such-policy', days: 3, profile })).status).toBe(404);

    // The policy is validated as for writing it: each problem, with its path.
    const tiered = await simulate(callBare, { policy_id: 'tieredPolicy', days: 3, profile });
    expect(tiered.status).toBe(422);
    expect(JSON.stringify((tiered.body.error as { details: unknown }).details)).toMatch(
      /warm_migration exists only on a managed domain/,
    );
    expect(
      (await simulate(callBare, { policy_id: 'tieredPolicy', days: 3, profile, managed_domain: true }))
        .status,
    ).toBe(200);
    // The schema's limits: a 400 naming the field.
    const tooLong = await simulate(callBare, { policy_id: 'retentionPolicy', days: 3651, profile });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toMatch(/days/);
    expect((await simulate(callBare, { policy_id: 'retentionPolicy', days: 3, profile }, false)).status).toBe(
      401,
    );
  });

  it('runs plat index simulate: built-in policies and files on the spot, stored ones through the gateway', async () => {
    const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      runPlat(args, { ...process.env, PLAT_URL: 'http://127.0.0.1:9', PLAT_TOKEN: '', ...extra });
    const profile = ['--docs-per-day', '2000000', '--doc-bytes', '600'];
    const smallRun = ['--days', '3', '--docs-per-day', '120', '--doc-bytes', '200'];

    // No gateway is reachable (PLAT_URL points nowhere): a built-in policy runs here.
    const text = await cli(['index', 'simulate', 'retentionPolicy', '--days', '40', ...profile]);
    expect([text.status, text.stderr]).toEqual([0, '']);
    expect(text.stdout).toMatch(/^retentionPolicy on logs-\* for 40 days: 2,000,000 docs a day of 600 B/);
    expect(text.stdout).toMatch(
      /logs-000001 +created day 0 00:00 · rolled over day 1 00:00 · → delete day 30 00:00 · deleted day 30 00:00/,
    );
    expect(text.stdout).toMatch(/DAY +HOT +PRIMARY +WITH REPLICAS/);
    expect(text.stdout).toMatch(/first deletion day 30 00:00 \(logs-000001\)/);

    const json = await cli([
      'index',
      'simulate',
      'selfManagedWarmPolicy',
      '--days',
      '10',
      '--docs-per-day',
      '1000',
      '--bytes-per-day',
      '1gb',
      '--pass-interval',
      '1h',
      '--json',
    ]);
    expect(json.status).toBe(0);
    const parsed = JSON.parse(json.stdout) as { pass_interval: string; profile: unknown; daily: unknown[] };
    expect(parsed).toMatchObject({
      pass_interval: '1h',
      profile: { docs_per_day: 1000, bytes_per_day: 1024 ** 3 },
    });
    expect(parsed.daily).toHaveLength(10);

    const file = path.join(search.gateway.dataDir, 'simcmp-policy.json');
    fs.writeFileSync(file, JSON.stringify({ policy: POLICY }));
    const fromFile = await cli(['index', 'simulate', '--file', file, ...smallRun]);
    expect(fromFile.status).toBe(0);
    expect(fromFile.stdout).toMatch(/^simcmp-policy on simcmp-\* for 3 days/);

    // Refusals: usage (2) naming the flag, an invalid policy (1) with each problem and the way out.
    const usage = await cli(['index', 'simulate', 'retentionPolicy', '--days', '0', ...profile]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--days: Too small/);
    const both = await cli([
      'index',
      'simulate',
      'retentionPolicy',
      '--days',
      '3',
      '--docs-per-day',
      '1',
      '--doc-bytes',
      '1',
      '--bytes-per-day',
      '1',
    ]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/give exactly one of bytes_per_day and doc_bytes/);
    const tiered = await cli(['index', 'simulate', 'tieredPolicy', '--days', '3', ...profile]);
    expect(tiered.status).toBe(1);
    expect(tiered.stderr).toMatch(
      /invalid here \(for a managed domain: --managed-domain\)[\s\S]*warm_migration exists only/,
    );
    const help = await cli(['index', 'simulate', '--help']);
    expect([help.status, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('  index simulate POLICY --days N');

    // A stored policy: through the gateway, which reads it from the cluster.
    await applyPolicy(await lifecycleManager(client), 'stored-retention', {
      ...POLICY,
      ism_template: undefined,
    });
    const stored = await cli(
      ['index', 'simulate', 'stored-retention', ...smallRun, '--pass-interval', '1h'],
      { PLAT_URL: search.gateway.base, PLAT_TOKEN: token },
    );
    expect([stored.status, stored.stderr]).toEqual([0, '']);
    expect(stored.stdout).toMatch(/^stored-retention on logs-\* for 3 days/);
    expect(stored.stdout).toMatch(/No ism_template of stored-retention claims logs-\*/);
  });
});

/** A real pass's event as the simulator's timeline names it (initialisations aside). */
function described(pass: number, e: IndexEvent): string[] {
  switch (e.kind) {
    case 'action_completed':
      return [`${pass} ${e.index} ${e.action === 'rollover' ? 'rollover' : `action_completed:${e.action}`}`];
    case 'transitioned':
      return [`${pass} ${e.index} ${e.message.replace(' → ', '→')}`];
    case 'deleted':
      return [`${pass} ${e.index} deleted`];
    case 'failed':
      return [`${pass} ${e.index} failed:${e.action}`];
    default:
      return [];
  }
}

/** Indices and documents per policy state now, as explain and `_cat/indices` report them. */
async function tiersNow(
  client: OpenSearchClient,
  manager: Awaited<ReturnType<typeof lifecycleManager>>,
): Promise<Record<string, { indices: number; docs: number }>> {
  const explain = (await manager.explain('simcmp-*')) as Record<
    string,
    { policy_id?: string | null; state?: { name: string } }
  >;
  const rows = await client.request<{ index: string; 'docs.count': string }[]>(
    'GET',
    '/_cat/indices/simcmp-*?format=json&h=index,docs.count',
  );
  const tiers: Record<string, { indices: number; docs: number }> = {};
  for (const row of rows) {
    // An index a rollover made this pass is attached and not yet initialised: in its default state.
    const entry = explain[row.index];
    const tier = entry?.policy_id ? (entry.state?.name ?? POLICY.default_state) : 'unmanaged';
    tiers[tier] ??= { indices: 0, docs: 0 };
    tiers[tier].indices++;
    tiers[tier].docs += Number(row['docs.count']);
  }
  return tiers;
}
