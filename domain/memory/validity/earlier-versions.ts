/**
 * Earlier versions of a memory (docs/memory-validity.md): what it said until a newer statement
 * replaced its value, kept as its own row, and the sequence of changes they make.
 */
import { randomUUID } from 'node:crypto';
import type { MemoryChangeItem, MemoryRecord } from '../../../shared/memory-model';
import type { ChangesQuery } from '../../../shared/memory-requests';
import type { Embedder } from '../embedding/embedder';
import type { MemoryStore } from '../store/memory-store';

/**
 * Keeps what `memory` says as an earlier version that held until `until` (a search as of then finds
 * it); answers whether it did.
 */
export async function keepEarlierVersion(
  store: MemoryStore,
  embedder: Embedder,
  memory: MemoryRecord,
  until: string,
): Promise<boolean> {
  // A change dated before the memory's value began (a backfill) leaves no interval to keep.
  if (Date.parse(until) < Date.parse(memory.valid_from)) return false;
  const [vector] = await embedder.embed([memory.memory]);
  await store.insert(
    { ...memory, id: randomUUID(), embedder: embedder.id, valid_to: until, version_of: memory.id },
    vector,
  );
  return true;
}

/** Each time a newer statement replaced a memory's value, oldest first (GET /memory/changes). */
export async function memoryChanges(store: MemoryStore, q: ChangesQuery): Promise<MemoryChangeItem[]> {
  const versions = await store.versions({ user_id: q.user_id, agent_id: q.agent_id });
  const byMemory = new Map<string, MemoryRecord[]>();
  for (const v of versions) byMemory.set(v.version_of!, [...(byMemory.get(v.version_of!) ?? []), v]);
  const changes: MemoryChangeItem[] = [];
  for (const [id, earlier] of byMemory) {
    const memory = await store.get(id);
    if (!memory) continue;
    const said = [...earlier, memory];
    for (let i = 1; i < said.length; i++)
      changes.push({
        memory_id: memory.id,
        from: said[i - 1].memory,
        to: said[i].memory,
        at: said[i].valid_from,
        from_valid_from: said[i - 1].valid_from,
      });
  }
  const since = q.since ? Date.parse(q.since) : -Infinity;
  return changes
    .filter((c) => Date.parse(c.at) >= since)
    .sort((a, b) => a.at.localeCompare(b.at) || a.memory_id.localeCompare(b.memory_id))
    .slice(0, q.limit);
}
