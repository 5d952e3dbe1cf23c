/**
 * Okapi BM25's two parts, shared by the embedded lexical index and the Qdrant store's sparse
 * vectors, so both score a memory the same way (docs/memory-search.md#lexical).
 */

const K1 = 1.2;
const B = 0.75;

/** idf of a term held by `df` of `n` memories (the non-negative Lucene form). */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** The term-frequency part: tf·(k1 + 1) / (tf + k1·(1 − b + b·length/averageLength)). */
export function termFrequencyPart(tf: number, length: number, averageLength: number): number {
  return (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / averageLength));
}
