/**
 * What a statement evokes (docs/memory-supersede.md#by-the-words-a-statement-evokes): the words of
 * the model's word table nearest its vector (embedding/word-table.ts), less the pieces of its own
 * names. Two statements that share no word can evoke the same ones: "I get my hair cut at Kutz" and
 * "My barber is Tony Rossi now" both evoke "barber", "salon" and "hair"; "We rent from Foxtons" and
 * "Our landlord is Mr Patel now" both "landlord" and "tenant". A memory keeps its words in its
 * metadata under `plat_evokes`.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import type { Embedder } from '../embedding/embedder';
import { saysNothingOfAnAttribute } from '../vocabulary/word-classes';
import type { AttributeStatement } from './statement-evidence';
import { root } from '../vocabulary/word-roots';
import { withServiceKey } from './service-metadata';
import { wordsNear, type WordsNear } from '../embedding/words-beyond-table';

/** The metadata key a memory's evoked words are kept under. */
export const EVOKED_METADATA_KEY = 'plat_evokes';

/** Words asked of the table per statement. */
const NEAREST = 10;

/** Words two statements must evoke alike (as roots: "doctor" and "doctors" are one) to be of one attribute. */
const MIN_SHARED = 1;

/** What a statement evokes, and which words the table holds near which. */
export interface Evocation {
  words: string[];
  /**
   * Which words are near which in the table (embedding/word-table.ts), each of `words` the table
   * lacks near the table's words nearest it (embedding/words-beyond-table.ts): "optician", of
   * "Specsavers is my optician", near "glasses".
   */
  relatedAround(words: string[]): Promise<WordsNear>;
}

const sameWord: WordsNear = (a, b) => a === b;

/** What a statement evokes when it sets no attribute, or the model has no word table. */
export const NOTHING_EVOKED: Evocation = { words: [], relatedAround: async () => sameWord };

/** What a statement setting an attribute evokes: its vector's nearest words, less the pieces of its names. */
export async function evokedWords(
  embedder: Pick<Embedder, 'id' | 'embed' | 'nearestWords' | 'relatedWords'>,
  statement: Pick<AttributeStatement, 'values' | 'possessors'>,
  vector: Float32Array,
): Promise<Evocation> {
  const table = embedder.relatedWords?.();
  if (!embedder.nearestWords || !table) return NOTHING_EVOKED;
  const [nearest = []] = await embedder.nearestWords([vector], NEAREST);
  const named = [...statement.values, ...(statement.possessors ?? [])].flatMap(
    (v) => v.match(/[\p{L}\p{N}]+/gu) ?? [],
  );
  // A piece of a name ("mon" for "Monzo") says which value, not which attribute; a whole word of one
  // may say the attribute too ("vets" in "Greenfield Vets").
  const piece = (w: string) =>
    named.some((n) => n.length > w.length && n.startsWith(w) && root(n) !== root(w));
  const words = nearest.filter((w) => !piece(w));
  // The table is there (read above): `wordsNear` finds it too.
  return { words, relatedAround: async (around) => (await wordsNear(embedder, around)) ?? sameWord };
}

/** The words a memory keeps as evoked. */
export function evokedWordsOf(record: Pick<MemoryRecord, 'metadata'>): string[] {
  const words = record.metadata[EVOKED_METADATA_KEY];
  return Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string') : [];
}

/**
 * `metadata` with `evoked` as what the memory evokes: its latest statement's words alone, since
 * words kept from the statements it replaced would make it look like more attributes than one
 * (none, when its new text evokes nothing).
 */
export function withEvokedWords(
  metadata: Record<string, unknown>,
  evoked: string[],
): Record<string, unknown> {
  // A new text that evokes nothing: what the old one evoked no longer holds.
  return withServiceKey(metadata, EVOKED_METADATA_KEY, evoked.length ? evoked : undefined);
}

/** A statement as the evidence of what it evokes reads it: the words it is about (as written) and those it evokes. */
export interface EvokingStatement {
  about: string[];
  evoked: string[];
}

/** The words of `about` that `other` is not about too (as roots). */
function ownWords(about: string[], other: string[]): string[] {
  const others = new Set(other.map(root));
  return about.filter((w) => !others.has(root(w)));
}

/**
 * Whether a word both statements evoke is about what one of them says it is about: the same as, or
 * near, a word of `about` (any word, when it names none). "salon", evoked by "Got my hair cut at
 * Kutz" and by "My barber is Tony now", is near "hair" and "barber"; "browser", evoked by "My laptop
 * is a ThinkPad" and by "Went with Giffgaff as my mobile provider", is near "laptop" but neither
 * "mobile" nor "provider", and "spring" in "… changed to AXA in spring" is near no attribute.
 */
function anchored(word: string, about: string[], related: WordsNear): boolean {
  return about.length === 0 || nearAnyOf(word, about, related);
}

/** Whether `word` is one of `words` (as roots) or near one of them in the word table. */
export function nearAnyOf(word: string, words: string[], related: WordsNear): boolean {
  return words.some((a) => root(a) === root(word) || related(a, word));
}

/**
 * Of `candidates`, the one that shares the most evoked words with `newer` that are about what both
 * say they are about, when one shares more than every other (a tie says the statement is as near two
 * attributes: nothing is replaced).
 */
export function mostEvokedAlike<T>(
  newer: EvokingStatement,
  candidates: { record: T; earlier: EvokingStatement }[],
  related: WordsNear,
): T | undefined {
  // A word of time or change says nothing of an attribute, evoked or written ("tuesday", "weekdays").
  const wanted = new Set(newer.evoked.filter((w) => !saysNothingOfAnAttribute(w)).map(root));
  let best: T | undefined;
  let bestShared = MIN_SHARED - 1;
  let tied = false;
  for (const { record, earlier } of candidates) {
    // Words both say they are about are the frame they share ("Turns out … works better as my …"),
    // not what tells their attributes apart: each is anchored by its own.
    const [newerOwn, earlierOwn] = [
      ownWords(newer.about, earlier.about),
      ownWords(earlier.about, newer.about),
    ];
    const shared = new Set(
      earlier.evoked
        .filter((w) => wanted.has(root(w)))
        .filter((w) => anchored(w, newerOwn, related) && anchored(w, earlierOwn, related))
        .map(root),
    ).size;
    if (shared > bestShared) [best, bestShared, tied] = [record, shared, false];
    else if (shared === bestShared && best !== undefined) tied = true;
  }
  return tied ? undefined : best;
}
