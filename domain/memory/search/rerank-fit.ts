/**
 * The fitted reranker (docs/memory-search.md#reranking), written by
 * `BENCH_WRITE=1 npm run bench:locomo-fit`: a logistic model of "this candidate answers the
 * question" over its rerank features, fitted on LoCoMo conversations 1–3 (495 questions),
 * every weight held >= 0, then coordinate ascent of the weights on those questions' recall@10.
 */
import type { RerankModel } from './rerank';

export const RERANK: RerankModel = {
  intercept: -13.687,
  weights: {
    fused: 1,
    semantic: 20.9498,
    lexical: 2.18692,
    coverage: 0.937424,
    entity: 0,
    proximity: 0.722313,
    named: 0.946713,
    time: 0.507787,
    neighbour: 7.2865,
    statement: 1.8516,
    detail: 1.87994,
    attribute: 0.742177,
  },
};
