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

const K1 = 1.2;
const B = 0.75;
/** Postings pack slot and term frequency in one small integer: slot · 64 + min(tf, 63). */
const TF_BITS = 64;

export class LexicalIndex {
  private readonly postings = new Map<number, number[]>();
  private readonly lengths: number[] = [];
  private documents = 0;
  private totalLength = 0;

  /** Indexes `slot` under its terms (with repeats); the slot must not be indexed already. */
  add(slot: number, termIds: number[]): void {
    const tf = countTerms(termIds);
    for (const [term, n] of tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      list.push(slot * TF_BITS + Math.min(n, TF_BITS - 1));
    }
    this.lengths[slot] = termIds.length;
    this.documents++;
    this.totalLength += termIds.length;
  }

  /** Removes `slot`, indexed under exactly these terms. */
  remove(slot: number, termIds: number[]): void {
    for (const term of countTerms(termIds).keys()) {
      const list = this.postings.get(term);
      if (!list) continue;
      const at = list.findIndex((p) => Math.floor(p / TF_BITS) === slot);
      if (at < 0) continue;
      list.splice(at, 1);
      if (!list.length) this.postings.delete(term);
    }
    this.documents--;
    this.totalLength -= this.lengths[slot] ?? 0;
    this.lengths[slot] = 0;
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
      const df = id === undefined ? 0 : (this.postings.get(id)?.length ?? 0);
      return Math.log(1 + (this.documents - df + 0.5) / (df + 0.5));
    });
    const ceiling = idfs.reduce((sum, idf) => sum + idf, 0);
    // Scores accumulate in reused typed arrays (no object per posting: a search over a large
    // user touches tens of thousands of postings, and garbage would show in the tail latency).
    const { scores, masks, touched } = this.scratch(this.lengths.length);
    let count = 0;
    queryIds.forEach((id, qi) => {
      const list = id === undefined ? undefined : this.postings.get(id);
      if (!list) return;
      const idf = idfs[qi];
      const bit = qi < 31 ? 1 << qi : 0;
      for (let i = 0; i < list.length; i++) {
        const posting = list[i];
        const slot = Math.floor(posting / TF_BITS);
        const tf = posting % TF_BITS;
        const norm = K1 * (1 - B + (B * this.lengths[slot]) / avgLength);
        if (masks[slot] === 0 && scores[slot] === 0) touched[count++] = slot;
        scores[slot] += (idf * tf * (K1 + 1)) / (tf + norm);
        masks[slot] |= bit;
      }
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
