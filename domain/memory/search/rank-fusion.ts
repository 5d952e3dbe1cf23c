/**
 * Fusing ranked lists from different signals (dense vectors, a lexical index, entity matches) into
 * one relevance in [0, 1], the score that `min_score` and time decay apply to (issue #14's hybrid
 * retrieval). Pure, for exact unit tests.
 *
 * - `rrf`: reciprocal-rank fusion, Σ wᵢ / (k + rankᵢ), divided by its maximum Σ wᵢ / (k + 1), so a
 *   memory first in every list scores 1. Ranks only: robust to signals whose scores do not compare.
 * - `weighted`: Σ wᵢ · scoreᵢ / Σ wᵢ over relevances already in [0, 1] (a cosine similarity, a
 *   normalized BM25), so the fused score stays absolute and `min_score` keeps its meaning. A memory a
 *   list did not return counts at that list's floor: the caller passes the last score of a list cut
 *   at its pool size (the memory scored at most that), 0 for a list that returned every match.
 */

export interface RankedHit {
  id: string;
  /** The signal's own score, higher is better; in [0, 1] for `weighted`. */
  score: number;
}

export interface FusedHit {
  id: string;
  /** The fused relevance in [0, 1]. */
  score: number;
  /** Each signal's 1-based rank of this memory; absent where the signal did not find it. */
  ranks: (number | undefined)[];
}

export interface FusionOptions {
  method: 'rrf' | 'weighted';
  /** One weight per list (default 1 each). */
  weights?: number[];
  /** RRF's damping constant (default 60, as in Cormack et al.). */
  k?: number;
  /** `weighted`: per list, the score of a memory it did not return (default 0). */
  floors?: number[];
}

export function fuseRankings(lists: RankedHit[][], opts: FusionOptions): FusedHit[] {
  const weights = lists.map((_, i) => opts.weights?.[i] ?? 1);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  if (totalWeight <= 0) return [];
  const k = opts.k ?? 60;
  const fused = new Map<string, FusedHit>();
  lists.forEach((list, li) => {
    // Sorted here, so callers may pass hits in any order; ties keep their given order.
    const sorted = [...list].sort((a, b) => b.score - a.score);
    sorted.forEach((hit, index) => {
      const entry = fused.get(hit.id) ?? { id: hit.id, score: 0, ranks: lists.map(() => undefined) };
      if (entry.ranks[li] !== undefined) return; // a memory counts once per signal
      entry.ranks[li] = index + 1;
      entry.score += opts.method === 'rrf' ? weights[li] / (k + index + 1) : weights[li] * clamp(hit.score);
      fused.set(hit.id, entry);
    });
  });
  if (opts.method === 'weighted') {
    // Absent from a list: that list's floor.
    for (const entry of fused.values())
      entry.ranks.forEach((rank, li) => {
        if (rank === undefined) entry.score += weights[li] * clamp(opts.floors?.[li] ?? 0);
      });
  }
  const max = opts.method === 'rrf' ? totalWeight / (k + 1) : totalWeight;
  return [...fused.values()]
    .map((f) => ({ ...f, score: clamp(f.score / max) }))
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id));
}

/**
 * Ties broken by id, by code units: the same in every process, as a locale's order is, and far
 * cheaper (search sorts ties often: neighbour turns enter fusion at one floor).
 */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const clamp = (x: number) => Math.min(1, Math.max(0, x));
