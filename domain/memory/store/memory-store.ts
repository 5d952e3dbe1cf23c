/**
 * Where memories and their vectors live. The embedded default keeps rows in the memory database
 * (SQLite format) and vectors in an in-process exact index; `QdrantMemoryStore` keeps both in
 * Qdrant. History, audit and idempotency keys stay in the memory database either way.
 */
import type { MemoryRecord } from '../../../shared/memory-model';

/** Which memories a list or search may return. */
export interface MemoryFilter {
  user_id: string;
  agent_id?: string;
  /** Exactly this day (short-term memories of one run). */
  run_id?: string;
  /** Long-term only (run_id absent). */
  long_term?: boolean;
  /** Short-term memories whose run_id is on or after this day (YYYY-MM-DD). */
  run_id_from?: string;
  /** Created at or after this instant (ISO 8601). */
  created_from?: string;
  /** Created before this instant (ISO 8601). */
  created_to?: string;
  /**
   * The memories that held at this instant (ISO 8601), earlier versions included
   * (docs/memory-validity.md); absent: the current ones only (no `valid_to`).
   */
  valid_at?: string;
  /** Current memories and every earlier version alike (a question about the past); overrides `valid_at`. */
  include_earlier?: boolean;
}

/** Whose earlier versions to read: a user's (or one agent's of theirs), or one memory's. */
export interface VersionScope {
  user_id: string;
  agent_id?: string;
  memory_id?: string;
}

/** What an update writes: text, hash, vector and updated_at, and metadata and valid_from when given. */
export type MemoryChange = Pick<MemoryRecord, 'memory' | 'hash' | 'updated_at' | 'embedder'> & {
  metadata?: Record<string, unknown>;
  valid_from?: string;
};

/** A memory and its similarity to the query, normalized to [0, 1] (1 = same direction). */
export interface VectorHit {
  record: MemoryRecord;
  similarity: number;
}

/**
 * A memory matching query terms lexically: its BM25 score, that score as a relevance in [0, 1]
 * (over Σ idf of the query terms, see search/lexical-index.ts), and which query terms it holds.
 */
export interface TextHit {
  record: MemoryRecord;
  score: number;
  relevance: number;
  matched: string[];
}

export interface MemoryStore {
  /** `embedded`, `shared` or `qdrant`. */
  readonly kind: string;
  insert(record: MemoryRecord, vector: Float32Array): Promise<void>;
  /**
   * Inserts `record` unless a memory with its hash is already stored under `scope` (one user's), and
   * answers the memory stored: that one, or `record`. The check and the insert are one step for
   * every writer of the store (the shared store: across instances, docs/fleet.md#memory).
   */
  insertIfNew(scope: MemoryFilter, record: MemoryRecord, vector: Float32Array): Promise<MemoryRecord>;
  /**
   * Replaces text, hash, vector and updated_at (and metadata and valid_from when given) of an
   * existing memory.
   */
  update(id: string, change: MemoryChange, vector: Float32Array): Promise<MemoryRecord | undefined>;
  /** Removes a memory; answers what was removed (undefined when there was none). */
  delete(id: string): Promise<MemoryRecord | undefined>;
  /**
   * Earlier versions (docs/memory-validity.md) of one memory (`memory_id`) or of all a user's
   * (or agent's), by memory and then oldest first.
   */
  versions(scope: VersionScope): Promise<MemoryRecord[]>;
  get(id: string): Promise<MemoryRecord | undefined>;
  /** Newest first. */
  list(filter: MemoryFilter, limit?: number): Promise<MemoryRecord[]>;
  /**
   * For each filter (all of one user), its `limit` most similar memories; a store that can answers
   * them with one pass over the vectors.
   */
  searchMany?(vector: Float32Array, filters: MemoryFilter[], limit: number): Promise<VectorHit[][]>;
  /** The `limit` most similar memories matching the filter, most similar first. */
  search(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<VectorHit[]>;
  /**
   * For each filter (all of one user), its `limit` best lexical matches of `terms` (the
   * `queryTerms` of search/text-terms.ts), best first.
   */
  searchText(terms: string[], filters: MemoryFilter[], limit: number): Promise<TextHit[][]>;
  /**
   * For each of these memories (all of the filter's user), up to `span` memories created just
   * before it and `span` just after it that the filter allows, nearest first (before, then after),
   * for search's neighbour turns (docs/memory-search.md#neighbours). Unknown ids answer nothing.
   */
  neighbours(ids: string[], filter: MemoryFilter, span: number): Promise<Map<string, MemoryRecord[]>>;
  /** Up to `limit` memories whose vector was made by another embedder than `embedder` (a model change). */
  staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]>;
  /** How many memories have a vector made by another embedder than `embedder`. */
  countStale(embedder: string): Promise<number>;
  /** A memory with exactly this normalized-text hash under the filter, if any. */
  findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined>;
  /**
   * How often the store found its change feed pruned past its cursor and reloaded its users (a
   * shared store, docs/fleet.md#memory).
   */
  feedGaps?(): number;
  /** Loads in the background what searches would otherwise load on first use (a store that can). */
  warm?(): Promise<void>;
  close(): Promise<void>;
}
