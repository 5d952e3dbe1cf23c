/**
 * What a memory has been about, kept with it when a newer statement replaces its value
 * (docs/memory-supersede.md#by-evidence): the words of what each earlier statement was about, in its
 * metadata under `plat_about`. "Dropped Zurich, Aviva were cheaper" says nothing of insurance, but
 * the memory it updated said "My insurance is with Zurich": a later "Moved my insurer over to AXA"
 * replaces it, and "Which insurer do I have?" finds it. Pure, for exact unit tests.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { root } from '../vocabulary/word-roots';
import { aboutWordList } from './statement-about';

/** The metadata key the words are kept under. */
export const ABOUT_METADATA_KEY = 'plat_about';

/** A memory keeps at most this many words of what it has been about (its latest first). */
const MAX_SLOT_WORDS = 16;

/** The words of what the memory's earlier statements were about, as written. */
export function slotWordsOf(record: Pick<MemoryRecord, 'metadata'>): string[] {
  const words = record.metadata[ABOUT_METADATA_KEY];
  return Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string') : [];
}

/** Their roots (vocabulary/word-roots.ts), as statements are compared. */
export const slotRootsOf = (record: Pick<MemoryRecord, 'metadata'>): string[] =>
  slotWordsOf(record).map(root);

/**
 * The metadata a memory keeps when a newer statement replaces what `earlier` said: `metadata`, with
 * the words of what it said added to those it kept.
 */
export function withSlotWords(
  metadata: Record<string, unknown>,
  earlier: Pick<MemoryRecord, 'memory' | 'metadata'>,
): Record<string, unknown> {
  const words = [...new Set([...aboutWordList(earlier.memory), ...slotWordsOf(earlier)])];
  return words.length ? { ...metadata, [ABOUT_METADATA_KEY]: words.slice(0, MAX_SLOT_WORDS) } : metadata;
}
