/**
 * Hybrid search's last stage (docs/memory-search.md#reranking): fusion's candidates, raised by
 * what neighbour turns pass on, scored by the feature-based reranker, with a neighbour never lifted
 * above the memory it inherits from. Pure, for exact unit tests.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import type { MatchSignals, QueryPlan } from './query-plan';
import type { NeighbourShare } from './neighbour-turns';
import { compareIds } from './rank-fusion';
import { rerankScore } from './rerank';
import { rerankFeatures, type RerankFeatures } from './rerank-features';
import { RERANK } from './rerank-fit';

/** A fused candidate before calibration. */
export interface Fused {
  record: MemoryRecord;
  score: number;
  signals: MatchSignals;
  rerank?: RerankFeatures;
}

/** Fusion's candidates, best first, and the floors an absent memory scores at. */
export interface FusedList {
  candidates: Fused[];
  floors: { semantic: number; lexical: number; fused: number };
}

/**
 * Hybrid's last stage, over the best `pool` candidates by fused relevance raised to any neighbour
 * share (bounded work): the reranker's score over each one's features, or with the stage off that
 * raised relevance itself; best first. What a neighbour inherits never lifts it above the memory it
 * inherits from: a batch of facts stored at one moment are each other's neighbours, and the one the
 * question matches stays first (a neighbour still ranks above it on its own signals).
 */
export function rerankStage(
  plan: Pick<QueryPlan, 'terms' | 'entities' | 'cues' | 'stages'>,
  pool: number,
  f: FusedList,
  shares: Map<string, NeighbourShare>,
): Fused[] {
  const query = { terms: plan.terms, entities: plan.entities, cues: plan.cues };
  const byId = (a: Fused, b: Fused) => b.score - a.score || compareIds(a.record.id, b.record.id);
  const raised = f.candidates
    .map((c) => ({ ...c, fused: c.score, inherited: shares.get(c.record.id) }))
    .map((c) => ({ ...c, score: Math.max(c.fused, c.inherited?.share ?? 0) }))
    .sort(byId)
    .slice(0, Math.max(pool, 1));
  const scored = raised.map(({ fused, inherited, ...c }) => {
    const features = rerankFeatures(
      {
        text: c.record.memory,
        fused,
        semantic: c.signals.semantic ?? f.floors.semantic,
        lexical: c.signals.lexical?.relevance ?? f.floors.lexical,
        inRange: c.signals.time !== undefined,
        neighbour: inherited?.share ?? 0,
      },
      query,
    );
    if (!plan.stages.rerank) return { ...c, rerank: features, inherited, own: c.score };
    const score = rerankScore(features, RERANK);
    const own = inherited ? rerankScore({ ...features, neighbour: 0 }, RERANK) : score;
    return { ...c, score, rerank: features, inherited, own };
  });
  // Best own signals first, so a source's final score is known before the memories that inherit
  // from it (an inheritor that is better on its own is not held back by its source). Two turns
  // that pass shares to each other thus keep the order their own signals give.
  const byOwn = [...scored].sort((a, b) => b.own - a.own || compareIds(a.record.id, b.record.id));
  const final = new Map<string, number>();
  const ownOf = new Map(scored.map((c) => [c.record.id, c.own]));
  const rawOf = new Map(scored.map((c) => [c.record.id, c.score]));
  for (const c of byOwn) {
    const from = c.inherited?.from;
    const sourceOwn = from === undefined ? undefined : ownOf.get(from);
    const source = from === undefined ? undefined : (final.get(from) ?? rawOf.get(from));
    const held = sourceOwn !== undefined && source !== undefined && c.own <= sourceOwn && c.score >= source;
    // Just below its source, unless its own signals rank it higher.
    final.set(c.record.id, held ? Math.max(c.own, source - 1e-9) : c.score);
  }
  return scored
    .map(({ inherited: _inherited, own: _own, ...c }) => ({ ...c, score: final.get(c.record.id)! }))
    .sort(byId);
}
