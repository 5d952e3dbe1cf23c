/**
 * Which memories can answer a question about what holds now (docs/memory-search.md#now-and-then):
 * a question for a value in the present ("Which gym do I go to?") is answered by a memory that
 * asserts a value, not by one that only mentions a value in passing ("Walked past Ajax on the way
 * home", "I used to love Ajax") nor by one that names nothing the question asks about ("Made pasta
 * for dinner"). Those keep a share of their relevance, so they still come when nothing better does.
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

/** The question's weighting of candidates: for a question about now, non-answers lose relevance. */
export function answerWeights(question: string): (candidates: Candidate[]) => Candidate[] {
  if (questionTime(question) !== 'now') return (c) => c;
  const asked = aboutWords(question, []);
  return (candidates) => {
    const weighed = candidates.map((c) =>
      answersNow(c.record.memory, asked) ? c : { ...c, relevance: c.relevance * NOT_AN_ANSWER_NOW },
    );
    // Relative to the best answer: the memory that answers best is as relevant as can be.
    const best = weighed.reduce((m, c) => Math.max(m, c.relevance), 0);
    return weighed
      .map((c) => (best > 0 ? { ...c, relevance: c.relevance / best } : c))
      .sort((a, b) => b.relevance - a.relevance);
  };
}
