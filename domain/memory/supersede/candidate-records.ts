/**
 * The earlier memories a new statement is read against (docs/memory-supersede.md): its vector
 * neighbours, then the lexical matches of `terms` under `scope`, each once. Shared by the subject
 * reader's key, a model's stated attribute and the evidence in the words, which differ only in the
 * terms they look for and in which candidates they keep.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import type { MemoryFilter, MemoryStore, VectorHit } from '../store/memory-store';

export async function candidateRecords(
  store: MemoryStore,
  scope: MemoryFilter,
  terms: string[],
  neighbours: VectorHit[],
  lexicalLimit: number,
): Promise<MemoryRecord[]> {
  const [lexical = []] = terms.length ? await store.searchText(terms, [scope], lexicalLimit) : [];
  const byId = new Map<string, MemoryRecord>();
  for (const r of [...neighbours.map((n) => n.record), ...lexical.map((h) => h.record)])
    if (!byId.has(r.id)) byId.set(r.id, r);
  return [...byId.values()];
}
