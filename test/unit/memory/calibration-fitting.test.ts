/** The offline fitting (bench/locomo-fit.ts): constrained logistic regression, the quantile curve, the reranker's coordinate ascent. */
import { fitLogistic, predict } from '../../../bench/lib/logistic-fit';
import { quantileCurve } from '../../../bench/lib/quantile-curve';
import { ascendRecall, meanRecall } from '../../../bench/lib/rank-ascent';
import { RERANK_FEATURES, type RerankFeatures } from '../../../domain/memory/search/rerank-features';

describe('fitLogistic', () => {
  // y = 1 with probability σ(-1 + 3x): deterministic, by counts.
  const x: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i <= 20; i++) {
    const v = i / 20;
    const p = 1 / (1 + Math.exp(-(-1 + 3 * v)));
    for (let k = 0; k < 100; k++) {
      x.push([v]);
      y.push(k < Math.round(100 * p) ? 1 : 0);
    }
  }

  it('recovers the model that made the data', () => {
    const m = fitLogistic(x, y, [0]);
    expect(m.intercept).toBeCloseTo(-1, 1);
    expect(m.weights[0]).toBeCloseTo(3, 1);
    expect(predict(m, [0.5])).toBeGreaterThan(predict(m, [0.2]));
  });

  it('holds a weight at 0 rather than give it the forbidden sign', () => {
    const m = fitLogistic(x, y, [-1]);
    expect(m.weights[0]).toBe(0);
  });
});

describe('quantileCurve', () => {
  it('maps each reference score to the share at or below it, from [0, 0]', () => {
    const curve = quantileCurve([0.4, 0.1, 0.3, 0.2, 0.5], 4);
    expect(curve).toEqual([
      [0, 0],
      [0.2, 0.25],
      [0.3, 0.5],
      [0.4, 0.75],
      [0.5, 1],
    ]);
  });

  it('merges ties into one knot, ignores NaN, and is empty without references', () => {
    expect(quantileCurve([0.2, 0.2, 0.2, NaN], 2)).toEqual([
      [0, 0],
      [0.2, 1],
    ]);
    expect(quantileCurve([], 4)).toEqual([]);
  });
});

describe('ascendRecall', () => {
  const zero = Object.fromEntries(RERANK_FEATURES.map((n) => [n, 0])) as unknown as RerankFeatures;
  const row = (f: Partial<RerankFeatures>, evidence: boolean) => ({ rerank: { ...zero, ...f }, evidence });
  // Evidence has the higher `statement` and the lower `semantic`: a model led by semantic ranks it 11th.
  const questions = [0, 1, 2].map(() => ({
    evidence: 1,
    rows: [
      ...Array.from({ length: 10 }, (_, i) => row({ semantic: 0.9 - i * 0.01, statement: 0 }, false)),
      row({ semantic: 0.5, statement: 1 }, true),
    ],
  }));
  const start = { intercept: 0, weights: { semantic: 1, statement: 0.1 } };

  it('moves the weights until the evidence ranks in the top 10, and keeps them >= 0', () => {
    expect(meanRecall(questions, start)).toBe(0);
    const model = ascendRecall(questions, start);
    expect(meanRecall(questions, model)).toBe(1);
    for (const w of Object.values(model.weights)) expect(w).toBeGreaterThanOrEqual(0);
  });

  it('leaves a model that cannot be bettered as it is', () => {
    const best = { intercept: 0, weights: { statement: 1 } };
    expect(ascendRecall(questions, best)).toEqual(best);
  });
});
