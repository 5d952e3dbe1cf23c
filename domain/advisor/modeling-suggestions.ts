/**
 * DWS/ADS modeling suggestions derived from the profile: for each fact table, the dimensions it can
 * be cut by (following relations up to two hops to a categorical attribute), the entities worth a
 * per-entity summary, the time rollups its span supports, and a date spine when activity has gaps.
 */
import { measuresOf } from '../agents/offline-analyst/table-roles';
import type { ModelingSuggestion, RelationReport, TableProfileReport } from './data-profile-types';
import { categoricalColumns, fmt, MAX_CATEGORY_VALUES, pct, type ProfileFacts } from './profile-facts';

const MAX_SLICES_PER_FACT = 3;
const MAX_SUGGESTIONS = 16;
/** Spans longer than this earn a monthly rollup; longer than WEEKLY_MIN_DAYS a weekly one. */
const MONTHLY_MIN_DAYS = 90;
const WEEKLY_MIN_DAYS = 14;
/** Below this share of active days, charts need a calendar to show the empty days. */
const SPINE_MAX_DENSITY = 0.5;

interface Slice {
  path: RelationReport[];
  table: TableProfileReport;
  column: string;
  values: number;
  top: string;
}

const stem = (t: string) => t.replace(/^ods_/, '');

/**
 * Cuts of a fact: categorical attributes reachable through one or two relations to non-fact tables
 * (rental → inventory → film.rating), and, after those, the fact's own references with few values
 * (rental.staff_id: 2 staff).
 */
function reachableSlices(fact: TableProfileReport, facts: ProfileFacts): Slice[] {
  const byName = new Map(facts.tables.map((t) => [t.table, t]));
  const attributes: Slice[] = [];
  const visit = (from: string, path: RelationReport[]) => {
    for (const r of facts.relations.filter((x) => x.from_table === from)) {
      const to = byName.get(r.to_table);
      if (!to || to.role === 'fact' || to === fact || path.some((p) => p.to_table === to.table)) continue;
      const next = [...path, r];
      for (const c of categoricalColumns(to, facts.metas.get(to.table))) {
        if ((c.distinct_count ?? 0) < 3) continue; // two-valued flags are filters, not cuts
        const top = c.frequent_values[0];
        attributes.push({
          path: next,
          table: to,
          column: c.name,
          values: c.distinct_count!,
          top: top ? `${top.value} leads with ${fmt(top.count)} of ${fmt(to.row_count)}` : '',
        });
      }
      if (next.length < 2) visit(to.table, next);
    }
  };
  visit(fact.table, []);
  // Text before codes, fewer hops, then fewer values: a short list of labels reads best in a chart.
  const isText = (s: Slice) => /^VARCHAR/.test(s.table.columns.find((c) => c.name === s.column)!.type);
  attributes.sort(
    (a, b) => Number(isText(b)) - Number(isText(a)) || a.path.length - b.path.length || a.values - b.values,
  );
  const references: Slice[] = facts.relations
    .filter((r) => r.from_table === fact.table && byName.get(r.to_table)?.role !== 'fact')
    .map((r) => ({ r, col: fact.columns.find((c) => c.name === r.from_column) }))
    .filter(({ col }) => (col?.distinct_count ?? 0) >= 2 && (col?.distinct_count ?? 0) <= MAX_CATEGORY_VALUES)
    .map(({ r, col }) => ({
      path: [r],
      table: fact,
      column: col!.name,
      values: col!.distinct_count!,
      top: col!.frequent_values[0]
        ? `${col!.frequent_values[0].value} leads with ${fmt(col!.frequent_values[0].count)} of ${fmt(fact.row_count)}`
        : '',
    }));
  return [...attributes, ...references];
}

const joinText = (path: RelationReport[]) =>
  path
    .map((r) => `${r.from_table}.${r.from_column} → ${r.to_table} (${pct(r.match_rate)} match)`)
    .join(', then ');

function measureText(fact: TableProfileReport, facts: ProfileFacts): { measures: string[]; text: string } {
  const meta = facts.metas.get(fact.table);
  const measures = meta ? measuresOf(meta.source).filter((m) => fact.columns.some((c) => c.name === m)) : [];
  return { measures, text: ['COUNT(*)', ...measures.map((m) => `SUM(${m})`)].join(', ') };
}

function sliceSuggestions(fact: TableProfileReport, facts: ProfileFacts): ModelingSuggestion[] {
  const { text } = measureText(fact, facts);
  const seen = new Set<string>();
  return reachableSlices(fact, facts)
    .filter((s) => !seen.has(s.column) && !!seen.add(s.column))
    .slice(0, MAX_SLICES_PER_FACT)
    .map((s) => ({
      layer: 'dws' as const,
      title: `dws_${stem(fact.table)}_by_${s.column}_daily: ${fact.table} by ${s.table.table}.${s.column} per day`,
      rationale:
        `${s.table.table}.${s.column} has ${s.values} values${s.top ? ` (${s.top})` : ''}, a readable cut of ` +
        `${fmt(fact.row_count)} ${fact.table} rows; join ${joinText(s.path)}; aggregate ${text}.`,
    }));
}

