/**
 * Questions about now (docs/memory-search.md#now-and-then): memories that cannot answer them keep
 * half their relevance, and relevances are taken relative to the best answer; other questions are
 * ranked as they came.
 */
import {
  answerWeights,
  NOT_AN_ANSWER_NOW,
  REPLACED_IT_THEN,
} from '../../../domain/memory/search/answer-weights';
import type { Candidate } from '../../../domain/memory/search/hybrid-retrieval';
import type { MemoryRecord } from '../../../shared/memory-model';

const candidate = (memory: string, relevance: number): Candidate =>
  ({
    record: { id: memory, memory } as MemoryRecord,
    relevance,
    signals: {},
    features: { fused: relevance, gap: 0, logRank: 0 },
  }) as Candidate;

describe('answer weights', () => {
  const found = [
    candidate('Walked past Iron Temple on the way home.', 0.5),
    candidate('Made pasta for dinner.', 0.45),
    candidate('New gym: Crunch.', 0.4),
    candidate('The gym near work closes at ten.', 0.3),
  ];

  it('ranks what can answer a question about now above mentions and notes, relative to the best', () => {
    const ranked = answerWeights('Which gym do I go to?')(found);
    expect(ranked.map((c) => [c.record.memory, +c.relevance.toFixed(3)])).toEqual([
      ['New gym: Crunch.', 1],
      ['The gym near work closes at ten.', 0.75],
      ['Walked past Iron Temple on the way home.', +((0.5 * NOT_AN_ANSWER_NOW) / 0.4).toFixed(3)],
      ['Made pasta for dinner.', +((0.45 * NOT_AN_ANSWER_NOW) / 0.4).toFixed(3)],
    ]);
    expect(ranked.every((c) => c.relevance >= 0 && c.relevance <= 1)).toBe(true);
  });

  it('lets a memory that replaced an earlier value yield to the earlier versions for a question about the past', () => {
    const at = (valid_from: string, valid_to: string | null) =>
      ({ created_at: '2025-01-01T00:00:00.000Z', valid_from, valid_to }) as Partial<MemoryRecord>;
    const now = {
      ...candidate('New gym: Crunch.', 0.6),
      record: { ...found[2].record, ...at('2025-06-01T00:00:00.000Z', null) },
    };
    const then = {
      ...candidate('My gym is Iron Temple.', 0.4),
      record: {
        ...found[2].record,
        memory: 'My gym is Iron Temple.',
        ...at('2025-01-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z'),
      },
    };
    const ranked = answerWeights('Which gym did I go to before?')([now, then] as Candidate[]);
    expect(ranked.map((c) => [c.record.memory, c.relevance])).toEqual([
      ['My gym is Iron Temple.', 1],
      ['New gym: Crunch.', (0.6 * REPLACED_IT_THEN) / 0.4],
    ]);
  });

  it('leaves questions of no time, and memories that never changed, as they came', () => {
    for (const q of ['Tell me about dinner', 'When did we meet?'])
      expect(answerWeights(q)(found)).toEqual(found);
    // About the past, nothing here replaced anything: relative to the best, in the same order.
    expect(answerWeights('Which gym did I go to before?')(found).map((c) => c.record.memory)).toEqual(
      found.map((c) => c.record.memory),
    );
    expect(answerWeights('Which gym do I go to?')([])).toEqual([]);
  });
});
