/**
 * The six scored dimensions of the data profile and the overall score. Every formula is written
 * next to its code and repeated, with the measured inputs, in the dimension's explanation.
 */
import type { ProfileDimension, TableProfileReport } from './data-profile-types';
import { categoricalColumns, descriptiveColumns, fmt, pct, plural, type ProfileFacts } from './profile-facts';

/** Weights sum to 1: quality and completeness matter most for trusting any number built on top. */
export const DIMENSION_WEIGHTS = {
  data_quality: 0.25,
  completeness: 0.2,
  dimension_richness: 0.15,
  time_span: 0.15,
  relational_integrity: 0.15,
  volume: 0.1,
} as const;

/** Two years of history score full marks on span: enough for year-over-year comparison. */
const FULL_SPAN_DAYS = 730;
/** A million fact rows score full marks on volume. */
const FULL_VOLUME_ROWS = 1_000_000;
/** A dimension with three descriptive attributes, and six categorical slicers overall, score full marks. */
const RICH_DIMENSION_ATTRIBUTES = 3;
const FULL_SLICERS = 6;

const clamp100 = (x: number) => Math.max(0, Math.min(100, Math.round(x)));

function dimension(name: ProfileDimension['name'], score: number, explanation: string): ProfileDimension {
  return { name, score: clamp100(score), weight: DIMENSION_WEIGHTS[name], explanation };
}

/** Fact tables as the PRD names them; every table when the PRD names none present in ODS. */
export function factTables(facts: ProfileFacts): TableProfileReport[] {
  const f = facts.tables.filter((t) => t.role === 'fact');
  return f.length ? f : facts.tables;
}

/**
 * data_quality. With the governance stage's rule results:
 *   100 × rules_passed / rules_total − 10 × blocking_failed.
 * Without them, measured on ODS:
 *   100 × (0.6 × tables whose primary key is unique and non-NULL / tables with a key
 *        + 0.4 × NOT NULL source columns without NULLs in ODS / NOT NULL source columns).
 */
export function dataQuality(facts: ProfileFacts): ProfileDimension {
  const q = facts.quality;
  if (q && q.rules_total > 0) {
    const score = (100 * q.rules_passed) / q.rules_total - 10 * q.blocking_failed;
    return dimension(
      'data_quality',
      score,
      `${q.rules_passed} of ${q.rules_total} quality rules passed (${pct(q.rules_passed / q.rules_total)}), ` +
        `${q.blocking_failed} blocking rule(s) failed (−10 each).`,
    );
  }
  const keyed = facts.keyChecks;
  const cleanKeys = keyed.filter((k) => k.duplicate_rows === 0 && k.null_key_rows === 0);
  const notNull = facts.tables.flatMap((t) => {
    const meta = facts.metas.get(t.table);
    return t.columns
      .filter((c) => meta?.source.columns.find((s) => s.name === c.name)?.nullable === false)
      .map((c) => ({ table: t.table, column: c }));
  });
  const violated = notNull.filter((n) => n.column.null_count > 0);
  const keyShare = keyed.length ? cleanKeys.length / keyed.length : 1;
  const notNullShare = notNull.length ? (notNull.length - violated.length) / notNull.length : 1;
  const bad = keyed.filter((k) => !cleanKeys.includes(k));
  return dimension(
    'data_quality',
    100 * (0.6 * keyShare + 0.4 * notNullShare),
    `No quality-rule results yet, so measured on ODS: ${cleanKeys.length} of ${keyed.length} primary keys are unique and non-NULL` +
      (bad.length ? ` (broken: ${bad.map((k) => `${k.table}.${k.key.join('+')}`).join(', ')})` : '') +
      `; ${notNull.length - violated.length} of ${notNull.length} columns declared NOT NULL in the source hold no NULLs` +
      (violated.length
        ? ` (NULLs in ${violated
            .slice(0, 3)
            .map((v) => `${v.table}.${v.column.name}`)
            .join(', ')})`
        : '') +
      '. Score = 100 × (0.6 × key share + 0.4 × NOT NULL share).',
  );
}

