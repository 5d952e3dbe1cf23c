/** A memory as a row of the `memories` table (embedded file or shared PostgreSQL), and as a record. */
import type { MemoryRecord } from '../../../shared/memory-model';

export interface MemoryRow {
  id: string;
  user_id: string;
  agent_id: string | null;
  run_id: string | null;
  memory: string;
  hash: string;
  metadata_json: string;
  category: string | null;
  created_at: string;
  updated_at: string;
  embedder: string;
  /** Null on a row an older instance wrote during an upgrade: it holds since `created_at`. */
  valid_from: string | null;
  valid_to: string | null;
  version_of: string | null;
}

/** The columns of a {@link MemoryRow}, in table order. */
export const MEMORY_COLUMNS = [
  'id',
  'user_id',
  'agent_id',
  'run_id',
  'memory',
  'hash',
  'metadata_json',
  'category',
  'created_at',
  'updated_at',
  'embedder',
  'valid_from',
  'valid_to',
  'version_of',
] as const;

export function toMemoryRecord(r: MemoryRow): MemoryRecord {
  // Field by field: libsql adds `_metadata` (timing) to single-row reads.
  return {
    id: r.id,
    memory: r.memory,
    user_id: r.user_id,
    agent_id: r.agent_id,
    run_id: r.run_id,
    metadata: JSON.parse(r.metadata_json) as Record<string, unknown>,
    category: r.category,
    hash: r.hash,
    created_at: r.created_at,
    updated_at: r.updated_at,
    embedder: r.embedder,
    valid_from: r.valid_from ?? r.created_at,
    valid_to: r.valid_to,
    version_of: r.version_of,
  };
}

/** A vector as the bytes a row stores (Float32, the platform's byte order). */
export const vectorBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
