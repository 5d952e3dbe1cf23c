/**
 * `npm run bench:lifecycle`: one pass of plat's lifecycle engine over BENCH_INDICES managed indices
 * (default 1,000) on a real local OpenSearch node, beside its floor: the bulk reads alone that fetch
 * the state a pass needs (`_cat/indices`, the settings and the stats of all indices, one call each).
 * Targets: a pass under 10 s, and within 3x of the floor.
 *
 * Set-up (not timed): 100 rolling aliases of BENCH_INDICES/100 indices each (the newest the write
 * index), under three policies with different ages, so the indices sit in mixed states: hot waiting
 * to roll over, warm (read-only) or cold waiting for a transition, completed. Warm-up passes run at the
 * measured clock until the engine has nothing left to do; then BENCH_ROUNDS rounds alternate a pass and
 * the floor. Also timed once: a busy pass, where one index in ten moves and acts.
 *
 * BENCH_INDICES=1000  BENCH_ROUNDS=5
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readIndexState } from '../domain/search-ops/lifecycle/cluster-snapshot';
import { applyPolicy } from '../domain/search-ops/lifecycle/apply-policy';
import { lifecycleManager } from '../domain/search-ops/lifecycle/lifecycle-manager-for';
import { lifecyclePass, type PassSummary } from '../domain/search-ops/lifecycle/lifecycle-pass';
import { OpenSearchClient } from '../domain/search-ops/opensearch-client';
import type { IsmPolicy } from '../domain/search-ops/ism-policy';
import { freePort } from '../shared/free-port';
import { startOpenSearch } from '../scripts/lib/opensearch-node';
import { envInt, loadLine, machineLine, ms, ratio, summarize, table, timed } from './lib/bench-stats';

const INDICES = envInt('BENCH_INDICES', 1000);
const ROUNDS = envInt('BENCH_ROUNDS', 5);
const ALIASES = 100;
const PER_ALIAS = Math.max(1, Math.round(INDICES / ALIASES));
const DAY = 86_400_000;
const TARGET_MS = 10_000;
const TARGET_RATIO = 3;

/** Three lifecycles, so indices of the same age sit in different states. */
function policies(): Record<string, IsmPolicy> {
  const hot = (warmAfter: string) => ({
    name: 'hot',
    actions: [{ rollover: { min_doc_count: 1_000_000 } }],
    transitions: [{ state_name: 'warm', conditions: { min_index_age: warmAfter } }],
  });
  return {
    'bench-short': {
      description: 'warm at 1d, cold at 2d',
      default_state: 'hot',
      states: [
        hot('1d'),
        {
          name: 'warm',
          actions: [{ read_only: {} }],
          transitions: [{ state_name: 'cold', conditions: { min_index_age: '2d' } }],
        },
        {
          name: 'cold',
          actions: [{ replica_count: { number_of_replicas: 0 } }],
          transitions: [{ state_name: 'delete', conditions: { min_index_age: '900d' } }],
        },
        { name: 'delete', actions: [{ delete: {} }], transitions: [] },
      ],
    },
    'bench-long': {
      description: 'warm at 30d',
      default_state: 'hot',
      states: [
        hot('30d'),
        {
          name: 'warm',
          actions: [{ read_only: {} }],
          transitions: [{ state_name: 'delete', conditions: { min_index_age: '900d' } }],
        },
        { name: 'delete', actions: [{ delete: {} }], transitions: [] },
      ],
    },
    'bench-done': {
      description: 'read-only at 1d, then done',
      default_state: 'hot',
      states: [hot('1d'), { name: 'warm', actions: [{ read_only: {} }], transitions: [] }],
    },
  };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-bench-lifecycle-'));
  fs.chmodSync(dir, 0o755);
  console.log(
    `bench:lifecycle: ${ALIASES} aliases x ${PER_ALIAS} = ${ALIASES * PER_ALIAS} managed indices; ${machineLine()}`,
  );
  const node = await startOpenSearch({
    port: await freePort(),
    dataDir: path.join(dir, 'node'),
    logFile: path.join(dir, 'opensearch.log'),
  });
  const client = new OpenSearchClient({ url: node.url, timeoutMs: 120_000 });
  try {
    await client.request('PUT', '/_cluster/settings', {
      persistent: { 'cluster.max_shards_per_node': 10_000 },
    });
    const manager = await lifecycleManager(client);
    const names = Object.keys(policies());
    for (const [id, policy] of Object.entries(policies())) await applyPolicy(manager, id, policy);

    const [created] = await timed(async () => {
      const jobs: (() => Promise<unknown>)[] = [];
      for (let a = 0; a < ALIASES; a++)
        for (let i = 1; i <= PER_ALIAS; i++) {
          const alias = `bench-${String(a).padStart(3, '0')}`;
          const index = `${alias}-${String(i).padStart(6, '0')}`;
          jobs.push(() =>
            client.request('PUT', `/${index}`, {
              settings: { number_of_shards: 1, number_of_replicas: 0 },
              aliases: { [alias]: { is_write_index: i === PER_ALIAS } },
            }),
          );
        }
      await pool(jobs, 4);
    });
    for (let a = 0; a < ALIASES; a++)
      await manager.addPolicy(`bench-${String(a).padStart(3, '0')}-*`, names[a % names.length]);
    console.log(`created and attached ${ALIASES * PER_ALIAS} indices in ${ms(created / 1000, 1)} s`);

    // Attached now; measured two days on: short-lived indices cold, long-lived ones hot, done ones
    // read-only and completed, every write index waiting to roll over.
    const t0 = Date.now();
    const busyAt = t0 + 2 * DAY + 3_600_000;
    const warm: string[] = [];
    let passes = 0;
    for (let now = t0; ; passes++) {
      const [took, summary] = await timed(() => lifecyclePass(client, now));
      warm.push(`${ms(took, 0)} ms (${summary.events.length} events)`);
      if (now === busyAt && summary.events.length === 0) break;
      now = busyAt;
      if (passes > 20) throw new Error('the engine did not settle in 20 passes');
    }
    console.log(`warm-up passes: ${warm.join(', ')}`);

    const states = await stateCounts(manager);
    console.log(
      `states: ${Object.entries(states)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );

    const passTimes: number[] = [];
    const floorTimes: number[] = [];
    let last: PassSummary | undefined;
    for (let r = 0; r < ROUNDS; r++) {
      const [p, summary] = await timed(() => lifecyclePass(client, busyAt));
      passTimes.push(p);
      last = summary;
      const [f] = await timed(() => readIndexState(client));
      floorTimes.push(f);
    }
    const pass = summarize(passTimes);
    const floor = summarize(floorTimes);
    console.log(
      table(
        ['', 'median ms', 'best ms', 'worst ms'],
        [
          [
            `engine pass (${last?.managed} managed, ${last?.waiting} waiting)`,
            ms(pass.p50, 0),
            ms(Math.min(...passTimes), 0),
            ms(Math.max(...passTimes), 0),
          ],
          [
            'floor: _cat/indices + settings + stats',
            ms(floor.p50, 0),
            ms(Math.min(...floorTimes), 0),
            ms(Math.max(...floorTimes), 0),
          ],
        ],
      ),
    );
    console.log(
      `pass / floor: ${ratio(pass.p50, floor.p50)} (target <= ${TARGET_RATIO}x); pass ${ms(pass.p50 / 1000, 2)} s ` +
        `(target < ${TARGET_MS / 1000} s): ${pass.p50 < TARGET_MS && pass.p50 <= TARGET_RATIO * floor.p50 ? 'met' : 'NOT met'}`,
    );

    // A busy pass: a tenth of the aliases roll over by hand, their new indices are claimed, and a day
    // later the old ones move on: one pass where many indices act.
    for (let a = 0; a < ALIASES; a += 10)
      await client.request('POST', `/bench-${String(a).padStart(3, '0')}/_rollover`);
    const [busy, busySummary] = await timed(() => lifecyclePass(client, busyAt + DAY));
    console.log(
      `busy pass: ${ms(busy, 0)} ms, ${busySummary.events.length} events (${ratio(busy, floor.p50)} of the floor); ${loadLine()}`,
    );
  } finally {
    await node.service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function stateCounts(
  manager: Awaited<ReturnType<typeof lifecycleManager>>,
): Promise<Record<string, number>> {
  const explain = (await manager.explain('bench-*')) as Record<
    string,
    { state?: { name: string }; policy_completed?: boolean }
  >;
  const counts: Record<string, number> = {};
  for (const [k, e] of Object.entries(explain)) {
    if (k === 'total_managed_indices') continue;
    const key = e.policy_completed ? `${e.state?.name} (completed)` : (e.state?.name ?? 'new');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function pool(jobs: (() => Promise<unknown>)[], limit: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < jobs.length) await jobs[next++]();
    }),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
