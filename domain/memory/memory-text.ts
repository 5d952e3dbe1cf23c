/** Text normalization shared by deduplication: same words, same hash. */
import { createHash } from 'node:crypto';

/** Lower case, punctuation dropped, whitespace collapsed. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** sha256 of the normalized text: an exact-duplicate key. */
export function textHash(text: string): string {
  return createHash('sha256').update(normalizeText(text)).digest('hex');
}
