/**
 * An in-process inverted index over one user's memories, scored with Okapi BM25 on the user's own
 * statistics (docs/memory-search.md#lexical). Documents are the caller's slot numbers (the vector
 * partition's), so one filter serves both signals; terms are ids from a shared `Vocabulary`, so a
 * million memories do not hold a million copies of each word.
 *
 * Besides the BM25 score each hit carries `relevance` in [0, 1]: its score over Σ idf of the query
 * terms, the score of an average-length document holding each term once (clamped at 1 for shorter
 * or richer ones). That is an absolute measure (a
 * memory matching one rare word of six scores low whatever else is in the index), so it can be
 * fused with cosine similarities and compared with `min_score`.
 */

import { idf, termFrequencyPart } from './bm25';

/** Term → id, shared by every partition of a store. */
export class Vocabulary {
  private readonly ids = new Map<string, number>();

  /** The id of a term, assigned on first sight. */
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) this.ids.set(term, (id = this.ids.size));
    return id;
  }

  /** The id of a known term (undefined: no document has it). */
  find(term: string): number | undefined {
    return this.ids.get(term);
  }
}

/** A lexical match: BM25 score, its normalized relevance, and the query terms it holds. */
export interface LexicalMatch {
  slot: number;
  score: number;
  relevance: number;
  /** Indexes into the query's terms. */
  matched: number[];
}

/** Postings pack slot and term frequency in one small integer: slot · 64 + min(tf, 63). */
const TF_BITS = 64;

/**
 * Postings live in two parts. The base is frozen in typed arrays (terms sorted for binary search,
 * postings back to back): off the JS heap, so a million memories' postings are not millions of
 * objects for every major garbage collection to mark. Changes since the last `compact()` live in a
 * small delta (a map of arrays); removing a memory whose postings are in the base only marks its
 * slot, and adjusts the document frequencies. `compact()` folds the delta into a new base; it runs
 * after a bulk load and whenever the delta outgrows a quarter of the base.
 */
export class LexicalIndex {
  private baseTerms = new Int32Array(0);
  private baseOffsets = new Int32Array(1);
  private basePostings = new Int32Array(0);
  /** Per slot: 1 while its base postings describe its current text. */
  private baseLive = new Uint8Array(0);
  private readonly delta = new Map<number, number[]>();
  private deltaPostings = 0;
  /** Per term: −1 for each base posting whose slot was removed since the last compaction. */
  private readonly dfAdjust = new Map<number, number>();
  private readonly lengths: number[] = [];
  private documents = 0;
  private totalLength = 0;

  /** Indexes `slot` under its terms (with repeats); the slot must not be indexed already. */
  add(slot: number, termIds: number[]): void {
    for (const [term, n] of countTerms(termIds)) {
      let list = this.delta.get(term);
      if (!list) this.delta.set(term, (list = []));
      list.push(slot * TF_BITS + Math.min(n, TF_BITS - 1));
      this.deltaPostings++;
    }
    this.lengths[slot] = termIds.length;
    this.documents++;
    this.totalLength += termIds.length;
    if (this.deltaPostings > Math.max(4096, this.basePostings.length / 4)) this.compact();
  }

  /** Removes `slot`, indexed under exactly these terms. */
  remove(slot: number, termIds: number[]): void {
    const inBase = this.baseLive[slot] === 1;
    if (inBase) this.baseLive[slot] = 0;
    for (const term of countTerms(termIds).keys()) {
      if (inBase) {
        this.dfAdjust.set(term, (this.dfAdjust.get(term) ?? 0) - 1);
        continue;
      }
      const list = this.delta.get(term);
      const at = list ? list.findIndex((p) => Math.floor(p / TF_BITS) === slot) : -1;
      if (!list || at < 0) continue;
      list.splice(at, 1);
      this.deltaPostings--;
      if (!list.length) this.delta.delete(term);
    }
    this.documents--;
    this.totalLength -= this.lengths[slot] ?? 0;
    this.lengths[slot] = 0;
  }

  /** Folds the delta into a new base (drops removed slots' postings). */
  compact(): void {
    const counts = new Map<number, number>();
    const live = (posting: number) => this.baseLive[Math.floor(posting / TF_BITS)] === 1;
    for (let t = 0; t < this.baseTerms.length; t++) {
      let n = 0;
      for (let i = this.baseOffsets[t]; i < this.baseOffsets[t + 1]; i++) if (live(this.basePostings[i])) n++;
      if (n) counts.set(this.baseTerms[t], n);
    }
    for (const [term, list] of this.delta) counts.set(term, (counts.get(term) ?? 0) + list.length);
    const terms = Int32Array.from(counts.keys()).sort();
    const offsets = new Int32Array(terms.length + 1);
    terms.forEach((term, i) => (offsets[i + 1] = offsets[i] + counts.get(term)!));
    const postings = new Int32Array(offsets[terms.length]);
    const fill = Int32Array.from(offsets.subarray(0, terms.length));
    const at = new Map<number, number>();
    terms.forEach((term, i) => at.set(term, i));
    for (let t = 0; t < this.baseTerms.length; t++) {
      const i = at.get(this.baseTerms[t]);
      if (i === undefined) continue;
      for (let j = this.baseOffsets[t]; j < this.baseOffsets[t + 1]; j++)
        if (live(this.basePostings[j])) postings[fill[i]++] = this.basePostings[j];
    }
    const baseLive = new Uint8Array(Math.max(this.lengths.length, this.baseLive.length));
    baseLive.set(this.baseLive);
    for (const [term, list] of this.delta) {
      const i = at.get(term)!;
      for (const posting of list) {
        postings[fill[i]++] = posting;
        baseLive[Math.floor(posting / TF_BITS)] = 1;
      }
    }
    this.baseTerms = terms;
    this.baseOffsets = offsets;
    this.basePostings = postings;
    this.baseLive = baseLive;
    this.delta.clear();
    this.dfAdjust.clear();
    this.deltaPostings = 0;
  }

