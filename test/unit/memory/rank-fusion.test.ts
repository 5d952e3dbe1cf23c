/** Rank fusion with fixed inputs: RRF and weighted fusion, scores in [0, 1], ranks kept per signal. */
import { fuseRankings } from '../../../domain/memory/search/rank-fusion';

const dense = [
  { id: 'a', score: 0.9 },
  { id: 'b', score: 0.8 },
  { id: 'c', score: 0.2 },
];
const lexical = [
  { id: 'c', score: 0.8 },
  { id: 'a', score: 0.3 },
  { id: 'd', score: 0.1 },
];

describe('fuseRankings', () => {
  it('rrf: a memory first in every list scores 1; the sum of 1/(k + rank) otherwise', () => {
    const both = fuseRankings([[{ id: 'x', score: 1 }], [{ id: 'x', score: 7 }]], { method: 'rrf' });
    expect(both).toEqual([{ id: 'x', score: 1, ranks: [1, 1] }]);

    const fused = fuseRankings([dense, lexical], { method: 'rrf', k: 60 });
    const max = 2 / 61;
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0].score).toBeCloseTo((1 / 61 + 1 / 62) / max, 12);
    expect(fused[1]).toEqual({ id: 'c', score: expect.closeTo((1 / 63 + 1 / 61) / max, 12), ranks: [3, 1] });
    expect(fused[3]).toEqual({ id: 'd', score: expect.closeTo(1 / 63 / max, 12), ranks: [undefined, 3] });
  });

  it('weighted: absolute scores, weights normalised, absent counts at the floor', () => {
    const fused = fuseRankings([dense, lexical], { method: 'weighted', weights: [3, 1] });
    const score = (id: string) => fused.find((f) => f.id === id)!.score;
    expect(score('a')).toBeCloseTo((3 * 0.9 + 1 * 0.3) / 4, 12);
    expect(score('c')).toBeCloseTo((3 * 0.2 + 1 * 0.8) / 4, 12);
    expect(score('d')).toBeCloseTo((1 * 0.1) / 4, 12);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c', 'd']);

    const floored = fuseRankings([dense, lexical], {
      method: 'weighted',
      weights: [3, 1],
      floors: [0.2, 0.1],
    });
    const at = (id: string) => floored.find((f) => f.id === id)!.score;
    expect(at('b')).toBeCloseTo((3 * 0.8 + 1 * 0.1) / 4, 12);
    expect(at('d')).toBeCloseTo((3 * 0.2 + 1 * 0.1) / 4, 12);
    // Out-of-range inputs are clamped, so the fused score stays in [0, 1].
    const clamped = fuseRankings([[{ id: 'x', score: 1.7 }], [{ id: 'x', score: -2 }]], {
      method: 'weighted',
    });
    expect(clamped[0].score).toBeCloseTo(0.5, 12);
  });

  it('takes hits in any order, counts a memory once per signal, and handles empty lists', () => {
    const shuffled = fuseRankings(
      [
        [...dense].reverse(),
        [
          { id: 'a', score: 1 },
          { id: 'a', score: 0.5 },
        ],
      ],
      {
        method: 'rrf',
      },
    );
    expect(shuffled.find((f) => f.id === 'a')!.ranks).toEqual([1, 1]);
    expect(fuseRankings([[], []], { method: 'weighted' })).toEqual([]);
    expect(fuseRankings([dense], { method: 'rrf', weights: [0] })).toEqual([]);
  });

  it('breaks ties by id in code-unit order, the same in every process', () => {
    const tied = ['b-9', 'B-1', 'a-10', 'a-9', 'ä-1'].map((id) => ({ id, score: 0.5 }));
    const fused = fuseRankings([tied], { method: 'weighted' });
    expect(fused.map((f) => f.id)).toEqual(['B-1', 'a-10', 'a-9', 'b-9', 'ä-1']);
  });
});
