/**
 * A word's root by the Porter2 (Snowball English) stemmer: derivations meet where the search index's
 * light stemmer keeps them apart ("insurance", "insurer", "insured" → "insur"; "employer",
 * "employed" → "employ"), so two statements of one attribute in other forms of its word are seen to
 * share it (docs/memory-supersede.md#by-evidence). The search index keeps its own stems.
 */
import porter2 from 'wink-porter2-stemmer';

/** The root of a lower-case word. */
export const root = (word: string): string => porter2(word);
