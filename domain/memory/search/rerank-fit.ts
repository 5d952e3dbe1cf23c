/**
 * The fitted reranker (docs/memory-search.md#reranking), written by
 * `BENCH_WRITE=1 npm run bench:locomo-fit`: a logistic model of "this candidate answers the
 * question" over its rerank features, fitted on LoCoMo conversations 1–3 (495 questions),
 * every weight held >= 0.
 */
import type { RerankModel } from './rerank';

export const RERANK: RerankModel = {"intercept":-19.5569,"weights":{"fused":0,"semantic":15.9522,"lexical":0.808996,"coverage":3.64365,"entity":0,"proximity":0.287732,"named":0.826541,"time":1.22949,"neighbour":2.50403}};
