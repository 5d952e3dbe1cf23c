/**
 * The shapes retrieval passes between its stages (docs/memory-search.md): the plan of a question
 * and what each signal said about a result. Types only, so the stages and the retrieval that runs
 * them import them from here, not from each other.
 */
import type { SearchMode } from '../../../shared/memory-requests';
import type { SearchStages } from './search-stages';
import type { TimeRange } from './time-expressions';

/** What each signal said about a result (shown in search results and by `plat memory search`). */
export interface MatchSignals {
  /** Cosine similarity in [0, 1], when the semantic list held the memory. */
  semantic?: number;
  /** Normalized BM25 relevance and the question's words the memory holds (by their terms). */
  lexical?: { relevance: number; terms: string[] };
  /** The named things of the question the memory holds (its words). */
  entities?: string[];
  /** The question's time expression, when the memory lies in its range. */
  time?: string;
  /**
   * The calibrated relevance, before a question about now or then weighs it against the best
   * answer (search/answer-weights.ts): what `min_score` applies to, comparable across questions.
   */
  relevance?: number;
}

/** What a question asks for, analysed once per search. */
export interface QueryPlan {
  mode: SearchMode;
  /**
   * The query embedding (absent in lexical mode), still computing: the embedder runs in a worker
   * thread, so lexical lookups proceed meanwhile and only the vector scan waits for it.
   */
  vector?: Promise<Float32Array>;
  terms: string[];
  entities: string[];
  /** Cue terms of the person's attributes the question asks about (hybrid; search/attribute-cues.ts). */
  cues: string[];
  range?: TimeRange;
  /** Term → the question's word it came from, to show matches in the user's words. */
  words: Map<string, string>;
  /** The hybrid stages in use. */
  stages: SearchStages;
}
