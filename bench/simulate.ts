/**
 * `npm run bench:simulate`: how long `plat index simulate` takes to show a policy's effect over
 * months (issue #26: "over months in seconds"), beside its baseline in the same run: the same
 * simulation with every pass run (`exhaustive`), which is what skipping idle passes saves.
 *
 * Each built-in policy that needs no managed domain is simulated for BENCH_DAYS (default 365) at the
 * real 5-minute pass interval, 2M documents a day of 600 bytes growing 0.5% a day, BENCH_ROUNDS
 * times (default 3); the baseline runs BENCH_BASELINE_DAYS (default 60) of the same, every pass, and
 * the skipping run over those days is timed beside it for the ratio. Target: a year under 3 s.
 *
 * BENCH_DAYS=365  BENCH_BASELINE_DAYS=60  BENCH_ROUNDS=3
 */
import { runSimulation } from '../domain/search-ops/lifecycle/simulate/run-simulation';
import { envInt, machineLine, ms, ratio, runBench, summarize, table, timed } from './lib/bench-stats';

const DAYS = envInt('BENCH_DAYS', 365);
const BASELINE_DAYS = envInt('BENCH_BASELINE_DAYS', 60);
const ROUNDS = Math.max(1, envInt('BENCH_ROUNDS', 3));
const PROFILE = { docs_per_day: 2_000_000, doc_bytes: 600, growth_percent: 0.5 };
const POLICIES = ['retentionPolicy', 'selfManagedTieredPolicy'];
const TARGET_MS = 3000;

/** A built-in policy over `days`, skipping idle passes as the simulator does, or running every one. */
const simulate = (policyId: string, days: number, exhaustive: boolean) =>
  runSimulation({ policy_id: policyId, days, profile: PROFILE }, { exhaustive });

runBench(async () => {
  console.log(`bench:simulate: ${POLICIES.join(', ')}; ${machineLine()}`);
  const rows: string[][] = [];
  let worst = 0;
  for (const id of POLICIES) {
    // Warm-up (the JIT), not timed.
    await simulate(id, 7, false);
    const year: number[] = [];
    let passes = 0;
    let active = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const [took, result] = await timed(() => simulate(id, DAYS, false));
      year.push(took);
      passes = result.stats.passes;
      active = result.stats.passes_run;
    }
    const [skipping] = await timed(() => simulate(id, BASELINE_DAYS, false));
    const [every, full] = await timed(() => simulate(id, BASELINE_DAYS, true));
    const y = summarize(year);
    worst = Math.max(worst, y.p50);
    rows.push([
      id,
      `${passes.toLocaleString('en')} (${active.toLocaleString('en')} run)`,
      ms(y.p50, 0),
      ms(skipping, 0),
      `${ms(every, 0)} (${full.stats.passes_run.toLocaleString('en')} run)`,
      ratio(every, skipping),
    ]);
  }
  console.log(
    table(
      [
        'policy',
        `passes in ${DAYS} d`,
        `${DAYS} d ms (p50)`,
        `${BASELINE_DAYS} d ms`,
        `${BASELINE_DAYS} d every pass ms`,
        'every / skipping',
      ],
      rows,
    ),
  );
  console.log(
    `slowest ${DAYS}-day simulation: ${ms(worst / 1000, 2)} s (target < ${TARGET_MS / 1000} s): ` +
      (worst < TARGET_MS ? 'met' : 'NOT met'),
  );
});