/** completeness: 100 × mean over all columns of (1 − NULL rate), so one empty column counts as much as a full one. */
export function completeness(facts: ProfileFacts): ProfileDimension {
  const columns = facts.tables.flatMap((t) => t.columns.map((c) => ({ t, c })));
  const mean = columns.length ? columns.reduce((s, { c }) => s + (1 - c.null_rate), 0) / columns.length : 0;
  const complete = columns.filter(({ c }) => c.null_count === 0).length;
  const empty = columns.filter(({ t, c }) => t.row_count > 0 && c.null_rate === 1);
  const cells = facts.tables.reduce((n, t) => n + t.row_count * t.field_count, 0);
  const nullCells = facts.tables.reduce((n, t) => n + t.columns.reduce((m, c) => m + c.null_count, 0), 0);
  return dimension(
    'completeness',
    100 * mean,
    `${complete} of ${columns.length} columns have no NULLs; mean column fill is ${pct(mean)}` +
      (empty.length
        ? `; ${plural(empty.length, 'column is', 'columns are')} entirely NULL (${empty
            .slice(0, 3)
            .map(({ t, c }) => `${t.table}.${c.name}`)
            .join(', ')})`
        : '') +
      `; ${fmt(nullCells)} of ${fmt(cells)} cells (${pct(cells ? nullCells / cells : 0)}) are NULL overall.`,
  );
}

/**
 * dimension_richness, over the PRD's dimension tables:
 *   100 × (0.6 × mean over dimensions of min(1, descriptive attributes / 3)
 *        + 0.4 × min(1, categorical slicers across dimensions / 6)).
 * Descriptive: not a key, not audit, not binary, at least two values. Slicer: descriptive with
 * 2–50 values of a groupable type (e.g. film.rating).
 */
export function dimensionRichness(facts: ProfileFacts): ProfileDimension {
  const dims = facts.tables.filter((t) => t.role === 'dimension');
  if (!dims.length)
    return dimension(
      'dimension_richness',
      0,
      'The PRD names no dimension table present in ODS: nothing to slice facts by.',
    );
  const attrs = dims.map((t) => ({ t, n: descriptiveColumns(t, facts.metas.get(t.table)).length }));
  const slicers = dims.flatMap((t) =>
    categoricalColumns(t, facts.metas.get(t.table)).map((c) => `${t.table}.${c.name} (${c.distinct_count})`),
  );
  const meanRich = attrs.reduce((s, a) => s + Math.min(1, a.n / RICH_DIMENSION_ATTRIBUTES), 0) / attrs.length;
  const thin = attrs.filter((a) => a.n < RICH_DIMENSION_ATTRIBUTES);
  return dimension(
    'dimension_richness',
    100 * (0.6 * meanRich + 0.4 * Math.min(1, slicers.length / FULL_SLICERS)),
    `${plural(dims.length, 'dimension table')} ${dims.length === 1 ? 'carries' : 'carry'} ${plural(
      attrs.reduce((n, a) => n + a.n, 0),
      'descriptive attribute',
    )} ` +
      `(${dims.length - thin.length} have ${RICH_DIMENSION_ATTRIBUTES} or more` +
      (thin.length ? `; thin: ${thin.map((a) => `${a.t.table} (${a.n})`).join(', ')}` : '') +
      `) and ${plural(slicers.length, 'categorical slicer')} with 2–50 values` +
      (slicers.length ? ` (${slicers.slice(0, 5).join(', ')}${slicers.length > 5 ? ', …' : ''})` : '') +
      `. Score = 100 × (0.6 × attribute coverage ${pct(meanRich)} + 0.4 × min(1, slicers / ${FULL_SLICERS})).`,
  );
}

/**
 * time_span, on the fact table with the longest event history:
 *   100 × (0.7 × min(1, ln(1 + days) / ln(1 + 730)) + 0.3 × active days / days).
 * Log scale: the first months matter most; density penalizes long spans with empty gaps.
 */