  /** Where a term's base postings are: [start, end) into basePostings (empty when absent). */
  private baseRange(term: number): [number, number] {
    let lo = 0;
    let hi = this.baseTerms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = this.baseTerms[mid];
      if (t === term) return [this.baseOffsets[mid], this.baseOffsets[mid + 1]];
      if (t < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return [0, 0];
  }

  /** How many memories hold the term. */
  private documentFrequency(term: number): number {
    const [start, end] = this.baseRange(term);
    return end - start + (this.dfAdjust.get(term) ?? 0) + (this.delta.get(term)?.length ?? 0);
  }

  /**
   * For each predicate, the `limit` best BM25 matches of the query terms (ids; undefined = a term
   * no memory has) among slots it accepts, best first.
   */
  searchMany(
    queryIds: (number | undefined)[],
    limit: number,
    accepts: ((slot: number) => boolean)[],
  ): LexicalMatch[][] {
    if (!this.documents || limit <= 0) return accepts.map(() => []);
    const avgLength = this.totalLength / this.documents || 1;
    const idfs = queryIds.map((id) => {
      const df = id === undefined ? 0 : this.documentFrequency(id);
      return idf(this.documents, df);
    });
    const ceiling = idfs.reduce((sum, idf) => sum + idf, 0);
    // Scores accumulate in reused typed arrays (no object per posting: a search over a large
    // user touches tens of thousands of postings, and garbage would show in the tail latency).
    const { scores, masks, touched } = this.scratch(this.lengths.length);
    let count = 0;
    const accumulate = (posting: number, weight: number, bit: number) => {
      const slot = Math.floor(posting / TF_BITS);
      const tf = posting % TF_BITS;
      if (masks[slot] === 0 && scores[slot] === 0) touched[count++] = slot;
      scores[slot] += weight * termFrequencyPart(tf, this.lengths[slot], avgLength);
      masks[slot] |= bit;
    };
    queryIds.forEach((id, qi) => {
      if (id === undefined) return;
      const weight = idfs[qi];
      const bit = qi < 31 ? 1 << qi : 0;
      const [start, end] = this.baseRange(id);
      for (let i = start; i < end; i++) {
        const posting = this.basePostings[i];
        if (this.baseLive[Math.floor(posting / TF_BITS)] === 1) accumulate(posting, weight, bit);
      }
      for (const posting of this.delta.get(id) ?? []) accumulate(posting, weight, bit);
    });
    const results = accepts.map((accept) => {
      const best: { slot: number; score: number }[] = [];
      for (let i = 0; i < count; i++) {
        const slot = touched[i];
        const score = scores[slot];
        if (best.length === limit && score <= best[limit - 1].score) continue;
        if (!accept(slot)) continue;
        let at = best.length;
        while (at > 0 && best[at - 1].score < score) at--;
        best.splice(at, 0, { slot, score });
        if (best.length > limit) best.pop();
      }
      return best.map(({ slot, score }) => ({
        slot,
        score,
        relevance: ceiling > 0 ? Math.min(1, score / ceiling) : 0,
        matched: queryIds.flatMap((_, qi) => (qi < 31 && masks[slot] & (1 << qi) ? [qi] : [])),
      }));
    });
    for (let i = 0; i < count; i++) {
      scores[touched[i]] = 0;
      masks[touched[i]] = 0;
    }
    return results;
  }

  private buffers?: { scores: Float64Array; masks: Int32Array; touched: Int32Array };

  /** Zeroed per-slot accumulators for at least `slots` slots (grown, never shrunk). */
  private scratch(slots: number): { scores: Float64Array; masks: Int32Array; touched: Int32Array } {
    if (!this.buffers || this.buffers.scores.length < slots) {
      const size = Math.max(64, Math.ceil(slots * 1.5));
      this.buffers = {
        scores: new Float64Array(size),
        masks: new Int32Array(size),
        touched: new Int32Array(size),
      };
    }
    return this.buffers;
  }
}

function countTerms(termIds: number[]): Map<number, number> {
  const tf = new Map<number, number>();
  for (const t of termIds) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
