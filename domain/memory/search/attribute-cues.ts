/**
 * Questions about a person's single-valued attributes (docs/memory-search.md#reranking): "where do
 * I live?" asks about a residence, and the memory that answers it may say "I moved to Lisbon" with
 * no word of the question. When a question holds a word of an attribute's cues (the words any
 * statement of it tends to hold, the same table the supersede rules use), the attribute's other cue
 * words are what the reranker looks for in a memory. Pure, for exact unit tests.
 */
import { ATTRIBUTE_CUES } from '../vocabulary/person-attributes';
import { queryTerms } from './text-terms';
import { root } from '../vocabulary/word-roots';

/** Each attribute's cue words as index terms (stemmed, stop words dropped). */
const CUE_TERMS: string[][] = Object.values(ATTRIBUTE_CUES).map((cues) => [
  ...new Set(cues.flatMap((c) => queryTerms(c))),
]);

/**
 * The cue terms of every attribute the question names a cue of, minus the question's own terms
 * (those the lexical signal already weighs); empty when it names none.
 */
export function attributeCueTerms(question: string): string[] {
  const asked = new Set(queryTerms(question));
  const out = new Set<string>();
  for (const terms of CUE_TERMS)
    if (terms.some((t) => asked.has(t))) for (const t of terms) if (!asked.has(t)) out.add(t);
  return [...out];
}

/** The roots of cue words, as the subject reader gives them. */
export const cueRoots = (cues: string[]): Set<string> =>
  new Set(cues.flatMap((c) => c.toLowerCase().split(/\s+/)).map(root));

/** Each attribute's cue words as roots (vocabulary/word-roots.ts), for reading statements. */
const CUE_ROOTS: Set<string>[] = Object.values(ATTRIBUTE_CUES).map(cueRoots);

/**
 * The cue roots of every attribute one of `roots` (a statement's or a question's word roots) is a
 * cue of: "I switched my employer to Globex" is the employer's statement, though no sentence shape
 * reads it. Undefined when it names none.
 */
export function cueRootsOf(roots: Iterable<string>): Set<string> | undefined {
  const held = new Set(roots);
  const out = new Set<string>();
  for (const cues of CUE_ROOTS) if ([...cues].some((r) => held.has(r))) for (const r of cues) out.add(r);
  return out.size ? out : undefined;
}
