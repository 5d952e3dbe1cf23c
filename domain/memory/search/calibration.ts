/**
 * Calibrated relevance (docs/memory-search.md#calibration): a candidate's features mapped to one
 * relevance in [0, 1] that compares across queries, the score `min_score` and time decay apply to.
 * A logistic model over the features (fitted offline by `npm run bench:locomo-fit`), then a
 * monotone piecewise-linear curve over its output. Pure, for exact unit tests.
 */
import { FEATURE_NAMES, type FeatureName, type RelevanceFeatures } from './relevance-features';

/** A fitted calibration: logistic weights, then an optional monotone curve. */
export interface Calibration {
  intercept: number;
  /** Per feature; a missing feature weighs 0. */
  weights: Partial<Record<FeatureName, number>>;
  /**
   * Knots [x, y] of a non-decreasing curve from the logistic's output to the relevance, x and y
   * increasing from 0 to 1; linear between knots. Absent: the logistic's output itself.
   */
  curve?: readonly (readonly [number, number])[];
}

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** The logistic model's output in (0, 1); a non-finite feature counts as 0. */
export function logisticScore(features: RelevanceFeatures, c: Calibration): number {
  let z = c.intercept;
  for (const name of FEATURE_NAMES) {
    const w = c.weights[name];
    const x = features[name];
    if (w && Number.isFinite(x)) z += w * x;
  }
  return Number.isFinite(z) ? sigmoid(z) : z > 0 ? 1 : 0;
}

/** `x` through the curve's knots (linear between them, flat outside), clamped to [0, 1]. */
export function throughCurve(x: number, curve: readonly (readonly [number, number])[]): number {
  if (!Number.isFinite(x)) return 0;
  if (!curve.length) return Math.min(1, Math.max(0, x));
  if (x <= curve[0][0]) return clamp01(curve[0][1]);
  for (let i = 1; i < curve.length; i++) {
    const [x1, y1] = curve[i];
    if (x <= x1) {
      const [x0, y0] = curve[i - 1];
      return clamp01(x1 > x0 ? y0 + ((y1 - y0) * (x - x0)) / (x1 - x0) : y1);
    }
  }
  return clamp01(curve[curve.length - 1][1]);
}

/** The calibrated relevance in [0, 1]. */
export function calibratedRelevance(features: RelevanceFeatures, c: Calibration): number {
  const p = logisticScore(features, c);
  return c.curve ? throughCurve(p, c.curve) : p;
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));
