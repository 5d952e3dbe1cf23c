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
    intercept: -3.49514,
    weights: { fused: 3.8221, gap: -0.00796905, logRank: -0.862471 },
    curve: [
      [0, 0],
      [0.003267, 0.05],
      [0.005451, 0.1],
      [0.00776, 0.15],
      [0.01222, 0.2],
      [0.01519, 0.25],
      [0.02236, 0.3],
      [0.03135, 0.35],
      [0.04355, 0.4],
      [0.06088, 0.45],
      [0.08101, 0.5],
      [0.112, 0.55],
      [0.1353, 0.6],
      [0.1702, 0.65],
      [0.2183, 0.7],
      [0.2415, 0.75],
      [0.284, 0.8],
      [0.3278, 0.85],
      [0.3955, 0.9],
      [0.4832, 0.95],
      [0.581, 1],
    ],
  },
  hybrid: {
    intercept: -6.78268,
    weights: { fused: 12.0996, gap: -3.57736, logRank: -0.885602 },
    curve: [
      [0, 0],
      [0.005512, 0.05],
      [0.01138, 0.1],
      [0.01634, 0.15],
      [0.02524, 0.2],
      [0.03199, 0.25],
      [0.04744, 0.3],
      [0.0613, 0.35],
      [0.07502, 0.4],
      [0.1013, 0.45],
      [0.1301, 0.5],
      [0.1658, 0.55],
      [0.1972, 0.6],
      [0.2334, 0.65],
      [0.274, 0.7],
      [0.3175, 0.75],
      [0.376, 0.8],
      [0.4483, 0.85],
      [0.5217, 0.9],
      [0.6438, 0.95],
      [0.8669, 1],
    ],
  },
};
