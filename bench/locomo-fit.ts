/**
 * `npm run bench:locomo-fit`: fits the search calibration (docs/memory-search.md#calibration) on
 * LoCoMo and reports it.
 *
 * For every question and search mode, the candidates of the service's retrieval (pool 40, as for a
 * top_k 10 search with decay) and their features are collected (bench/lib/locomo-features.ts,
 * cached), and of the next conversation's memories in its split, where nothing answers it. On
 * conversations 1–3 (the dev split), per mode:
 *   1. a logistic regression of "the candidate is evidence" (never, for the foreign questions) on the features (fused relevance, gap to
 *      the query's best, ln rank), with the fused relevance's weight held >= 0 and the others <= 0,
 *      so calibration never reorders a query's candidates;
 *   2. a curve from the model's probability to the share of the dev evidence candidates scoring
 *      lower, with a knot every 5%.
 * Then recall@10 without and with the spec's decay, fused relevance vs calibrated (ranked offline as
 * search ranks, no near-duplicate merge), on the dev split, conversations 4–10 and all, and what
 * min_score keeps.
 *
 * BENCH_CONVERSATIONS (default 10), BENCH_REFRESH=1 rebuilds the cached features, BENCH_WRITE=1
 * writes domain/memory/search/calibration-fit.ts (then run prettier on it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibratedRelevance, type Calibration } from '../domain/memory/search/calibration';
import {
  FEATURE_NAMES,
  relevanceFeatures,
  type RelevanceFeatures,
} from '../domain/memory/search/relevance-features';
import { rerankScore, type RerankModel } from '../domain/memory/search/rerank';
import { RERANK_FEATURES } from '../domain/memory/search/rerank-features';
import { SEARCH_MODES } from '../shared/memory-requests';
import { repoRoot } from '../shared/paths';
import { envInt, pct, runBench, table } from './lib/bench-stats';
import { minScoreFigures, recallFigures } from './lib/calibration-eval';
import { DEV_CONVERSATIONS, locomoFeatures, type QuestionRows } from './lib/locomo-features';
import { fitLogistic } from './lib/logistic-fit';
import { quantileCurve } from './lib/quantile-curve';
import { ascendRecall, meanRecall } from './lib/rank-ascent';
import { RERANK } from '../domain/memory/search/rerank-fit';

const CURVE_STEPS = 20;
/** The fused relevance may only raise the relevance; the gap and the rank may only lower it. */
const SIGNS = { fused: 1, gap: -1, logRank: -1 } as const;
const OUT = path.join(repoRoot, 'domain', 'memory', 'search', 'calibration-fit.ts');
const RERANK_OUT = path.join(repoRoot, 'domain', 'memory', 'search', 'rerank-fit.ts');

/**
 * The reranker (hybrid), fitted on the dev questions' own candidates (not the foreign ones): a
 * logistic regression of "is evidence" on the rerank features, every weight held >= 0 (each
 * feature may only raise a candidate), then coordinate ascent of the weights on the dev questions'
 * recall@10 (bench/lib/rank-ascent.ts), from the logistic weights and from the reranker in use.
 */
function fitRerank(dev: QuestionRows[]): { logistic: RerankModel; model: RerankModel } {
  const own = dev.filter((q) => !q.foreign);
  const rows = own.flatMap((q) => q.rows.filter((r) => r.rerank));
  const fitted = fitLogistic(
    rows.map((r) => RERANK_FEATURES.map((n) => r.rerank![n])),
    rows.map((r) => (r.evidence ? 1 : 0)),
    RERANK_FEATURES.map(() => 1),
  );
  const round = (x: number) => Number(x.toPrecision(6));
  const logistic: RerankModel = {
    intercept: round(fitted.intercept),
    weights: Object.fromEntries(RERANK_FEATURES.map((n, j) => [n, round(fitted.weights[j])])),
  };
  const ranked = own.map((q) => ({
    evidence: q.evidence,
    rows: q.rows.filter((r) => r.rerank).map((r) => ({ rerank: r.rerank!, evidence: r.evidence })),
  }));
  // Coordinate ascent finds a local optimum: it starts from the logistic weights and from the
  // reranker in use (a feature it lacks at the logistic weight), and the better on dev is kept.
  const inUse: RerankModel = {
    intercept: logistic.intercept,
    weights: Object.fromEntries(
      RERANK_FEATURES.map((n) => [n, RERANK.weights[n] ?? logistic.weights[n] ?? 0]),
    ),
  };
  const ascended = [ascendRecall(ranked, logistic), ascendRecall(ranked, inUse)].reduce((best, m) =>
    meanRecall(ranked, m) > meanRecall(ranked, best) ? m : best,
  );
  return {
    logistic,
    model: {
      intercept: ascended.intercept,
      weights: Object.fromEntries(RERANK_FEATURES.map((n) => [n, round(ascended.weights[n] ?? 0)])),
    },
  };
}

