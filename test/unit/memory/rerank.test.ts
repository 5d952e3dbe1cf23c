import { rerankScore } from '../../../domain/memory/search/rerank';
import {
  proximity,
  rerankFeatures,
  RERANK_FEATURES,
  statementShare,
} from '../../../domain/memory/search/rerank-features';
import { entityTerms, queryTerms } from '../../../domain/memory/search/text-terms';

const input = (text: string, extra: Partial<Parameters<typeof rerankFeatures>[0]> = {}) => ({
  text,
  fused: 0.5,
  semantic: 0.4,
  lexical: 0.3,
  inRange: false,
  neighbour: 0,
  ...extra,
});

describe('rerankFeatures', () => {
  const question = 'Where did Caroline buy the red bicycle?';
  const q = { terms: queryTerms(question), entities: entityTerms(question) };

  it('measures coverage, entities, proximity and the named subject from the memory text', () => {
    const f = rerankFeatures(input('Caroline: I buy a red bicycle every year'), q);
    expect(f.coverage).toBe(1);
    expect(f.entity).toBe(1);
    expect(f.named).toBe(1);
    expect(f.proximity).toBeCloseTo(1); // caroline, buy, red, bicycl: four terms in a window of four
    const g = rerankFeatures(input('Melanie: Caroline told me the bicycle was red'), q);
    expect(g.named).toBe(0);
    expect(g.coverage).toBeCloseTo(3 / 4);
    expect(g.proximity).toBeLessThan(1);
  });

  it('passes the signals through, clamped to [0, 1], and counts 0 for broken values', () => {
    const f = rerankFeatures(
      input('x', { fused: 2, semantic: -1, lexical: NaN, inRange: true, neighbour: Infinity }),
      q,
    );
    expect(f).toMatchObject({ fused: 1, semantic: 0, lexical: 0, time: 1, neighbour: 0 });
  });

  it('answers zeros for an empty memory or an empty question', () => {
    const f = rerankFeatures(input(''), q);
    expect([f.coverage, f.entity, f.proximity, f.named]).toEqual([0, 0, 0, 0]);
    const g = rerankFeatures(input('Caroline: hi'), { terms: [], entities: [] });
    expect([g.coverage, g.entity, g.proximity, g.named]).toEqual([0, 0, 0, 0]);
  });

  it('reads unicode words and bounds the work on a huge memory', () => {
    const f = rerankFeatures(input('Zoë: café in Zürich 東京'), {
      terms: queryTerms('café Zürich'),
      entities: entityTerms('Zoë'),
    });
    expect(f.coverage).toBe(1);
    expect(f.named).toBe(1);
    const huge = `${'word '.repeat(200_000)}caroline red bicycle`;
    const g = rerankFeatures(input(huge), q);
    expect(g.coverage).toBe(0); // beyond the terms read
    expect(g.detail).toBe(1 / 16); // "word" alone, within the head read
    for (const name of RERANK_FEATURES) expect(Number.isFinite(g[name])).toBe(true);
  });
});

describe('statement and detail', () => {
  it('counts the sentences that are not questions', () => {
    expect(statementShare('Caroline: Where did you go?')).toBe(0);
    expect(statementShare('Melanie: Hey! How was Paris?')).toBe(0.5);
    expect(statementShare('Melanie: I moved to Paris. It is lovely')).toBe(1);
    expect(statementShare('Did you go?\nI did')).toBe(0.5);
    expect(statementShare('')).toBe(1);
    expect(statementShare('?!... ???')).toBe(1); // no words, no sentence
  });

  it('reads a long memory without sentence ends in one pass', () => {
    expect(statementShare('a '.repeat(100_000) + '?')).toBe(0);
    expect(statementShare('\n'.repeat(100_000))).toBe(1);
  });

  it('rates how much a memory says by its distinct terms, up to 1', () => {
    const asked = { terms: [], entities: [] };
    expect(rerankFeatures(input('Caroline: thanks, thanks!'), asked).detail).toBe(2 / 16);
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    expect(rerankFeatures(input(words), asked).detail).toBe(1);
    expect(rerankFeatures(input('Caroline: you too? Sure.'), asked).statement).toBe(0.5);
  });
});

describe('proximity', () => {
  it('is (k − 1) / (window − 1) for the shortest window holding every matched term', () => {
    expect(proximity(['a', 'x', 'b'], new Set(['a', 'b']))).toBeCloseTo(1 / 2);
    expect(proximity(['a', 'b', 'x', 'a'], new Set(['a', 'b']))).toBe(1);
    expect(proximity(['a', 'x', 'x', 'b', 'a'], new Set(['a', 'b']))).toBe(1);
    expect(proximity(['a', 'a'], new Set(['a', 'b']))).toBe(0);
    expect(proximity([], new Set())).toBe(0);
  });
});

describe('rerankScore', () => {
  const f = rerankFeatures(input('Caroline: red bicycle'), { terms: ['red'], entities: [] });

  it('is the weighted mean of the features, in the order of the logit', () => {
    expect(rerankScore(f, { intercept: 0, weights: {} })).toBe(0);
    expect(rerankScore(f, { intercept: -1, weights: { fused: 2 } })).toBeCloseTo(0.5);
    expect(rerankScore(f, { intercept: 0, weights: { fused: 1, coverage: 3 } })).toBeCloseTo((0.5 + 3) / 4);
  });

  it('ignores negative and non-finite weights', () => {
    expect(rerankScore(f, { intercept: NaN, weights: { fused: Infinity, coverage: -2, time: NaN } })).toBe(0);
  });
});
