/**
 * The fitted reranker (docs/memory-search.md#reranking), written by
 * `BENCH_WRITE=1 npm run bench:locomo-fit`: a logistic model of "this candidate answers the
 * question" over its rerank features, fitted on LoCoMo conversations 1–3 (495 questions),
 * every weight held >= 0.
 */
import type { RerankModel } from './rerank';

export const RERANK: RerankModel = {
  intercept: -7.83503,
  weights: {
    fused: 0,
    semantic: 2.15394,
    lexical: 0.995623,
    coverage: 3.71776,
    entity: 0,
    proximity: 0.472256,
    named: 0.915023,
    time: 1.54827,
    neighbour: 2.94677,
  },
};
