/**
 * `MemoryFilter` as a Qdrant filter. Every condition is a `must`, so they combine with AND like the
 * embedded store's SQL.
 */
import type { Schemas } from '@qdrant/js-client-rest';
import type { MemoryFilter } from './memory-store';
import { runDay } from './qdrant-payload';

type Condition = Schemas['Condition'];

export const keyword = (key: string, value: string): Condition => ({ key, match: { value } });

/** The Qdrant filter selecting what `filter` allows, plus any `extra` conditions. */
export function toQdrantFilter(filter: MemoryFilter, extra: Condition[] = []): Schemas['Filter'] {
  const must: Condition[] = [keyword('user_id', filter.user_id)];
  if (filter.agent_id !== undefined) must.push(keyword('agent_id', filter.agent_id));
  if (filter.run_id !== undefined) must.push(keyword('run_id', filter.run_id));
  // is_empty matches a null run_id and also a missing one (is_null would need the key present).
  if (filter.long_term) must.push({ is_empty: { key: 'run_id' } });
  if (filter.run_id_from !== undefined) {
    const from = runDay(filter.run_id_from);
    if (from === undefined) throw new Error(`run_id_from must be a date (YYYY-MM-DD): ${filter.run_id_from}`);
    // A range never matches a null or missing value, so long-term memories drop out, as wanted.
    must.push({ key: 'run_day', range: { gte: from } });
  }
  if (filter.created_from !== undefined || filter.created_to !== undefined) {
    must.push({ key: 'created_at', range: { gte: filter.created_from, lt: filter.created_to } });
  }
  // Validity (docs/memory-validity.md); a point stored before it was kept has no valid_* keys.
  if (filter.include_earlier) {
    /* every version */
  } else if (filter.valid_at === undefined) must.push({ is_empty: { key: 'valid_to' } });
  else {
    const at = new Date(filter.valid_at).toISOString();
    must.push(
      {
        should: [
          { key: 'valid_from', range: { lte: at } },
          { must: [{ is_empty: { key: 'valid_from' } }, { key: 'created_at', range: { lte: at } }] },
        ],
      },
      { should: [{ is_empty: { key: 'valid_to' } }, { key: 'valid_to', range: { gt: at } }] },
    );
  }
  return { must: [...must, ...extra] };
}
