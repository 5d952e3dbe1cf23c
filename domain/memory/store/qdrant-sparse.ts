/**
 * The lexical side of the Qdrant store (docs/memory-search.md#qdrant): each memory's index terms
 * as a sparse vector named `text` whose values are BM25's term-frequency part, and its distinct
 * terms as the keyword payload `terms`, so document frequencies can be counted per user. A query
 * weighs each term by its idf among the searched memories, so the sparse dot product is the BM25
 * score the embedded store computes (with a fixed average length, which Qdrant does not track).
 */
import type { Schemas } from '@qdrant/js-client-rest';
import { termFrequencyPart } from '../search/bm25';

/** The sparse vector's name in the collection. */
export const TEXT_VECTOR = 'text';

/** Assumed average memory length in terms (a fact is a sentence). */
const AVERAGE_TERMS = 12;

/** A term's dimension: FNV-1a, 32 bits (a collision merges two rare terms, harmlessly). */
export function termDimension(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A memory's sparse vector: per distinct dimension, BM25's term-frequency part. */
export function documentVector(terms: string[]): Schemas['SparseVector'] {
  const tf = new Map<number, number>();
  for (const t of terms) tf.set(termDimension(t), (tf.get(termDimension(t)) ?? 0) + 1);
  const indices = [...tf.keys()].sort((a, b) => a - b);
  return {
    indices,
    values: indices.map((i) => termFrequencyPart(tf.get(i)!, terms.length, AVERAGE_TERMS)),
  };
}

/** The query vector: each term that some memory holds, weighted by its idf. */
export function queryVector(weights: Map<string, number>): Schemas['SparseVector'] {
  const byDimension = new Map<number, number>();
  for (const [term, w] of weights) if (w > 0) byDimension.set(termDimension(term), w);
  const indices = [...byDimension.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => byDimension.get(i)!) };
}