/** The questions' candidates reordered by the reranker, with calibration's features of that order. */
function reranked(questions: QuestionRows[], model: RerankModel): QuestionRows[] {
  return questions.map((q) => {
    const scored = q.rows
      .map((r) => ({ r, score: r.rerank ? rerankScore(r.rerank, model) : r.features.fused }))
      .sort((a, b) => b.score - a.score);
    const features = relevanceFeatures(scored.map((s) => s.score));
    return { ...q, rows: scored.map((s, i) => ({ ...s.r, features: features[i] })) };
  });
}

function rerankSource(model: RerankModel, questions: number): string {
  return `/**
 * The fitted reranker (docs/memory-search.md#reranking), written by
 * \`BENCH_WRITE=1 npm run bench:locomo-fit\`: a logistic model of "this candidate answers the
 * question" over its rerank features, fitted on LoCoMo conversations 1–${DEV_CONVERSATIONS} (${questions} questions),
 * every weight held >= 0, then coordinate ascent of the weights on those questions' recall@10.
 */
import type { RerankModel } from './rerank';

export const RERANK: RerankModel = ${JSON.stringify(model)};
`;
}

const vector = (f: RelevanceFeatures) => FEATURE_NAMES.map((n) => f[n]);

/** The calibration of one mode, fitted on `dev`. */
function fit(dev: QuestionRows[]): Calibration {
  const rows = dev.flatMap((q) => q.rows);
  const model = fitLogistic(
    rows.map((r) => vector(r.features)),
    rows.map((r) => (r.evidence ? 1 : 0)),
    FEATURE_NAMES.map((n) => SIGNS[n]),
  );
  const round = (x: number) => Number(x.toPrecision(6));
  const logistic: Calibration = {
    intercept: round(model.intercept),
    weights: Object.fromEntries(FEATURE_NAMES.map((n, j) => [n, round(model.weights[j])])),
  };
  const evidence = rows.filter((r) => r.evidence).map((r) => calibratedRelevance(r.features, logistic));
  return { ...logistic, curve: quantileCurve(evidence, CURVE_STEPS) };
}

function source(calibrations: Record<string, Calibration>, questions: number): string {
  return `/**
 * The fitted calibration of each search mode (docs/memory-search.md#calibration), written by
 * \`BENCH_WRITE=1 npm run bench:locomo-fit\`: a logistic model of "this candidate answers the
 * question", fitted on LoCoMo conversations 1–${DEV_CONVERSATIONS} (${questions} questions, each also asked of another
 * conversation), then the share of those conversations' answers that score lower (a knot every ${100 / CURVE_STEPS}%).
 */
import type { SearchMode } from '../../../shared/memory-requests';
import type { Calibration } from './calibration';

/** Per search mode. */
export const CALIBRATIONS: Record<SearchMode, Calibration> = ${JSON.stringify(calibrations)};
`;
}

