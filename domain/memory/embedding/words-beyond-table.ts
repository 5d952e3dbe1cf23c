/**
 * Words the model's word table lacks (docs/memory-supersede.md#by-the-words-a-statement-evokes): the
 * table keeps only the whole words of the model's own vocabulary, and many nouns that name an
 * attribute are rarer than that ("babysitter", "optician", "lender"). Such a word is put to the model
 * as the table's words were, once, and is near the table's words nearest it: "babysitter" is near
 * "kid" and "nanny", "optician" near "glasses", "lender" near "mortgage", as a table word is near its own.
 */
import type { Embedder } from './embedder';
import { WORD_TABLE_RELATED, WORD_TABLE_TEMPLATE } from './word-table';

/** Which words are near which: the table's, and those found here. */
export type WordsNear = (a: string, b: string) => boolean;

/**
 * Words the table lacks considered per call at most (the first ones, in the order given): a tenant's
 * text may hold any number of made-up words, and each costs a share of an inference the first time.
 */
const LOOKED_UP_PER_CALL = 8;
/** Words kept with their nearest table words, per process (the oldest dropped first). */
const KEPT = 20_000;
/** Only words of letters, of a length a word has. */
const LOOKS_LIKE_A_WORD = /^\p{Ll}{3,30}$/u;

const nearestOf = new Map<string, string[]>();

/**
 * Which words are near which, with each of `words` the table lacks related to the table words nearest
 * it; undefined when the model has no table.
 */
export async function wordsNear(
  embedder: Pick<Embedder, 'id' | 'embed' | 'nearestWords' | 'nearestWordsOf' | 'relatedWords'>,
  words: Iterable<string>,
): Promise<WordsNear | undefined> {
  const table = embedder.relatedWords?.();
  if (!table || !embedder.nearestWords) return undefined;
  const key = (w: string) => `${embedder.id}\0${w}`;
  // The words considered are chosen before the cache is read: which words are near which then
  // depends on the words and the model alone, not on what this process looked up before (two
  // instances, or one before and after a restart, relate a statement's words alike).
  const considered = new Set(
    [...new Set(words)]
      .filter((w) => LOOKS_LIKE_A_WORD.test(w) && !table.has(w))
      .slice(0, LOOKED_UP_PER_CALL),
  );
  const nearestHere = new Map<string, string[]>();
  for (const w of considered) {
    const kept = nearestOf.get(key(w));
    if (kept) nearestHere.set(w, kept);
  }
  const missing = [...considered].filter((w) => !nearestHere.has(w));
  if (missing.length) {
    const asked = missing.map((w) => WORD_TABLE_TEMPLATE.replace('{word}', w));
    const nearest = embedder.nearestWordsOf
      ? await embedder.nearestWordsOf(asked, 'query', WORD_TABLE_RELATED)
      : await embedder.nearestWords(await embedder.embed(asked, 'query'), WORD_TABLE_RELATED);
    missing.forEach((w, i) => {
      if (nearestOf.size >= KEPT) nearestOf.delete(nearestOf.keys().next().value!);
      nearestOf.set(key(w), nearest[i] ?? []);
      nearestHere.set(w, nearest[i] ?? []);
    });
  }
  const beyond = (a: string, b: string) => nearestHere.get(a)?.includes(b) ?? false;
  return (a, b) => table.related(a, b) || beyond(a, b) || beyond(b, a);
}
