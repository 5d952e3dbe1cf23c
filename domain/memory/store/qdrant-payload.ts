/**
 * How a memory is laid out as a Qdrant point payload: every `MemoryRecord` field as is (metadata
 * as a nested object), plus `run_day`, the only field Qdrant can compare by range, and `terms`.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { indexTerms } from '../search/text-terms';
import { plainFields } from './record-fields';

/** A record as stored in Qdrant. */
export type QdrantMemoryPayload = MemoryRecord & {
  /** Whole days since 1970-01-01 of `run_id`; null for long-term memories (see `runDay`). */
  run_day: number | null;
  /** The memory's distinct index terms (search/text-terms.ts), for per-user document frequencies. */
  terms: string[];
};

const DAY_MS = 86_400_000;

/**
 * `YYYY-MM-DD` as whole days since the Unix epoch. Qdrant ranges are numeric (or datetime), and a
 * run id is a keyword, so `run_id_from` filters on this integer twin instead; an integer keeps the
 * comparison exact and independent of time zones.
 */
export function runDay(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  // Date.parse rolls impossible dates like 2025-02-30 over; reject them by formatting back.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) return undefined;
  return ms / DAY_MS;
}

/** The payload of a record's point. */
export function toPayload(record: MemoryRecord): QdrantMemoryPayload {
  return {
    ...plainFields(record),
    metadata: record.metadata,
    run_day: record.run_id === null ? null : (runDay(record.run_id) ?? null),
    terms: [...new Set(indexTerms(record.memory))],
  };
}

/** The record a point's payload holds (storage-only fields dropped, absent ones defaulted). */
export function fromPayload(payload: Record<string, unknown>): MemoryRecord {
  const text = (key: string): string => String(payload[key] ?? '');
  const nullable = (key: string): string | null => (typeof payload[key] === 'string' ? payload[key] : null);
  const metadata = payload.metadata;
  return {
    id: text('id'),
    memory: text('memory'),
    user_id: text('user_id'),
    agent_id: nullable('agent_id'),
    run_id: nullable('run_id'),
    metadata:
      metadata && typeof metadata === 'object' && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : {},
    category: nullable('category'),
    hash: text('hash'),
    created_at: text('created_at'),
    updated_at: text('updated_at'),
    embedder: text('embedder'),
    // A point stored before validity was kept holds since it was stated.
    valid_from: nullable('valid_from') ?? text('created_at'),
    valid_to: nullable('valid_to'),
    version_of: nullable('version_of'),
  };
}
