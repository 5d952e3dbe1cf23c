/**
 * The fitted reranker (docs/memory-search.md#reranking), written by
 * `BENCH_WRITE=1 npm run bench:locomo-fit`: a logistic model of "this candidate answers the
 * question" over its rerank features, fitted on LoCoMo conversations 1–3 (495 questions),
 * every weight held >= 0.
 */
import type { RerankModel } from './rerank';

export const RERANK: RerankModel = {
  intercept: -9.0995,
  weights: {
    fused: 0,
    semantic: 6.5187,
    lexical: 0.919466,
    coverage: 2.80258,
    entity: 0,
    proximity: 0.292122,
    named: 0.868984,
    time: 1.74226,
    neighbour: 2.7904,
  },
};
