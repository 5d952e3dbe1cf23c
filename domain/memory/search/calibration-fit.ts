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
    intercept: -3.47187,
    weights: { fused: 3.80231, gap: 0, logRank: -0.87495 },
    curve: [
      [0, 0],
      [0.003218, 0.05],
      [0.005114, 0.1],
      [0.007697, 0.15],
      [0.01195, 0.2],
      [0.01506, 0.25],
      [0.02227, 0.3],
      [0.03149, 0.35],
      [0.04371, 0.4],
      [0.0612, 0.45],
      [0.08083, 0.5],
      [0.1115, 0.55],
      [0.137, 0.6],
      [0.1721, 0.65],
      [0.2214, 0.7],
      [0.2526, 0.75],
      [0.2908, 0.8],
      [0.3342, 0.85],
      [0.403, 0.9],
      [0.4969, 0.95],
      [0.5819, 1],
    ],
  },
  hybrid: {
    intercept: -6.78611,
    weights: { fused: 12.3403, gap: -3.62621, logRank: -0.886786 },
    curve: [
      [0, 0],
      [0.005495, 0.05],
      [0.01136, 0.1],
      [0.01634, 0.15],
      [0.02521, 0.2],
      [0.03196, 0.25],
      [0.04741, 0.3],
      [0.06124, 0.35],
      [0.07605, 0.4],
      [0.1033, 0.45],
      [0.132, 0.5],
      [0.166, 0.55],
      [0.1972, 0.6],
      [0.2332, 0.65],
      [0.2737, 0.7],
      [0.3174, 0.75],
      [0.376, 0.8],
      [0.4482, 0.85],
      [0.5217, 0.9],
      [0.6439, 0.95],
      [0.867, 1],
    ],
  },
};
