/** Hybrid search's rerank stage (domain/memory/search/rerank-stage.ts): neighbour shares under the reranker. */
import type { MemoryRecord } from '../../../shared/memory-model';
import { rerankScore } from '../../../domain/memory/search/rerank';
import { RERANK } from '../../../domain/memory/search/rerank-fit';
import { rerankStage, type Fused } from '../../../domain/memory/search/rerank-stage';
import { ALL_STAGES } from '../../../domain/memory/search/search-stages';

const record = (id: string, memory: string): MemoryRecord =>
  ({
    id,
    memory,
    user_id: 'eve',
    agent_id: null,
    run_id: null,
    metadata: {},
    category: null,
    hash: id,
    created_at: '2023-07-01T09:00:00.000Z',
    updated_at: '2023-07-01T09:00:00.000Z',
    embedder: 'test',
  }) as MemoryRecord;

const plan = { terms: ['cilantro'], entities: [], cues: [], stages: ALL_STAGES };
const floors = { semantic: 0, lexical: 0, fused: 0 };
const match: Fused = {
  record: record('match', "I can't stand cilantro."),
  score: 0.4,
  signals: { semantic: 0.2, lexical: { relevance: 0.5, terms: ['cilantro'] } },
};
// Stored at the same moment, says a lot, and nothing of cilantro.
const batchmate = (id: string, semantic?: number): Fused => ({
  record: record(id, 'The boiler service is booked with Halvorsen Heating for the second week of June.'),
  score: semantic ? 0.45 : 0,
  signals: semantic ? { semantic } : {},
});
const order = (list: Fused[]) => list.map((c) => c.record.id);

describe('rerankStage', () => {
  it('never lifts a neighbour above the memory it inherits from on the share alone', () => {
    const shares = new Map([['mate', { share: 1, from: 'match' }]]);
    const out = rerankStage(plan, 40, { candidates: [match, batchmate('mate')], floors }, shares);
    const [first, second] = out;
    // The premise: uncapped, the share would put the neighbour first.
    expect(rerankScore(second.rerank!, RERANK)).toBeGreaterThan(rerankScore(first.rerank!, RERANK));
    expect(order(out)).toEqual(['match', 'mate']);
    expect(second.rerank!.neighbour).toBe(1);
    expect(second.score).toBeLessThan(first.score);
  });

  it('lets a neighbour rank first on its own signals', () => {
    const shares = new Map([['mate', { share: 1, from: 'match' }]]);
    const out = rerankStage(plan, 40, { candidates: [match, batchmate('mate', 0.9)], floors }, shares);
    expect(order(out)).toEqual(['mate', 'match']);
  });

  it('keeps two turns that pass shares to each other in the order of their own signals', () => {
    const mate = { ...batchmate('mate'), score: 0.3, signals: { semantic: 0.2 } };
    const shares = new Map([
      ['mate', { share: 1, from: 'match' }],
      ['match', { share: 0.9, from: 'mate' }],
    ]);
    const out = rerankStage(plan, 40, { candidates: [mate, match], floors }, shares);
    const [first, second] = out;
    const own = (c: Fused) => rerankScore({ ...c.rerank!, neighbour: 0 }, RERANK);
    // The premise: on its own the match ranks first, and the mate's share lifts it past that.
    expect(own(first)).toBeGreaterThan(own(second));
    expect(rerankScore(second.rerank!, RERANK)).toBeGreaterThan(own(first));
    expect(order(out)).toEqual(['match', 'mate']);
  });

  it('with the reranker off, ranks by fused relevance raised by the share', () => {
    const shares = new Map([['mate', { share: 0.32, from: 'match' }]]);
    const off = { ...plan, stages: { ...ALL_STAGES, rerank: false } };
    const out = rerankStage(off, 40, { candidates: [match, batchmate('mate')], floors }, shares);
    expect(out.map((c) => [c.record.id, c.score])).toEqual([
      ['match', 0.4],
      ['mate', 0.32],
    ]);
  });
});
