/**
 * The fitted calibration of each search mode (docs/memory-search.md#calibration), written by
 * `BENCH_WRITE=1 npm run bench:locomo-fit`: a logistic model of "this candidate answers the
 * question", fitted on LoCoMo conversations 1–3 (495 questions, each also asked of another
 * conversation), then the share of those conversations' answers that score lower (a knot every 5%).
 */
import type { SearchMode } from '../../../shared/memory-requests';
import type { Calibration } from './calibration';

/** Per search mode. */
export const CALIBRATIONS: Record<SearchMode, Calibration> = {
  semantic: {
    intercept: -7.25163,
    weights: { fused: 8.64195, gap: 0, logRank: -0.508576 },
    curve: [
      [0, 0],
      [0.004476, 0.05],
      [0.005913, 0.1],
      [0.007319, 0.15],
      [0.008864, 0.2],
      [0.01086, 0.25],
      [0.01227, 0.3],
      [0.01689, 0.35],
      [0.01898, 0.4],
      [0.02272, 0.45],
      [0.02705, 0.5],
      [0.03149, 0.55],
      [0.0386, 0.6],
      [0.04724, 0.65],
      [0.06079, 0.7],
      [0.07951, 0.75],
      [0.09609, 0.8],
      [0.127, 0.85],
      [0.1594, 0.9],
      [0.2683, 0.95],
      [0.5307, 1],
    ],
  },
  lexical: {
    intercept: -3.49919,
    weights: { fused: 3.82537, gap: -0.0174033, logRank: -0.859236 },
    curve: [
      [0, 0],
      [0.00328, 0.05],
      [0.0053, 0.1],
      [0.007793, 0.15],
      [0.01199, 0.2],
      [0.01508, 0.25],
      [0.02238, 0.3],
      [0.03224, 0.35],
      [0.04353, 0.4],
      [0.06069, 0.45],
      [0.08088, 0.5],
      [0.1118, 0.55],
      [0.135, 0.6],
      [0.1689, 0.65],
      [0.2147, 0.7],
      [0.2411, 0.75],
      [0.2836, 0.8],
      [0.3275, 0.85],
      [0.3951, 0.9],
      [0.483, 0.95],
      [0.5808, 1],
    ],
  },
  hybrid: {
    intercept: -4.57064,
    weights: { fused: 6.11587, gap: -0.511649, logRank: -0.950969 },
    curve: [
      [0, 0],
      [0.002022, 0.05],
      [0.003527, 0.1],
      [0.00571, 0.15],
      [0.008748, 0.2],
      [0.01275, 0.25],
      [0.01755, 0.3],
      [0.02541, 0.35],
      [0.03329, 0.4],
      [0.04605, 0.45],
      [0.06737, 0.5],
      [0.08542, 0.55],
      [0.1189, 0.6],
      [0.1643, 0.65],
      [0.2245, 0.7],
      [0.2663, 0.75],
      [0.3053, 0.8],
      [0.3598, 0.85],
      [0.4084, 0.9],
      [0.5136, 0.95],
      [0.6896, 1],
    ],
  },
};
