/** The calibration's offline fitting (bench/locomo-fit.ts): constrained logistic regression and the quantile curve. */
import { fitLogistic, predict } from '../../../bench/lib/logistic-fit';
import { quantileCurve } from '../../../bench/lib/quantile-curve';

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
