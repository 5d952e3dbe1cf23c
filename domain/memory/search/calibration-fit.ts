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
    intercept: -6.70958,
    weights: { fused: 10.5509, gap: -4.21375, logRank: -0.750168 },
    curve: [
      [0, 0],
      [0.003782, 0.05],
      [0.005981, 0.1],
      [0.008877, 0.15],
      [0.01372, 0.2],
      [0.01948, 0.25],
      [0.02318, 0.3],
      [0.03173, 0.35],
      [0.04544, 0.4],
      [0.05585, 0.45],
      [0.07415, 0.5],
      [0.09515, 0.55],
      [0.1182, 0.6],
      [0.1479, 0.65],
      [0.1771, 0.7],
      [0.2098, 0.75],
      [0.2404, 0.8],
      [0.2985, 0.85],
      [0.381, 0.9],
      [0.5176, 0.95],
      [0.7067, 1],
    ],
  },
  lexical: {
    intercept: -3.48506,
    weights: { fused: 3.81364, gap: 0, logRank: -0.868466 },
    curve: [
      [0, 0],
      [0.003243, 0.05],
      [0.005421, 0.1],
      [0.007739, 0.15],
      [0.012, 0.2],
      [0.01518, 0.25],
      [0.02232, 0.3],
      [0.03218, 0.35],
      [0.04362, 0.4],
      [0.06129, 0.45],
      [0.08127, 0.5],
      [0.1118, 0.55],
      [0.136, 0.6],
      [0.171, 0.65],
      [0.2202, 0.7],
      [0.2428, 0.75],
      [0.2849, 0.8],
      [0.3287, 0.85],
      [0.3963, 0.9],
      [0.4926, 0.95],
      [0.5814, 1],
    ],
  },
  hybrid: {
    intercept: -5.4498,
    weights: { fused: 10.5735, gap: -1.80634, logRank: -0.920886 },
    curve: [
      [0, 0],
      [0.004162, 0.05],
      [0.007916, 0.1],
      [0.01426, 0.15],
      [0.0252, 0.2],
      [0.03689, 0.25],
      [0.04915, 0.3],
      [0.06139, 0.35],
      [0.08188, 0.4],
      [0.1141, 0.45],
      [0.1497, 0.5],
      [0.1781, 0.55],
      [0.2133, 0.6],
      [0.2578, 0.65],
      [0.3136, 0.7],
      [0.3561, 0.75],
      [0.4129, 0.8],
      [0.4613, 0.85],
      [0.5173, 0.9],
      [0.6316, 0.95],
      [0.8699, 1],
    ],
  },
};
