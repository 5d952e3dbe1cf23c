/**
 * Merging result lists (user + shared space, long-term + short-term): the same memory, or
 * near-identical text, appears once, keeping the best-scored copy.
 */
import type { MemorySearchItem } from '../../../shared/memory-model';
import { normalizeText } from '../memory-text';

/** Word-set overlap above which two memories say the same thing. */
const NEAR_IDENTICAL = 0.9;

function words(text: string): Set<string> {
  return new Set(normalizeText(text).split(' ').filter(Boolean));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const w of a) if (b.has(w)) common++;
  const union = a.size + b.size - common;
  return union === 0 ? 1 : common / union;
}

/** Sorted by score (best first), duplicates removed; stops once `limit` are kept. */
export function mergeResults(lists: MemorySearchItem[][], limit = Infinity): MemorySearchItem[] {
  const all = lists.flat().sort((a, b) => b.score - a.score);
  const kept: { item: MemorySearchItem; words: Set<string> }[] = [];
  for (const item of all) {
    if (kept.length >= limit) break;
    const w = words(item.memory);
    if (kept.some((k) => k.item.id === item.id || jaccard(k.words, w) >= NEAR_IDENTICAL)) continue;
    kept.push({ item, words: w });
  }
  return kept.map((k) => k.item);
}
