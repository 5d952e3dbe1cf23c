/**
 * Coordinate ascent on a ranking metric (Metzler & Croft, "Linear feature-based models for
 * information retrieval", 2007), for the reranker's weights (bench/locomo-fit.ts): a logistic fit
 * learns what a candidate that answers looks like, but what search needs is the order within each
 * question, so its weights are then moved one at a time, over a fixed grid of factors, while the
 * dev questions' recall@10 rises. Deterministic; every weight stays >= 0.
 */
import { rerankScore, type RerankModel } from '../../domain/memory/search/rerank';
import { RERANK_FEATURES, type RerankFeatures } from '../../domain/memory/search/rerank-features';

/** One question's candidates: what the reranker reads and whether each answers. */
export interface RankQuestion {
  rows: { rerank: RerankFeatures; evidence: boolean }[];
  /** Evidence memories of the question (some may not be candidates). */
  evidence: number;
}

/** Factors tried on a weight (0 drops the feature; a dropped feature is tried at these values). */
const FACTORS = [0, 0.25, 0.5, 0.8, 1.25, 2, 4];
const MAX_ROUNDS = 6;

/** Mean recall@k of the questions ranked by the model (ties keep the candidates' order). */
export function meanRecall(questions: RankQuestion[], model: RerankModel, k = 10): number {
  if (!questions.length) return 0;
  let sum = 0;
  for (const q of questions) {
    const score = q.rows.map((r) => rerankScore(r.rerank, model));
    const top = score
      .map((_, i) => i)
      .sort((a, b) => score[b] - score[a] || a - b)
      .slice(0, k);
    sum += top.filter((i) => q.rows[i].evidence).length / q.evidence;
  }
  return sum / questions.length;
}

/** `start` moved one weight at a time while recall@10 on `questions` rises; rounds until none does. */
export function ascendRecall(questions: RankQuestion[], start: RerankModel): RerankModel {
  let model = start;
  let best = meanRecall(questions, model);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let improved = false;
    for (const name of RERANK_FEATURES) {
      for (const factor of FACTORS) {
        const current = model.weights[name] ?? 0;
        const weight = current > 0 ? current * factor : factor;
        if (weight === current) continue;
        const candidate = { ...model, weights: { ...model.weights, [name]: weight } };
        const recall = meanRecall(questions, candidate);
        if (recall > best + 1e-9) {
          best = recall;
          model = candidate;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return model;
}