export function timeSpan(facts: ProfileFacts): ProfileDimension {
  const timed = factTables(facts).filter((t) => t.time_range);
  const pool = timed.length ? timed : facts.tables.filter((t) => t.time_range);
  if (!pool.length)
    return dimension(
      'time_span',
      0,
      'No table has a business date or timestamp column: no trend analysis is possible.',
    );
  const best = pool.reduce((a, b) => (b.time_range!.days > a.time_range!.days ? b : a));
  const r = best.time_range!;
  const spanShare = Math.min(1, Math.log(1 + r.days) / Math.log(1 + FULL_SPAN_DAYS));
  const density = r.days ? r.active_days / r.days : 0;
  return dimension(
    'time_span',
    100 * (0.7 * spanShare + 0.3 * density),
    `${best.table}.${r.column} runs from ${r.min} to ${r.max}: ${fmt(r.days)} calendar days, ` +
      `${fmt(r.active_days)} of them with rows (${pct(density)}). ` +
      `Score = 100 × (0.7 × log-span share ${pct(spanShare)} of ${FULL_SPAN_DAYS} days + 0.3 × density).`,
  );
}

/**
 * relational_integrity:
 *   100 × (0.7 × mean match rate of the reported relations that have values to check
 *        + 0.3 × tables taking part in at least one relation / tables).
 * A single table has nothing to join and scores 100.
 */
export function relationalIntegrity(facts: ProfileFacts): ProfileDimension {
  const n = facts.tables.length;
  if (n <= 1) return dimension('relational_integrity', 100, 'A single table: there is nothing to join.');
  const checked = facts.relations.filter((r) => r.checked_rows > 0);
  const meanMatch = checked.length ? checked.reduce((s, r) => s + r.match_rate, 0) / checked.length : 0;
  const linked = new Set(facts.relations.flatMap((r) => [r.from_table, r.to_table]));
  const connected = facts.tables.filter((t) => linked.has(t.table)).length;
  const orphans = checked.filter((r) => r.match_rate < 1);
  const isolated = facts.tables.filter((t) => !linked.has(t.table)).map((t) => t.table);
  return dimension(
    'relational_integrity',
    100 * (0.7 * meanMatch + 0.3 * (connected / n)),
    `${plural(facts.relations.length, 'relation')} (${facts.relations.filter((r) => r.evidence === 'foreign_key').length} declared, ` +
      `${facts.relations.filter((r) => r.evidence !== 'foreign_key').length} inferred); mean match rate ${pct(meanMatch)} over ` +
      `${checked.length} with values` +
      (orphans.length ? `, ${orphans.length} with orphan rows` : ', no orphan rows') +
      `; ${connected} of ${n} tables are connected` +
      (isolated.length ? ` (isolated: ${isolated.slice(0, 4).join(', ')})` : '') +
      '. Score = 100 × (0.7 × mean match + 0.3 × connected share).',
  );
}

/** volume: 100 × min(1, log10(1 + fact rows) / 6), i.e. a million fact rows score 100, 1,000 rows score 50. */
export function volume(facts: ProfileFacts): ProfileDimension {
  const f = factTables(facts);
  const rows = f.reduce((s, t) => s + t.row_count, 0);
  const total = facts.tables.reduce((s, t) => s + t.row_count, 0);
  const label = facts.tables.some((t) => t.role === 'fact') ? 'fact rows' : 'rows (no fact table named)';
  return dimension(
    'volume',
    100 * Math.min(1, Math.log10(1 + rows) / Math.log10(FULL_VOLUME_ROWS)),
    `${fmt(rows)} ${label} (${[...f]
      .sort((a, b) => b.row_count - a.row_count)
      .slice(0, 4)
      .map((t) => `${t.table} ${fmt(t.row_count)}`)
      .join(', ')}) of ${fmt(total)} rows in ${facts.tables.length} tables; ` +
      `${fmt(FULL_VOLUME_ROWS)} fact rows would score 100 (log scale).`,
  );
}

/** The six dimensions in report order. */
export function scoreDimensions(facts: ProfileFacts): ProfileDimension[] {
  return [
    dataQuality(facts),
    completeness(facts),
    dimensionRichness(facts),
    timeSpan(facts),
    relationalIntegrity(facts),
    volume(facts),
  ];
}

/** overall = round(Σ weight × dimension score), weights summing to 1. */
export function overallScore(dimensions: ProfileDimension[]): number {
  return clamp100(dimensions.reduce((s, d) => s + d.weight * d.score, 0));
}
