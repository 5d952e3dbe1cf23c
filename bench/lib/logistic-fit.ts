/**
 * Logistic regression for the search calibration (bench/locomo-fit.ts): Newton's method with a small
 * L2 penalty, and signs held where a feature must only raise (or only lower) the relevance: a
 * coefficient that comes out with the wrong sign is fixed at 0 and the rest refitted.
 */

/** A fitted model: intercept and one weight per feature column. */
export interface LogisticModel {
  intercept: number;
  weights: number[];
}

/** Per feature: +1 (weight >= 0), -1 (weight <= 0) or 0 (free). */
export type SignConstraint = 1 | -1 | 0;

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    [m[c], m[p]] = [m[p], m[c]];
    const d = m[c][c] || 1e-12;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / d;
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((row, i) => row[n] / (row[i] || 1e-12));
}

/** Fits with only the columns in `active` (the rest weigh 0). */
function newton(x: number[][], y: number[], active: number[], l2: number, iterations: number): LogisticModel {
  const dims = active.length + 1;
  let beta = new Array<number>(dims).fill(0);
  for (let it = 0; it < iterations; it++) {
    const grad = new Array<number>(dims).fill(0);
    const hess = Array.from({ length: dims }, () => new Array<number>(dims).fill(0));
    for (let i = 0; i < x.length; i++) {
      const row = [1, ...active.map((j) => x[i][j])];
      const p = sigmoid(row.reduce((s, v, k) => s + v * beta[k], 0));
      const w = Math.max(p * (1 - p), 1e-9);
      for (let a = 0; a < dims; a++) {
        grad[a] += (p - y[i]) * row[a];
        for (let b = 0; b <= a; b++) hess[a][b] += w * row[a] * row[b];
      }
    }
    for (let a = 0; a < dims; a++) {
      for (let b = 0; b < a; b++) hess[b][a] = hess[a][b];
      if (a > 0) {
        grad[a] += l2 * beta[a];
        hess[a][a] += l2;
      }
    }
    const step = solve(hess, grad);
    beta = beta.map((v, k) => v - step[k]);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  const weights = new Array<number>(x[0]?.length ?? 0).fill(0);
  active.forEach((j, k) => (weights[j] = beta[k + 1]));
  return { intercept: beta[0], weights };
}

/** The model of P(y = 1 | x) with each weight's sign as constrained. */
export function fitLogistic(
  x: number[][],
  y: number[],
  signs: SignConstraint[],
  opts: { l2?: number; iterations?: number } = {},
): LogisticModel {
  const l2 = opts.l2 ?? 1e-3;
  const iterations = opts.iterations ?? 50;
  let active = signs.map((_, j) => j);
  for (;;) {
    const model = newton(x, y, active, l2, iterations);
    const wrong = active.filter((j) => signs[j] * model.weights[j] < 0);
    if (!wrong.length) return model;
    // Drop the worst offender and refit.
    const worst = wrong.reduce((a, b) => (Math.abs(model.weights[a]) >= Math.abs(model.weights[b]) ? a : b));
    active = active.filter((j) => j !== worst);
  }
}

/** The model's P(y = 1 | x). */
export const predict = (m: LogisticModel, x: number[]): number =>
  sigmoid(m.intercept + x.reduce((s, v, j) => s + v * m.weights[j], 0));

/** Mean log-loss of the model on (x, y). */
export function logLoss(m: LogisticModel, x: number[][], y: number[]): number {
  let sum = 0;
  x.forEach((row, i) => {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, predict(m, row)));
    sum -= y[i] ? Math.log(p) : Math.log(1 - p);
  });
  return sum / Math.max(1, x.length);
}
