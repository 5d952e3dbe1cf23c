/**
 * The fitted calibration of each search mode (docs/memory-search.md#calibration), written by
 * `BENCH_WRITE=1 npm run bench:locomo-fit`: a logistic model of "this candidate answers the
 * question", fitted on LoCoMo conversations 1–3 (495 questions, each also asked of another
 * conversation), then the share of those conversations' answers that score lower (a knot every 5%).
 */
import type { SearchMode } from '../../../shared/memory-requests';
import type { Calibration } from './calibration';

/** Per search mode. */
export const CALIBRATIONS: Record<SearchMode, Calibration> = {"semantic":{"intercept":-29.3647,"weights":{"fused":32.8226,"gap":-1.07801,"logRank":-0.621294},"curve":[[0,0],[0.004849,0.05],[0.006145,0.1],[0.007995,0.15],[0.01003,0.2],[0.01244,0.25],[0.01556,0.3],[0.01839,0.35],[0.02239,0.4],[0.02807,0.45],[0.03368,0.5],[0.03848,0.55],[0.04868,0.6],[0.06086,0.65],[0.07857,0.7],[0.101,0.75],[0.1218,0.8],[0.1583,0.85],[0.1997,0.9],[0.2725,0.95],[0.6568,1]]},"lexical":{"intercept":-3.48972,"weights":{"fused":3.81763,"gap":0,"logRank":-0.866182},"curve":[[0,0],[0.003251,0.05],[0.005266,0.1],[0.007755,0.15],[0.01223,0.2],[0.01508,0.25],[0.02235,0.3],[0.03136,0.35],[0.04359,0.4],[0.06114,0.45],[0.08117,0.5],[0.1111,0.55],[0.1357,0.6],[0.1697,0.65],[0.2184,0.7],[0.246,0.75],[0.2884,0.8],[0.3327,0.85],[0.3973,0.9],[0.4836,0.95],[0.5813,1]]},"hybrid":{"intercept":-13.1905,"weights":{"fused":17.6434,"gap":-1.55479,"logRank":-0.846318},"curve":[[0,0],[0.003912,0.05],[0.007295,0.1],[0.01622,0.15],[0.02209,0.2],[0.03362,0.25],[0.04275,0.3],[0.05561,0.35],[0.07449,0.4],[0.1016,0.45],[0.126,0.5],[0.1538,0.55],[0.1854,0.6],[0.2259,0.65],[0.275,0.7],[0.3219,0.75],[0.377,0.8],[0.4312,0.85],[0.5105,0.9],[0.5962,0.95],[0.8491,1]]}};
