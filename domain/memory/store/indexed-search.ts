/**
 * Search over a store's in-process per-user indexes (user-indexes.ts), the same for the embedded and
 * the shared store: the indexes rank slots, the store reads the hits' rows (`records`). Ids are
 * taken before the rows are read, since a shared store's feed may change the indexes meanwhile.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import type { MemoryFilter, TextHit, VectorHit } from './memory-store';
import { slotFilter } from './slot-filter';
import type { UserIndexes } from './user-indexes';

/** The rows of these ids, by id. */
export type RecordsById = (ids: string[]) => Promise<Map<string, MemoryRecord>>;

function userOf(filters: MemoryFilter[], what: string): string | undefined {
  const userId = filters[0]?.user_id;
  if (filters.some((f) => f.user_id !== userId)) throw new Error(`${what}: filters of one user only`);
  return userId;
}

/** For each filter (all of one user), its `limit` most similar memories. */
export async function searchIndexedVectors(
  indexes: UserIndexes,
  records: RecordsById,
  vector: Float32Array,
  filters: MemoryFilter[],
  limit: number,
): Promise<VectorHit[][]> {
  const userId = userOf(filters, 'searchMany');
  const partition = userId === undefined ? undefined : await indexes.loaded(userId);
  if (!partition) return filters.map(() => []);
  const lists = partition.vectors.searchMany(vector, limit, filters.map(slotFilter));
  const byId = await records(lists.flat().map((h) => h.id));
  // Cosine similarity is already a similarity: only clamped into [0, 1] (opposite meaning = 0).
  return lists.map((hits) =>
    hits.flatMap((h) => {
      const record = byId.get(h.id);
      return record ? [{ record, similarity: Math.min(1, Math.max(0, h.cosine)) }] : [];
    }),
  );
}

/** For each filter (all of one user), its `limit` best BM25 matches of `terms`. */
export async function searchIndexedTerms(
  indexes: UserIndexes,
  records: RecordsById,
  terms: string[],
  filters: MemoryFilter[],
  limit: number,
): Promise<TextHit[][]> {
  const userId = userOf(filters, 'searchText');
  const partition = userId === undefined || !terms.length ? undefined : await indexes.loaded(userId);
  if (!partition) return filters.map(() => []);
  const { vectors, lexical } = partition;
  const accepts = filters.map((f) => {
    const accept = slotFilter(f);
    return (slot: number) => vectors.keeps(accept, slot);
  });
  const lists = lexical.searchMany(
    terms.map((t) => indexes.termId(t)),
    limit,
    accepts,
  );
  const idLists = lists.map((matches) => matches.map((m) => vectors.info(m.slot)!.id));
  const byId = await records(idLists.flat());
  return lists.map((matches, li) =>
    matches.flatMap((m, mi) => {
      const record = byId.get(idLists[li][mi]);
      return record
        ? [{ record, score: m.score, relevance: m.relevance, matched: m.matched.map((i) => terms[i]) }]
        : [];
    }),
  );
}

/** For each id (all of one user), up to `span` memories created just before and after it under the filter. */
export async function indexedNeighbours(
  indexes: UserIndexes,
  records: RecordsById,
  ids: string[],
  filter: MemoryFilter,
  span: number,
): Promise<Map<string, MemoryRecord[]>> {
  const partition = ids.length && span > 0 ? await indexes.loaded(filter.user_id) : undefined;
  if (!partition) return new Map();
  const { vectors, times } = partition;
  const accept = slotFilter(filter);
  const keeps = (slot: number) => vectors.keeps(accept, slot);
  const idLists = new Map<string, string[]>();
  for (const id of new Set(ids)) {
    const slot = vectors.slotOf(id);
    if (slot === undefined) continue;
    const { before, after } = times.neighbours(slot, span, keeps);
    idLists.set(
      id,
      [...before, ...after].map((s) => vectors.info(s)!.id),
    );
  }
  const byId = await records([...idLists.values()].flat());
  const out = new Map<string, MemoryRecord[]>();
  for (const [id, list] of idLists)
    out.set(
      id,
      list.flatMap((n) => byId.get(n) ?? []),
    );
  return out;
}
