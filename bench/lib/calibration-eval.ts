/**
 * Offline figures of a calibration on the LoCoMo feature rows (bench/locomo-fit.ts): recall@10 with
 * and without the spec's time decay, ranking the candidates as search does, and what a min_score
 * threshold keeps.
 */
import { decayedScore } from '../../domain/memory/search/time-decay';
import type { RelevanceFeatures } from '../../domain/memory/search/relevance-features';
import type { QuestionRows } from './locomo-features';

const DAY_MS = 86_400_000;
const NOW = new Date('2030-01-01T00:00:00Z');
const createdAt = (ageDays: number) => new Date(NOW.getTime() - ageDays * DAY_MS).toISOString();

/** Recall@k of one question when its candidates are ranked by `score`. */
function recallAt(q: QuestionRows, score: (i: number) => number, k: number): number {
  const order = q.rows.map((_, i) => i).sort((a, b) => score(b) - score(a) || a - b);
  return order.slice(0, k).filter((i) => q.rows[i].evidence).length / q.evidence;
}

/** Mean recall@10 without and with decay, relevance from `relevance` (questions asked of their own conversation). */
export function recallFigures(
  all: QuestionRows[],
  relevance: (f: RelevanceFeatures) => number,
): { plain: number; decay: number } {
  let plain = 0;
  let decay = 0;
  const questions = all.filter((q) => !q.foreign);
  for (const q of questions) {
    const rel = q.rows.map((r) => relevance(r.features));
    plain += recallAt(q, (i) => rel[i], 10);
    decay += recallAt(q, (i) => decayedScore(rel[i], createdAt(q.rows[i].ageDays), NOW), 10);
  }
  return { plain: plain / questions.length, decay: decay / questions.length };
}

/**
 * Over the top 10 of the default search (decay on), at `threshold`: evidence kept, other results
 * dropped, and results dropped for a question asked of another conversation (nothing answers it).
 */
export function minScoreFigures(
  questions: QuestionRows[],
  relevance: (f: RelevanceFeatures) => number,
  threshold: number,
): { evidenceKept: number; othersDropped: number; foreignDropped: number } {
  let evidence = 0;
  let kept = 0;
  let others = 0;
  let dropped = 0;
  let foreign = 0;
  let foreignDropped = 0;
  for (const q of questions) {
    const rel = q.rows.map((r) => relevance(r.features));
    const order = q.rows
      .map((_, i) => i)
      .sort(
        (a, b) =>
          decayedScore(rel[b], createdAt(q.rows[b].ageDays), NOW) -
            decayedScore(rel[a], createdAt(q.rows[a].ageDays), NOW) || a - b,
      )
      .slice(0, 10);
    for (const i of order) {
      if (q.foreign) {
        foreign++;
        if (rel[i] < threshold) foreignDropped++;
      } else if (q.rows[i].evidence) {
        evidence++;
        if (rel[i] >= threshold) kept++;
      } else {
        others++;
        if (rel[i] < threshold) dropped++;
      }
    }
  }
  const share = (n: number, of: number) => (of ? n / of : NaN);
  return {
    evidenceKept: share(kept, evidence),
    othersDropped: share(dropped, others),
    foreignDropped: share(foreignDropped, foreign),
  };
}
