/**
 * `plat index simulate`'s text (docs/search-lifecycle.md#simulating-a-policy): one line per index
 * with its milestones, the failures with their cause, a compact table of the tiers per day (every
 * day for a month or less; else weekly, plus the days a tier first fills or deletions begin), and the
 * summary. Sizes in binary units, as OpenSearch counts them.
 */
import type {
  DayRow,
  SimulationResult,
  TimelineEvent,
} from '../../domain/search-ops/lifecycle/simulate/simulation-result';
import { table } from './render';

/** Indices listed in full when there are more: the first ones and the last ones. */
const HEAD = 30;
const TAIL = 10;

/** `1.1 GiB`, `512 B`. */
export function humanBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${Math.round(v)} B` : `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const when = (e: { day: number; time: string }) => `day ${e.day} ${e.time}`;

export function simulationText(r: SimulationResult): string {
  const p = r.profile;
  const perDoc = p.doc_bytes !== undefined ? ` of ${humanBytes(p.doc_bytes)}` : '';
  const perDay =
    p.bytes_per_day !== undefined
      ? humanBytes(p.bytes_per_day)
      : humanBytes(p.docs_per_day * (p.doc_bytes ?? 0));
  const lines = [
    `${r.policy_id} on ${r.alias}-* for ${r.days} days${r.managed_domain ? ' (managed domain)' : ''}: ` +
      `${int(p.docs_per_day)} docs a day${perDoc} (${perDay} a day` +
      `${p.growth_percent ? `, growing ${p.growth_percent}% a day` : ''}), ` +
      `${r.shards} primary shard${r.shards === 1 ? '' : 's'}, ${r.replicas} replica${r.replicas === 1 ? '' : 's'}`,
    `engine passes every ${r.pass_interval}: ${int(r.stats.passes)} passes, ${int(r.stats.passes_run)} with something to do (${r.stats.elapsed_ms} ms)`,
    '',
    ...indexLines(r.timeline),
  ];
  const failures = r.timeline.filter((e) => e.kind === 'failed');
  if (failures.length)
    lines.push(
      '',
      'Failures:',
      ...failures.map((e) => `  ${when(e)}  ${e.index}  ${e.action ?? ''}: ${e.cause ?? e.message}`),
    );
  lines.push('', ...dayTable(r), '', ...summaryLines(r));
  if (r.truncated) lines.push(`STOPPED EARLY: ${r.truncated.reason}`);
  lines.push('', ...r.notes.map((n) => `note: ${n}`));
  return lines.join('\n');
}

/** One line per index: created · rolled over · → state · deleted, each with its day and time. */
function indexLines(timeline: TimelineEvent[]): string[] {
  const byIndex = new Map<string, string[]>();
  for (const e of timeline) {
    const steps = byIndex.get(e.index) ?? [];
    const at = when(e);
    if (e.kind === 'created') steps.push(`created ${at}${e.managed ? '' : ' (unmanaged)'}`);
    else if (e.kind === 'rolled_over') steps.push(`rolled over ${at}`);
    else if (e.kind === 'transitioned') steps.push(`→ ${e.to} ${at}`);
    else if (e.kind === 'deleted') steps.push(`deleted ${at}`);
    else if (e.kind === 'failed' && !steps.at(-1)?.startsWith('FAILED'))
      steps.push(`FAILED ${e.action} ${at}`);
    byIndex.set(e.index, steps);
  }
  const all = [...byIndex];
  const width = Math.max(0, ...all.map(([i]) => i.length));
  const line = ([index, steps]: [string, string[]]) => `  ${index.padEnd(width)}  ${steps.join(' · ')}`;
  const header = `Indices (${all.length}): created, rolled over, each transition, deleted`;
  if (all.length <= HEAD + TAIL) return [header, ...all.map(line)];
  return [
    header,
    ...all.slice(0, HEAD).map(line),
    `  … ${all.length - HEAD - TAIL} more (--json has every event)`,
    ...all.slice(-TAIL).map(line),
  ];
}

/** The days shown: all for a month or less; else weekly, plus the days something first happened. */
function shownDays(r: SimulationResult): DayRow[] {
  if (r.daily.length <= 31) return r.daily;
  const firsts = new Set<number>();
  const seen = new Set<string>();
  for (const row of r.daily)
    for (const t of row.tiers)
      if (!seen.has(t.tier)) {
        seen.add(t.tier);
        firsts.add(row.day);
      }
  if (r.summary.first_deletion) firsts.add(r.summary.first_deletion.day + 1);
  firsts.add(r.summary.peak.day);
  return r.daily.filter(
    (row, i) => row.day === 1 || row.day % 7 === 0 || firsts.has(row.day) || i === r.daily.length - 1,
  );
}

function dayTable(r: SimulationResult): string[] {
  const rows = shownDays(r).map((row) => {
    const cells: Record<string, string> = { day: String(row.day) };
    for (const t of row.tiers) cells[t.tier] = `${t.indices} · ${humanBytes(t.primary_bytes)}`;
    cells.primary = humanBytes(row.total.primary_bytes);
    cells['with replicas'] = humanBytes(row.total.total_bytes);
    return cells;
  });
  const placements = new Map<string, Set<string>>();
  for (const row of r.daily)
    for (const t of row.tiers)
      for (const place of t.placement ?? [])
        placements.set(t.tier, (placements.get(t.tier) ?? new Set()).add(place));
  const where = [...placements].map(([tier, places]) => `${tier} on ${[...places].join(', ')}`);
  // Tiers an index only passes through within a pass (a delete state) never hold one at a day's end.
  const held = r.tiers.filter((tier) => r.daily.some((row) => row.tiers.some((t) => t.tier === tier)));
  return [
    `Per day (end of day; each tier: indices · primary size)${r.daily.length > 31 ? ', weekly and on the days a tier first fills' : ''}:`,
    ...table(rows, ['day', ...held, 'primary', 'with replicas'])
      .split('\n')
      .map((l) => `  ${l}`),
    ...(where.length ? [`  placement: ${where.join('; ')}`] : []),
  ];
}

function summaryLines(r: SimulationResult): string[] {
  const s = r.summary;
  const out = [
    `Summary: ${int(s.indices_created)} indices created, ${int(s.indices_deleted)} deleted` +
      (s.first_rollover ? `; first rollover ${when(s.first_rollover)}` : '; no rollover') +
      (s.first_deletion
        ? `; first deletion ${when(s.first_deletion)} (${s.first_deletion.index})`
        : '; nothing deleted'),
    `  peak: day ${s.peak.day}, ${s.peak.indices} indices, ${humanBytes(s.peak.primary_bytes)} primary, ${humanBytes(s.peak.total_bytes)} with replicas`,
  ];
  if (s.steady_state)
    out.push(
      `  steady state (average from day ${s.steady_state.from_day}): ` +
        s.steady_state.tiers
          .map(
            (t) =>
              `${t.tier} ${t.indices} indices ${humanBytes(t.primary_bytes)} (${humanBytes(t.total_bytes)} with replicas)`,
          )
          .join('; ') +
        `; total ${humanBytes(s.steady_state.total_bytes)}`,
    );
  else if (!s.first_deletion) out.push(`  no steady state: nothing is deleted within ${r.days} days`);
  if (s.failures) out.push(`  ${s.failures} failed action attempts (see Failures)`);
  return out;
}
