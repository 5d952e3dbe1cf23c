/**
 * A word's root by the Porter2 (Snowball English) stemmer: derivations meet where the search index's
 * light stemmer keeps them apart ("insurance", "insurer", "insured" → "insur"; "employer",
 * "employed" → "employ"), so two statements of one attribute in other forms of its word are seen to
 * share it (docs/memory-supersede.md#by-evidence). The search index keeps its own stems.
 */
import porter2 from 'wink-porter2-stemmer';

/** Roots are kept per word (a search reads the same words again and again), at most this many. */
const ROOTS_KEPT = 50_000;
/** Longer "words" (a run of letters a caller made up) are rooted, not kept: the memory stays bounded. */
const LONGEST_KEPT = 40;
const roots = new Map<string, string>();

/** The root of a lower-case word. */
export function root(word: string): string {
  let r = roots.get(word);
  if (r === undefined) {
    r = porter2(word);
    if (word.length > LONGEST_KEPT) return r;
    if (roots.size >= ROOTS_KEPT) roots.clear();
    roots.set(word, r);
  }
  return r;
}
