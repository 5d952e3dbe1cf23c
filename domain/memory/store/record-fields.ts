/** What a row (memory-queries.ts) and a Qdrant payload (qdrant-payload.ts) store of a record as it is. */
import type { MemoryRecord } from '../../../shared/memory-model';

/**
 * Every field of `record` but `metadata` (JSON text in a row, an object in a payload), copied field
 * by field so that nothing else the object carries is stored.
 */
export const plainFields = (record: MemoryRecord): Omit<MemoryRecord, 'metadata'> => ({
  id: record.id,
  user_id: record.user_id,
  agent_id: record.agent_id,
  run_id: record.run_id,
  memory: record.memory,
  hash: record.hash,
  category: record.category,
  created_at: record.created_at,
  updated_at: record.updated_at,
  embedder: record.embedder,
  valid_from: record.valid_from,
  valid_to: record.valid_to,
  version_of: record.version_of,
});
