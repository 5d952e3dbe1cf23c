/**
 * The feature-based reranker of hybrid search (docs/memory-search.md#reranking): a weighted mean of
 * a candidate's rerank features (rerank-features.ts), the weights fitted on LoCoMo's dev
 * conversations by `npm run bench:locomo-fit` (a logistic model, then coordinate ascent on recall;
 * rerank-fit.ts, each >= 0). Its output replaces the fused relevance as what calibration reads.
 * Pure, for exact unit tests.
 */
import { RERANK_FEATURES, type RerankFeatures } from './rerank-features';

export interface RerankModel {
  intercept: number;
  /** Per feature; a missing one weighs 0. */
  weights: Partial<Record<keyof RerankFeatures, number>>;
}

/**
 * The reranked relevance in [0, 1]: the model's logit rescaled so that a candidate with every
 * feature 0 scores 0 and one with every feature 1 scores 1, that is the weighted mean of the
 * features (negative or non-finite weights count 0). Ordered as the model's probability, but spread
 * like the fused relevance, so calibration compares it across queries as it did the fused one.
 */
export function rerankScore(f: RerankFeatures, m: RerankModel): number {
  let sum = 0;
  let total = 0;
  for (const name of RERANK_FEATURES) {
    const w = m.weights[name];
    if (!w || !Number.isFinite(w) || w <= 0) continue;
    const x = f[name];
    sum += w * (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
    total += w;
  }
  return total > 0 ? sum / total : 0;
}
