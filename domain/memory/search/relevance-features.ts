/**
 * What calibration knows about a candidate at fusion time (docs/memory-search.md#calibration): its
 * fused relevance and where it stands among the query's candidates (its gap to the best and its
 * rank). Pure, for exact unit tests.
 */

/** The features of one candidate; every value finite. */
export interface RelevanceFeatures {
  /** The fused relevance in [0, 1] (search/rank-fusion.ts; in semantic or lexical mode, that signal's). */
  fused: number;
  /** The query's best fused relevance minus this one, in [0, 1]. */
  gap: number;
  /** ln of the 1-based rank by fused relevance (0 for the first). */
  logRank: number;
}

/** The feature names, in the order of a calibration's weights. */
export const FEATURE_NAMES = ['fused', 'gap', 'logRank'] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

const unit = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/**
 * The features of a query's candidates from their fused relevances, given best first (the order
 * fusion returns). A non-finite relevance counts as 0, one outside [0, 1] as the nearest bound.
 */
export function relevanceFeatures(fused: number[]): RelevanceFeatures[] {
  const scores = fused.map(unit);
  const best = scores.reduce((m, s) => Math.max(m, s), 0);
  return scores.map((s, i) => ({ fused: s, gap: best - s, logRank: Math.log(i + 1) }));
}
