/** BM25 over slots with fixed inputs: scores, normalized relevance, filters, removal. */
import { LexicalIndex, Vocabulary } from '../../../domain/memory/search/lexical-index';

const vocabulary = new Vocabulary();
const ids = (terms: string[]) => terms.map((t) => vocabulary.idOf(t));

function indexOf(docs: string[][]): LexicalIndex {
  const index = new LexicalIndex();
  docs.forEach((terms, slot) => index.add(slot, ids(terms)));
  return index;
}

const K1 = 1.2;
const B = 0.75;
const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
const part = (n: number, df: number, tf: number, len: number, avg: number) =>
  (idf(n, df) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * len) / avg));

describe('LexicalIndex', () => {
  const docs = [
    ['red', 'apple'],
    ['green', 'apple', 'apple', 'pie'],
    ['blue', 'sky'],
    ['zx81', 'manual'],
  ];
  const index = indexOf(docs);
  const all = () => true;
  const query = (terms: string[]) => terms.map((t) => vocabulary.find(t));

  it('scores with Okapi BM25 on the index statistics, best first', () => {
    const [hits] = index.searchMany(query(['apple', 'pie']), 10, [all]);
    const avg = 10 / 4;
    const d1 = part(4, 2, 2, 4, avg) + part(4, 1, 1, 4, avg);
    const d0 = part(4, 2, 1, 2, avg);
    expect(hits.map((h) => h.slot)).toEqual([1, 0]);
    expect(hits[0].score).toBeCloseTo(d1, 12);
    expect(hits[1].score).toBeCloseTo(d0, 12);
    expect(hits[0].matched).toEqual([0, 1]);
    expect(hits[1].matched).toEqual([0]);
  });

  it('relevance is the score over the sum of query idfs, clamped to [0, 1]', () => {
    const [hits] = index.searchMany(query(['apple', 'pie']), 10, [all]);
    const ceiling = idf(4, 2) + idf(4, 1);
    expect(hits[1].relevance).toBeCloseTo(hits[1].score / ceiling, 12);
    for (const h of hits) expect(h.relevance).toBeLessThanOrEqual(1);
    // An unknown term adds to the ceiling as a term no memory holds: a partial match scores lower.
    const [partial] = index.searchMany([...query(['zx81']), undefined], 10, [all]);
    const [whole] = index.searchMany(query(['zx81']), 10, [all]);
    expect(partial[0].relevance).toBeLessThan(whole[0].relevance);
  });

  it('applies each filter and the limit, and forgets removed slots', () => {
    const [even, one] = index.searchMany(query(['apple']), 1, [(s) => s % 2 === 0, all]);
    expect(even.map((h) => h.slot)).toEqual([0]);
    expect(one).toHaveLength(1);
    const fresh = indexOf(docs);
    fresh.remove(1, ids(docs[1]));
    expect(fresh.searchMany(query(['pie']), 10, [all])[0]).toEqual([]);
    expect(fresh.searchMany(query(['apple']), 10, [all])[0].map((h) => h.slot)).toEqual([0]);
    expect(new LexicalIndex().searchMany(query(['apple']), 10, [all])).toEqual([[]]);
  });
});

describe('LexicalIndex base and delta', () => {
  /** BM25 recomputed from scratch over the live documents, the reference. */
  function naive(docs: Map<number, number[]>, query: number[]): Map<number, number> {
    const n = docs.size;
    const avg = [...docs.values()].reduce((a, d) => a + d.length, 0) / n || 1;
    const scores = new Map<number, number>();
    for (const q of query) {
      const df = [...docs.values()].filter((d) => d.includes(q)).length;
      for (const [slot, d] of docs) {
        const tf = d.filter((t) => t === q).length;
        if (!tf) continue;
        scores.set(slot, (scores.get(slot) ?? 0) + part(n, df, tf, d.length, avg));
      }
    }
    return scores;
  }

  it('scores like a from-scratch BM25 through adds, removes, slot reuse and compactions', () => {
    let seed = 5;
    const rand = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % k;
    };
    const index = new LexicalIndex();
    const docs = new Map<number, number[]>();
    const doc = () => Array.from({ length: 1 + rand(8) }, () => rand(30));
    for (let step = 0; step < 3000; step++) {
      const slot = rand(200);
      if (docs.has(slot)) {
        index.remove(slot, docs.get(slot)!);
        docs.delete(slot);
      } else {
        const d = doc();
        index.add(slot, d);
        docs.set(slot, d);
      }
      if (step % 700 === 0) index.compact();
      if (step % 250 !== 0) continue;
      const query = [rand(30), rand(30), rand(30)];
      const expected = naive(docs, [...new Set(query)]);
      const [hits] = index.searchMany([...new Set(query)], 500, [() => true]);
      expect(hits.length).toBe(expected.size);
      for (const h of hits) expect(h.score).toBeCloseTo(expected.get(h.slot)!, 9);
    }
  });
});