async function main(): Promise<void> {
  const conversations = envInt('BENCH_CONVERSATIONS', 10);
  const data = await locomoFeatures(conversations, process.env.BENCH_REFRESH === '1');
  const calibrations: Record<string, Calibration> = {};
  const recallRows: string[][] = [];
  const minScoreRows: string[][] = [];
  let devQuestions = 0;
  let rerankModel: RerankModel | undefined;
  for (const mode of SEARCH_MODES) {
    let questions = data.filter((q) => q.mode === mode);
    if (mode === 'hybrid' && questions.some((q) => q.rows.some((r) => r.rerank))) {
      const unranked = questions;
      const fitted = fitRerank(unranked.filter((q) => q.conversation < DEV_CONVERSATIONS));
      rerankModel = fitted.model;
      console.log(`rerank (logistic): weights ${JSON.stringify(fitted.logistic.weights)}`);
      console.log(`rerank (after coordinate ascent): weights ${JSON.stringify(rerankModel.weights)}`);
      questions = reranked(unranked, rerankModel);
      for (const [name, qs] of [
        ['fused + neighbours', unranked],
        ['reranked (logistic)', reranked(unranked, fitted.logistic)],
        ['reranked', questions],
      ] as const) {
        const cells = [
          (q: QuestionRows) => q.conversation < DEV_CONVERSATIONS,
          (q: QuestionRows) => q.conversation >= DEV_CONVERSATIONS,
          () => true,
        ].map((inSplit) => {
          const split = qs.filter(inSplit);
          if (!split.length) return '-';
          const r = recallFigures(split, (f) => f.fused);
          return `${pct(r.plain)} / ${pct(r.decay)} decayed`;
        });
        console.log(`  hybrid ${name}: R@10 dev ${cells[0]}; held out ${cells[1]}; all ${cells[2]}`);
      }
    }
    const dev = questions.filter((q) => q.conversation < DEV_CONVERSATIONS);
    const heldOut = questions.filter((q) => q.conversation >= DEV_CONVERSATIONS);
    devQuestions = dev.filter((q) => !q.foreign).length;
    const c = (calibrations[mode] = fit(dev));
    console.log(`${mode}: intercept ${c.intercept}, weights ${JSON.stringify(c.weights)}`);
    console.log(`  curve ${JSON.stringify(c.curve)}`);
    const variants: [string, (f: RelevanceFeatures) => number][] = [
      ['fused', (f) => f.fused],
      ['calibrated', (f) => calibratedRelevance(f, c)],
    ];
    for (const [name, relevance] of variants) {
      const cells = [dev, heldOut, questions].flatMap((qs) => {
        if (!qs.length) return ['-', '-'];
        const r = recallFigures(qs, relevance);
        return [pct(r.plain), pct(r.decay)];
      });
      recallRows.push([mode, name, ...cells]);
      for (const t of [0.3, 0.5]) {
        const m = minScoreFigures(questions, relevance, t);
        minScoreRows.push([
          mode,
          name,
          t.toFixed(1),
          pct(m.evidenceKept),
          pct(m.othersDropped),
          pct(m.foreignDropped),
        ]);
      }
    }
  }
  const splits = [
    `conv. 1-${DEV_CONVERSATIONS} (dev)`,
    `conv. ${DEV_CONVERSATIONS + 1}-${conversations}`,
    'all',
  ];
  console.log('\nR@10 offline (candidates ranked by relevance, and by the decayed score)\n');
  console.log(table(['mode', 'relevance', ...splits.flatMap((s) => [`${s}`, `${s} + decay`])], recallRows));
  console.log('\nmin_score over the top 10 with decay (all conversations)\n');
  console.log(
    table(
      ['mode', 'relevance', 'min_score', 'evidence kept', 'others dropped', 'foreign dropped'],
      minScoreRows,
    ),
  );
  if (process.env.BENCH_WRITE === '1') {
    fs.writeFileSync(OUT, source(calibrations, devQuestions));
    console.log(`\nwrote ${path.relative(repoRoot, OUT)}`);
    if (rerankModel) {
      fs.writeFileSync(RERANK_OUT, rerankSource(rerankModel, devQuestions));
      console.log(`wrote ${path.relative(repoRoot, RERANK_OUT)}`);
    }
  }
}

runBench(main);
