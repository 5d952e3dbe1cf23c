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
    intercept: -3.49027,
    weights: { fused: 3.8181, gap: 0, logRank: -0.865914 },
    curve: [
      [0, 0],
      [0.003252, 0.05],
      [0.005431, 0.1],
      [0.007757, 0.15],
      [0.01202, 0.2],
      [0.01508, 0.25],
      [0.02236, 0.3],
      [0.03136, 0.35],
      [0.04359, 0.4],
      [0.06112, 0.45],
      [0.07875, 0.5],
      [0.1104, 0.55],
      [0.1348, 0.6],
      [0.1696, 0.65],
      [0.2184, 0.7],
      [0.246, 0.75],
      [0.2883, 0.8],
      [0.3326, 0.85],
      [0.4017, 0.9],
      [0.4923, 0.95],
      [0.5812, 1],
    ],
  },
  hybrid: {
    intercept: -4.9487,
    weights: { fused: 8.92477, gap: -0.733495, logRank: -0.896198 },
    curve: [
      [0, 0],
      [0.003459, 0.05],
      [0.007523, 0.1],
      [0.01409, 0.15],
      [0.02259, 0.2],
      [0.03187, 0.25],
      [0.0416, 0.3],
      [0.05402, 0.35],
      [0.07653, 0.4],
      [0.09647, 0.45],
      [0.1281, 0.5],
      [0.1585, 0.55],
      [0.1947, 0.6],
      [0.2267, 0.65],
      [0.2729, 0.7],
      [0.32, 0.75],
      [0.3878, 0.8],
      [0.442, 0.85],
      [0.4904, 0.9],
      [0.5919, 0.95],
      [0.8331, 1],
    ],
  },
};
