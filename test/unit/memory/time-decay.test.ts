/** Search scoring (docs/requirements.md#search-results), pinned with a fixed clock. */
import { decayWeight, decayedScore, similarityFromDistance } from '../../../domain/memory/search/time-decay';
import { mergeResults } from '../../../domain/memory/search/result-merge';
import type { MemorySearchItem } from '../../../shared/memory-model';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

describe('time decay', () => {
  it('weighs freshness 1 when new, 0.5 after 30 days, 0.25 after 60', () => {
    expect(decayWeight(ago(0), now)).toBe(1);
    expect(decayWeight(ago(30), now)).toBeCloseTo(0.5, 12);
    expect(decayWeight(ago(60), now)).toBeCloseTo(0.25, 12);
    expect(decayWeight(ago(-5), now)).toBe(1); // a future timestamp is not fresher than now
  });

  it('blends 0.7 similarity with 0.3 freshness', () => {
    expect(decayedScore(0.8, ago(0), now)).toBeCloseTo(0.7 * 0.8 + 0.3, 12);
    expect(decayedScore(0.8, ago(30), now)).toBeCloseTo(0.56 + 0.15, 12);
    expect(decayedScore(1, ago(90), now)).toBeCloseTo(0.7 + 0.3 * 0.125, 12);
    // A close but old memory can fall below a looser fresh one: that is the point of decay.
    expect(decayedScore(0.9, ago(120), now)).toBeLessThan(decayedScore(0.75, ago(1), now));
  });

  it('turns distances into similarities in [0, 1]', () => {
    expect(similarityFromDistance(0)).toBe(1);
    expect(similarityFromDistance(0.25)).toBe(0.75);
    expect(similarityFromDistance(1.7)).toBe(0);
  });
});

describe('merging result lists', () => {
  const item = (id: string, memory: string, score: number): MemorySearchItem => ({
    id,
    memory,
    score,
    created_at: ago(1),
    user_id: 'u',
    agent_id: null,
    run_id: null,
    metadata: {},
    memory_type: 'long_term',
    valid_from: ago(1),
    valid_to: null,
  });

  it('keeps one copy of the same id or near-identical text, the best scored, in score order', () => {
    const merged = mergeResults([
      [item('a', 'The API runs on port 8080.', 0.7), item('b', 'Deploys happen on Fridays.', 0.5)],
      [
        item('a', 'The API runs on port 8080.', 0.9),
        item('c', 'the api runs on port 8080', 0.8),
        item('d', 'Backups run nightly.', 0.6),
      ],
    ]);
    expect(merged.map((m) => [m.id, m.score])).toEqual([
      ['a', 0.9],
      ['d', 0.6],
      ['b', 0.5],
    ]);
  });
});
