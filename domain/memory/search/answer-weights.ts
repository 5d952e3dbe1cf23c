/**
 * Which memories can answer a question about what holds now (docs/memory-search.md#now-and-then):
 * a question for a value in the present ("Which gym do I go to?") is answered by a memory that
 * asserts a value, not by one that only mentions a value in passing ("Walked past Ajax on the way
 * home", "I used to love Ajax") nor by one that names nothing the question asks about ("Made pasta
 * for dinner"). Those keep a share of their relevance, so they still come when nothing better does.
 * A question about the past ("Where did I live before?") reads earlier versions too, and a memory
 * that replaced an earlier value yields to them.
 */
import { aboutWords, mentionsOnly, namedValues } from '../supersede/statement-evidence';
import type { Candidate } from './hybrid-retrieval';
import { questionTime } from './question-time';

/** The share of its relevance a memory that cannot answer a question about now keeps. */
export const NOT_AN_ANSWER_NOW = 0.5;

/** Whether a memory can answer a question for a value now, whose words of what it asks about are `asked`. */
function answersNow(memory: string, asked: Set<string>): boolean {
  if (mentionsOnly(memory)) return false;
  if (namedValues(memory).length) return true;
  for (const w of aboutWords(memory, [])) if (asked.has(w)) return true;
  return false;
}

/** The share of its relevance a memory keeps, for a question about the past, when it replaced an earlier value. */
export const REPLACED_IT_THEN = 0.5;

/**
 * The question's weighting of candidates. About now: non-answers lose relevance, and relevances
 * are taken relative to the best answer. About the past: a memory whose value replaced an earlier
 * one (it holds since a later statement than its first) yields to the earlier versions.
 */
export function answerWeights(question: string): <C extends Candidate>(candidates: C[]) => C[] {
  const time = questionTime(question);
  if (time === 'either') return (c) => c;
  const asked = aboutWords(question, []);
  const weight = (c: Candidate): number =>
    time === 'then'
      ? replacedAnEarlierValue(c)
        ? REPLACED_IT_THEN
        : 1
      : answersNow(c.record.memory, asked)
        ? 1
        : NOT_AN_ANSWER_NOW;
  return <C extends Candidate>(candidates: C[]): C[] => {
    const weighed = candidates.map((c) => {
      const w = weight(c);
      return w === 1 ? c : { ...c, relevance: c.relevance * w };
    });
    // Relative to the best answer: the memory that answers best is as relevant as can be.
    const best = weighed.reduce((m, c) => Math.max(m, c.relevance), 0);
    return weighed
      .map((c) => (best > 0 ? { ...c, relevance: c.relevance / best } : c))
      .sort((a, b) => b.relevance - a.relevance);
  };
}

/** A current memory holding since a later statement than its first: it replaced an earlier value. */
const replacedAnEarlierValue = (c: Candidate): boolean =>
  c.record.valid_to === null && Date.parse(c.record.valid_from) > Date.parse(c.record.created_at);
