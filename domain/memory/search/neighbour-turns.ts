/**
 * Neighbour turns (docs/memory-search.md#neighbours): the answer to a question is often one turn
 * away from the memory that matches it ("Did you like it?" … "Loved it, the hike was worth it"),
 * so memories created just before or after a strong candidate, in the same scope and close in time,
 * get a share of its relevance. Pure, for exact unit tests; the store answers who the neighbours are.
 */
import type { MemoryRecord } from '../../../shared/memory-model';

/** What a neighbour needs to be weighed: its id, scope and creation time. */
export type NeighbourRecord = Pick<MemoryRecord, 'id' | 'agent_id' | 'run_id' | 'created_at'>;

export interface NeighbourOptions {
  /** The share of a source's relevance its nearest neighbour gets; the next one share², … */
  share: number;
  /** Neighbours further apart in time than this are another conversation: no share. */
  maxGapMs: number;
}

/** The hybrid search's settings: the best 10 candidates pass on 0.8 of theirs to the turn either side within an hour. */
export const NEIGHBOUR_TURNS = { sources: 10, span: 1, share: 0.8, maxGapMs: 3_600_000 } as const;

/** What a memory inherits from a neighbouring source: its share and the source it came from. */
export interface NeighbourShare {
  share: number;
  /** The id of the source the share came from (a neighbour never ranks above it on the share alone). */
  from: string;
}

/**
 * For each memory next to a source, the best `share^distance × source score` it inherits (distance
 * 1 for the nearest on its side), when it has the source's agent and run and lies within
 * `maxGapMs`, and the source it came from. A source inherits from another source too; scores
 * outside [0, 1] or not finite count as their nearest bound or 0.
 */
export function neighbourShares(
  sources: { record: NeighbourRecord; score: number }[],
  neighbours: Map<string, NeighbourRecord[]>,
  opts: NeighbourOptions,
): Map<string, NeighbourShare> {
  const out = new Map<string, NeighbourShare>();
  const share = unit(opts.share);
  for (const { record: source, score } of sources) {
    const s = unit(score);
    const at = Date.parse(source.created_at);
    if (!s || !Number.isFinite(at)) continue;
    const near = (neighbours.get(source.id) ?? [])
      .filter((n) => n.id !== source.id && sameScope(n, source))
      .map((n) => ({ id: n.id, delta: Date.parse(n.created_at) - at }))
      .filter((n) => Number.isFinite(n.delta) && Math.abs(n.delta) <= opts.maxGapMs);
    for (const side of [near.filter((n) => n.delta < 0), near.filter((n) => n.delta >= 0)]) {
      side.sort((a, b) => Math.abs(a.delta) - Math.abs(b.delta));
      side.forEach((n, i) => {
        const value = s * share ** (i + 1);
        if (value > (out.get(n.id)?.share ?? 0)) out.set(n.id, { share: value, from: source.id });
      });
    }
  }
  return out;
}

const sameScope = (a: NeighbourRecord, b: NeighbourRecord) =>
  (a.agent_id ?? null) === (b.agent_id ?? null) && (a.run_id ?? null) === (b.run_id ?? null);

const unit = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
