/**
 * Key insights: short sentences a data analyst would write after profiling, each computed from the
 * measurements (sizes, date coverage, NULL hot spots, dominant categories, join health).
 */
import type { TableProfileReport } from './data-profile-types';
import { factTables } from './profile-scoring';
import { categoricalColumns, fmt, pct, type ProfileFacts } from './profile-facts';

const MAX_INSIGHTS = 12;

function largestTables(facts: ProfileFacts): string | undefined {
  const total = facts.tables.reduce((n, t) => n + t.row_count, 0);
  if (!total) return undefined;
  const top = [...facts.tables].sort((a, b) => b.row_count - a.row_count).slice(0, 3);
  const share = top.reduce((n, t) => n + t.row_count, 0) / total;
  return (
    `Largest tables: ${top.map((t) => `${t.table} (${fmt(t.row_count)} rows)`).join(', ')}; ` +
    `together ${pct(share)} of the ${fmt(total)} rows in ${facts.tables.length} tables.`
  );
}

function dateCoverage(t: TableProfileReport): string | undefined {
  const r = t.time_range;
  if (!r) return undefined;
  const gap = r.longest_gap;
  return (
    `${t.table}.${r.column} runs from ${r.min} to ${r.max} (${fmt(r.days)} days), with rows on ` +
    `${fmt(r.active_days)} days (${pct(r.days ? r.active_days / r.days : 0)})` +
    (gap ? `; the longest gap without rows is ${fmt(gap.days)} days (${gap.from} to ${gap.to}).` : '.')
  );
}

function nullHotSpots(facts: ProfileFacts): string | undefined {
  const cols = facts.tables
    .flatMap((t) => t.columns.map((c) => ({ t, c })))
    .filter(({ c }) => c.null_count > 0)
    .sort((a, b) => b.c.null_rate - a.c.null_rate || b.c.null_count - a.c.null_count)
    .slice(0, 4);
  if (!cols.length) return 'No column of any table contains NULLs.';
  return `Most NULLs: ${cols
    .map(
      ({ t, c }) => `${t.table}.${c.name} ${pct(c.null_rate)} (${fmt(c.null_count)} of ${fmt(t.row_count)})`,
    )
    .join(', ')}.`;
}

/**
 * The dominant values of up to three categorical columns: text before numbers, facts and dimensions
 * first, one column per table before a second one from the same table.
 */
function topCategories(facts: ProfileFacts): string[] {
  const rank = (t: TableProfileReport) => (t.role === 'other' ? 1 : 0);
  const candidates = facts.tables
    .flatMap((t) => categoricalColumns(t, facts.metas.get(t.table)).map((c) => ({ t, c })))
    .filter(({ c }) => c.frequent_values.length >= 2)
    .sort(
      (a, b) =>
        Number(!/^(VARCHAR|ENUM)/.test(a.c.type)) - Number(!/^(VARCHAR|ENUM)/.test(b.c.type)) ||
        rank(a.t) - rank(b.t) ||
        b.t.row_count - a.t.row_count,
    );
  const firstOfTable = candidates.filter((x, i) => candidates.findIndex((y) => y.t === x.t) === i);
  const picked = [...firstOfTable, ...candidates.filter((x) => !firstOfTable.includes(x))].slice(0, 3);
  return picked.map(({ t, c }) => {
    const nonNull = t.row_count - c.null_count;
    const approx = t.sampled_rows ? '≈' : '';
    return (
      `${t.table}.${c.name} has ${c.distinct_count} values; most frequent: ` +
      c.frequent_values
        .map((v) => `${v.value} ${approx}${fmt(v.count)} (${pct(nonNull ? v.count / nonNull : 0)})`)
        .join(', ') +
      '.'
    );
  });
}

function joinHealth(facts: ProfileFacts): string[] {
  const out: string[] = [];
  const orphans = facts.relations.filter((r) => r.checked_rows > 0 && r.match_rate < 1);
  for (const r of orphans.slice(0, 3)) {
    const missing = Math.round(r.checked_rows * (1 - r.match_rate));
    out.push(
      `${pct(1 - r.match_rate)} of ${r.from_table}.${r.from_column} values (${fmt(missing)} of ${fmt(r.checked_rows)} rows) ` +
        `have no match in ${r.to_table}.${r.to_column}.`,
    );
  }
  const checked = facts.relations.filter((r) => r.checked_rows > 0);
  if (checked.length && !orphans.length) {
    const rows = checked.reduce((n, r) => n + r.checked_rows, 0);
    out.push(
      `All ${checked.length} relations with values resolve fully: ${fmt(rows)} referencing rows, no orphans.`,
    );
  }
  for (const r of facts.relations.filter((x) => x.evidence === 'foreign_key' && x.checked_rows === 0)) {
    out.push(`${r.from_table}.${r.from_column} is declared to reference ${r.to_table} but holds no values.`);
  }
  const inferred = facts.relations.filter((r) => r.evidence !== 'foreign_key');
  if (inferred.length)
    out.push(
      `Undeclared relations found from names and values: ${inferred
        .slice(0, 3)
        .map(
          (r) =>
            `${r.from_table}.${r.from_column} → ${r.to_table}.${r.to_column} (confidence ${r.confidence})`,
        )
        .join(', ')}.`,
    );
  return out;
}

function brokenKeys(facts: ProfileFacts): string[] {
  return facts.keyChecks
    .filter((k) => k.duplicate_rows > 0 || k.null_key_rows > 0)
    .map(
      (k) =>
        `${k.table} primary key (${k.key.join(', ')}) has ${fmt(k.duplicate_rows)} duplicate and ${fmt(k.null_key_rows)} NULL-key rows.`,
    );
}

/** At most twelve insights, most useful first: size, dates, broken keys, NULLs, categories, joins. */
export function keyInsights(facts: ProfileFacts): string[] {
  const timed = factTables(facts).filter((t) => t.time_range);
  const insights = [
    largestTables(facts),
    ...(timed.length ? timed : facts.tables).map(dateCoverage),
    ...brokenKeys(facts),
    nullHotSpots(facts),
    ...topCategories(facts),
    ...joinHealth(facts),
  ];
  return insights.filter((s): s is string => !!s).slice(0, MAX_INSIGHTS);
}
