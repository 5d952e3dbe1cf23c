/**
 * The calibration's curve (bench/locomo-fit.ts): knots that map a score to the share of reference
 * scores (the dev split's evidence) below it, so that a relevance r means "scores above r of the
 * answers", whatever the model's scale.
 */

/** Knots [score, share] at every 1/`steps` of the sorted `reference`, from [0, 0] to [max, 1]. */
export function quantileCurve(reference: number[], steps: number, digits = 4): [number, number][] {
  const sorted = reference.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return [];
  const round = (x: number) => Number(x.toPrecision(digits));
  const knots: [number, number][] = [[0, 0]];
  for (let q = 1; q <= steps; q++) {
    const x = round(sorted[Math.round((q / steps) * (sorted.length - 1))]);
    const last = knots[knots.length - 1];
    // Ties: the highest share at that score (the curve stays a function, non-decreasing).
    if (x > last[0]) knots.push([x, q / steps]);
    else last[1] = q / steps;
  }
  return knots;
}
