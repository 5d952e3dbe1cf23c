/**
 * Okapi BM25 over a small in-memory corpus, the lexical baseline of the LoCoMo benchmark.
 * Tokens: lower-cased runs of letters and digits. idf = ln(1 + (N − df + 0.5) / (df + 0.5)) (the
 * non-negative Lucene form); each distinct query term counts once. No stemming, no stop words.
 */

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: Float64Array;
  private readonly avgLength: number;

  constructor(
    docs: string[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.lengths = new Float64Array(docs.length);
    docs.forEach((text, doc) => {
      const tokens = tokenize(text);
      this.lengths[doc] = tokens.length;
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, n] of tf) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ doc, tf: n });
      }
    });
    this.avgLength = docs.length ? this.lengths.reduce((a, b) => a + b, 0) / docs.length : 0;
  }

  get size(): number {
    return this.lengths.length;
  }

  /** Indices of the `k` best-scoring documents, best first (ties: earlier document first). */
  search(query: string, k: number): number[] {
    const n = this.lengths.length;
    const scores = new Float64Array(n);
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / (this.avgLength || 1));
        scores[doc] += (idf * (tf * (this.k1 + 1))) / (tf + norm);
      }
    }
    const best: number[] = [];
    for (let doc = 0; doc < n; doc++) {
      const s = scores[doc];
      if (s <= 0 || (best.length === k && s <= scores[best[k - 1]])) continue;
      let at = best.length;
      while (at > 0 && scores[best[at - 1]] < s) at--;
      best.splice(at, 0, doc);
      if (best.length > k) best.pop();
    }
    return best;
  }
}