/** Entities (customers, stores…) with enough rows each for a per-entity summary. */
function entitySuggestions(fact: TableProfileReport, facts: ProfileFacts): ModelingSuggestion[] {
  const { text } = measureText(fact, facts);
  return facts.relations
    .filter((r) => r.from_table === fact.table && !r.from_column.includes(','))
    .map((r) => ({ r, col: fact.columns.find((c) => c.name === r.from_column)! }))
    .filter(({ r, col }) => {
      const target = facts.tables.find((t) => t.table === r.to_table);
      const n = col?.distinct_count ?? 0;
      return target?.role !== 'fact' && n >= 10 && n <= fact.row_count / 5;
    })
    .sort((a, b) => (b.col.distinct_count ?? 0) - (a.col.distinct_count ?? 0))
    .slice(0, 1)
    .map(({ r, col }) => ({
      layer: 'dws' as const,
      title: `dws_${stem(r.to_table)}_${stem(fact.table)}_summary: ${fact.table} per ${r.to_table}`,
      rationale:
        `${fmt(fact.row_count)} ${fact.table} rows spread over ${fmt(col.distinct_count!)} distinct ${r.from_column} ` +
        `(${(fact.row_count / col.distinct_count!).toFixed(1)} rows each on average): enough history per ${stem(r.to_table)} ` +
        `for lifetime ${text}, first and last ${fact.time_range?.column ?? 'activity'}.`,
    }));
}

/** Links between two fact tables (payment → rental) deserve a joined summary. */
function factLinkSuggestions(fact: TableProfileReport, facts: ProfileFacts): ModelingSuggestion[] {
  return facts.relations
    .filter((r) => r.from_table === fact.table)
    .filter((r) => facts.tables.find((t) => t.table === r.to_table)?.role === 'fact')
    .map((r) => ({
      layer: 'dws' as const,
      title: `dws_${stem(r.to_table)}_${stem(fact.table)}: ${r.to_table} joined with ${fact.table}`,
      rationale:
        `${fact.table}.${r.from_column} references ${r.to_table}.${r.to_column} (${pct(r.match_rate)} of ` +
        `${fmt(r.checked_rows)} rows match): one row per ${stem(r.to_table)} with its ${fact.table} totals ` +
        `(${measureText(fact, facts).text}) links the two processes.`,
    }));
}

function timeSuggestions(fact: TableProfileReport, facts: ProfileFacts): ModelingSuggestion[] {
  const r = fact.time_range;
  if (!r) return [];
  const { text } = measureText(fact, facts);
  const base = stem(fact.table);
  const out: ModelingSuggestion[] = [];
  const months = monthsBetween(r.min, r.max);
  if (r.days > MONTHLY_MIN_DAYS)
    out.push({
      layer: 'ads',
      title: `ads_${base}_monthly: ${fact.table} KPIs per month`,
      rationale: `${fact.table}.${r.column} spans ${fmt(r.days)} days (${months} calendar months, ${r.min.slice(0, 10)} to ${r.max.slice(0, 10)}), more than ${MONTHLY_MIN_DAYS}: a monthly rollup of ${text} shows the trend without daily noise.`,
    });
  if (r.days > WEEKLY_MIN_DAYS)
    out.push({
      layer: 'ads',
      title: `ads_${base}_weekly: ${fact.table} KPIs per week`,
      rationale: `${Math.ceil(r.days / 7)} weeks of ${fact.table} history: a weekly rollup of ${text} smooths weekday effects.`,
    });
  else
    out.push({
      layer: 'ads',
      title: `ads_${base}_daily: ${fact.table} KPIs per day`,
      rationale: `Only ${r.days} days of ${fact.table} history: daily ${text} is the coarsest useful grain.`,
    });
  const density = r.days ? r.active_days / r.days : 1;
  if (density < SPINE_MAX_DENSITY)
    out.push({
      layer: 'ads',
      title: `ads_${base}_daily over a calendar spine`,
      rationale:
        `${fact.table} has rows on only ${fmt(r.active_days)} of ${fmt(r.days)} days (${pct(density)})` +
        (r.longest_gap
          ? `, with a ${fmt(r.longest_gap.days)}-day gap from ${r.longest_gap.from} to ${r.longest_gap.to}`
          : '') +
        ': build the daily ADS from a generated calendar LEFT JOINed to the facts so empty days show 0 instead of disappearing from charts.',
    });
  return out;
}

function monthsBetween(min: string, max: string): number {
  const [y1, m1] = min.split('-').map(Number);
  const [y2, m2] = max.split('-').map(Number);
  return (y2 - y1) * 12 + (m2 - m1) + 1;
}

/** Without fact tables: cut the largest table by its best categorical column. */
function fallbackSuggestions(facts: ProfileFacts): ModelingSuggestion[] {
  const t = [...facts.tables].sort((a, b) => b.row_count - a.row_count)[0];
  const c = t && categoricalColumns(t, facts.metas.get(t.table))[0];
  if (!t || !c) return [];
  return [
    {
      layer: 'dws',
      title: `dws_${stem(t.table)}_by_${c.name}: ${t.table} counts by ${c.name}`,
      rationale: `No fact table was identified; ${t.table} is the largest table (${fmt(t.row_count)} rows) and ${c.name} has ${c.distinct_count} values.`,
    },
  ];
}

/** Suggestions per fact table (largest first), at most sixteen; a single fallback without facts. */
export function modelingSuggestions(facts: ProfileFacts): ModelingSuggestion[] {
  const factList = facts.tables.filter((t) => t.role === 'fact').sort((a, b) => b.row_count - a.row_count);
  if (!factList.length) return fallbackSuggestions(facts);
  const out = factList.flatMap((f) => [
    ...sliceSuggestions(f, facts),
    ...entitySuggestions(f, facts),
    ...factLinkSuggestions(f, facts),
    ...timeSuggestions(f, facts),
  ]);
  return out.slice(0, MAX_SUGGESTIONS);
}
