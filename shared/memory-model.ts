/**
 * The memory service's records and requests as clients see them (docs/requirements.md#memory-api;
 * docs/requirements.md#memory-api response shapes). Plain data, safe to import from workflows (the memory pipelines).
 */

/** Categories a long-term memory of which is also copied to the shared space. */
export const SHARED_CATEGORIES: readonly string[] = ['experience', 'procedural'];

/** The user space whose memories every search includes (memory_type "shared"). */
export const SHARED_USER = 'shared';

/** The category a memory is filed under: `metadata.category` when it is a string (docs/requirements.md#categories). */
export function categoryOf(metadata: Record<string, unknown>): string | null {
  return typeof metadata.category === 'string' ? metadata.category : null;
}

/** A stored memory. */
export interface MemoryRecord {
  id: string;
  memory: string;
  user_id: string;
  agent_id: string | null;
  /** YYYY-MM-DD: a short-term memory of that day; null: long-term. */
  run_id: string | null;
  metadata: Record<string, unknown>;
  category: string | null;
  /** sha256 of the normalized text: exact duplicates are found without a vector search. */
  hash: string;
  created_at: string;
  updated_at: string;
  /** The embedder that produced the stored vector (a model change is detected by it). */
  embedder: string;
  /**
   * Since when what it says holds (docs/memory-validity.md): when it was stated, or when a later
   * statement of the same attribute replaced its text.
   */
  valid_from: string;
  /** Until when it held: null while it is current; set on an earlier version a newer statement superseded. */
  valid_to: string | null;
  /** On an earlier version: the memory it is a version of (whose text superseded it); else null. */
  version_of: string | null;
}

export type MemoryEvent = 'ADD' | 'UPDATE' | 'DELETE';

/** One change of a memory (GET /memory/history/{id}). */
export interface MemoryHistoryEntry {
  id: string;
  memory_id: string;
  event: MemoryEvent;
  old_memory: string | null;
  new_memory: string | null;
  created_at: string;
}

/** A search result item (docs/requirements.md#search-results). */
export interface MemorySearchItem {
  id: string;
  memory: string;
  score: number;
  /** The similarity before time decay (present when decay was applied). */
  original_score?: number;
  created_at: string;
  user_id: string;
  agent_id: string | null;
  run_id: string | null;
  metadata: Record<string, unknown>;
  /** "shared" for items from the shared space; "long_term" or "short_term" otherwise. */
  memory_type: 'shared' | 'long_term' | 'short_term';
  /** Since when it holds, and until when (null: current; docs/memory-validity.md). */
  valid_from: string;
  valid_to: string | null;
  /** Which signals found it: similarity, matched terms, named entities, the question's time. */
  signals?: {
    semantic?: number;
    lexical?: { relevance: number; terms: string[] };
    entities?: string[];
    time?: string;
    /** The calibrated relevance that min_score applies to, comparable across questions. */
    relevance?: number;
  };
}

/** A memory's value changed by a newer statement (GET /memory/changes, docs/memory-validity.md). */
export interface MemoryChangeItem {
  memory_id: string;
  /** What it said before. */
  from: string;
  /** What it says since `at`. */
  to: string;
  /** When the newer statement was made: the old value held until then. */
  at: string;
  /** Since when the old value held. */
  from_valid_from: string;
}

/** What an add did to each fact (mem0-style), returned in `results`. */
export interface MemoryAddResult {
  id: string;
  memory: string;
  event: MemoryEvent | 'NONE';
  previous_memory?: string;
}

export interface TokenUsage {
  llm_calls: number;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}
