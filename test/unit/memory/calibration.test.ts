/** Calibrated relevance: features at fusion time, the logistic model and its curve, hostile inputs. */
import {
  calibratedRelevance,
  logisticScore,
  throughCurve,
  type Calibration,
} from '../../../domain/memory/search/calibration';
import { CALIBRATIONS } from '../../../domain/memory/search/calibration-fit';
import { relevanceFeatures, type RelevanceFeatures } from '../../../domain/memory/search/relevance-features';

const features = (over: Partial<RelevanceFeatures> = {}): RelevanceFeatures => ({
  fused: 0.35,
  gap: 0.1,
  logRank: Math.log(3),
  ...over,
});

describe('relevanceFeatures', () => {
  it('reads the fused relevance, the gap to the best and the rank', () => {
    const f = relevanceFeatures([0.6, 0.45, 0.45]);
    expect(f[0]).toEqual({ fused: 0.6, gap: 0, logRank: 0 });
    expect(f[1].gap).toBeCloseTo(0.15, 12);
    expect(f[1].logRank).toBeCloseTo(Math.log(2), 12);
    expect(f[2].logRank).toBeCloseTo(Math.log(3), 12);
  });

  it('is empty for no candidates, and reads NaN, infinities and out-of-range values as bounded', () => {
    expect(relevanceFeatures([])).toEqual([]);
    const f = relevanceFeatures([NaN, Infinity, -3, 1.7]);
    expect(f.map((x) => x.fused)).toEqual([0, 0, 0, 1]);
    expect(f[0].gap).toBe(1);
    for (const x of f) for (const v of Object.values(x)) expect(Number.isFinite(v)).toBe(true);
  });
});

describe('throughCurve', () => {
  const curve = [
    [0, 0],
    [0.1, 0.5],
    [0.4, 1],
  ] as const;

  it('interpolates between knots, flat outside, clamped', () => {
    expect(throughCurve(0.05, curve)).toBeCloseTo(0.25, 12);
    expect(throughCurve(0.25, curve)).toBeCloseTo(0.75, 12);
    expect(throughCurve(0.9, curve)).toBe(1);
    expect(throughCurve(-1, curve)).toBe(0);
    expect(throughCurve(NaN, curve)).toBe(0);
    expect(throughCurve(0.3, [])).toBe(0.3);
    expect(throughCurve(0.3, [[0, 2]])).toBe(1);
  });
});

describe('calibratedRelevance', () => {
  const model: Calibration = { intercept: -2, weights: { fused: 6, gap: -8, logRank: -0.5 } };

  it('is the logistic of the weighted features, through the curve when there is one', () => {
    const f = features();
    const z = -2 + 6 * 0.35 - 8 * 0.1 - 0.5 * Math.log(3);
    expect(logisticScore(f, model)).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
    expect(calibratedRelevance(f, model)).toBe(logisticScore(f, model));
    const curved: Calibration = {
      ...model,
      curve: [
        [0, 0],
        [1, 1],
      ],
    };
    expect(calibratedRelevance(f, curved)).toBeCloseTo(logisticScore(f, model), 12);
  });

  it('counts a non-finite feature as 0 and stays in [0, 1] for extreme weights', () => {
    expect(calibratedRelevance(features({ gap: NaN }), model)).toBe(
      calibratedRelevance(features({ gap: 0 }), model),
    );
    const huge: Calibration = { intercept: 0, weights: { fused: 1e308, gap: 1e308 } };
    expect(calibratedRelevance(features({ fused: 1, gap: 1 }), huge)).toBe(1);
    expect(calibratedRelevance(features(), { intercept: -Infinity, weights: {} })).toBe(0);
    expect(calibratedRelevance(features(), { intercept: NaN, weights: {} })).toBe(0);
  });

  describe.each(Object.entries(CALIBRATIONS))('the fitted %s calibration', (_mode, c) => {
    const grid = [0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1];
    const at = (over: Partial<RelevanceFeatures>) => calibratedRelevance(features(over), c);

    it('is in [0, 1], never falls as the fused relevance rises, nor rises as the gap or rank grow', () => {
      for (const x of grid) {
        for (const r of [at({ fused: x, gap: 1 - x }), at({ fused: x, gap: 0, logRank: 0 })]) {
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(1);
        }
      }
      const rising = grid.map((x) => at({ fused: x }));
      for (let i = 1; i < rising.length; i++) expect(rising[i]).toBeGreaterThanOrEqual(rising[i - 1]);
      for (const name of ['gap', 'logRank'] as const) {
        const falling = grid.map((x) => at({ [name]: x * 4 }));
        for (let i = 1; i < falling.length; i++) expect(falling[i]).toBeLessThanOrEqual(falling[i - 1]);
      }
    });

    it('keeps a query order: a lower fused relevance never scores above a higher one', () => {
      const fused = [0.62, 0.6, 0.41, 0.4, 0.33, 0.2, 0.19, 0.05];
      const scores = relevanceFeatures(fused).map((f) => calibratedRelevance(f, c));
      for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
    });

    it('spreads: a strong first candidate scores far above a weak fortieth', () => {
      const strong = at({ fused: 0.8, gap: 0, logRank: 0 });
      const weak = at({ fused: 0.12, gap: 0.68, logRank: Math.log(40) });
      expect(strong - weak).toBeGreaterThan(0.5);
    });
  });
});
