/**
 * A word's root by the Porter2 (Snowball English) stemmer: derivations meet where the search index's
 * light stemmer keeps them apart ("insurance", "insurer", "insured" → "insur"; "employer",
 * "employed" → "employ"), so two statements of one attribute in other forms of its word are seen to
 * share it (docs/memory-supersede.md#by-evidence). The search index keeps its own stems.
 */
import porter2 from 'wink-porter2-stemmer';

/** Roots are kept per word (a search reads the same words again and again), at most this many. */
const ROOTS_KEPT = 50_000;
/**
 * Longer "words" (a run of letters a caller made up) are their own root: the stemmer's time grows
 * with the square of a word's length (a 4,000-letter word took half a second), and no word that
 * long has derivations to meet.
 */
const LONGEST_ROOTED = 40;
const roots = new Map<string, string>();

/** The root of a lower-case word. */
export function root(word: string): string {
  if (word.length > LONGEST_ROOTED) return word;
  let r = roots.get(word);
  if (r === undefined) {
    r = porter2(word);
    if (roots.size >= ROOTS_KEPT) roots.clear();
    roots.set(word, r);
  }
  return r;
}
