/** What the memory service needs from a sentence-embedding model. */
import type { RelatedWords } from './word-table';

/** What a text is to the model: a search's question, or something to be found. */
export type EmbedAs = 'query' | 'passage';

/**
 * Turns texts into vectors whose dot product measures similarity of meaning.
 *
 * Implementations return unit-length vectors, so cosine similarity is the dot product.
 */
export interface Embedder {
  /**
   * Identifies the model and its exact weights (e.g. `Xenova/all-MiniLM-L6-v2:q8:1a2b3c4d5e6f`).
   * Vectors made under different ids are not comparable: a store that finds vectors under another id
   * must re-embed them.
   */
  readonly id: string;
  /**
   * The similarities that make a stored memory related to a new fact (shown to the extractor) and a
   * duplicate of it; default 0.5 and 0.95 (all-MiniLM-L6-v2's).
   */
  readonly similarity?: { related: number; duplicate: number };
  /**
   * The cosine of a statement's likeness vector (supersede/alike-statements.ts) to a stored memory
   * from which the two set the same attribute; absent, statements are not compared by likeness.
   */
  readonly alikeStatements?: number;
  /**
   * How much nearer sentences that say what holds than ones that mention a statement's likeness
   * vector must lie for it to assert a value its words do not (supersede/asserted-statements.ts).
   */
  readonly assertedFrom?: number;
  /** A search's semantic relevance is `(cosine - floor) / (1 - floor)` (default 0: the cosine). */
  readonly relevanceFloor?: number;
  /** Length of every vector {@link embed} returns. */
  readonly dimensions: number;
  /**
   * Embeds `texts`, returning one unit-length vector of {@link dimensions} numbers per text, in order.
   * An empty list gives an empty list. `as` says what the texts are: memories to store (`passage`,
   * the default) or a search's question (`query`); some models embed the two differently (a prefix).
   */
  embed(texts: string[], as?: EmbedAs): Promise<Float32Array[]>;
  /**
   * The `k` words of the model's word table nearest each vector (embedding/word-table.ts), nearest
   * first: what a statement evokes. Absent, or an empty list per vector, when the model has no table.
   */
  nearestWords?(vectors: Float32Array[], k: number): Promise<string[][]>;
  /**
   * As `nearestWords(await embed(texts, as), k)`, in one call to the model: a word put to it is
   * looked up without a trip back to the caller between its vector and its nearest words.
   */
  nearestWordsOf?(texts: string[], as: EmbedAs, k: number): Promise<string[][]>;
  /** Which words of the model's word table are near which; undefined when the model has no table. */
  relatedWords?(): RelatedWords | undefined;
}
