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

/**
 * Each time a newer statement replaced a memory's value, oldest first (GET /memory/changes). A
 * change happens when a version stops holding (its `valid_to`): changes are told from the versions
 * alone, cut to `since` and `limit`, and a memory is read only when the change shown is its last
 * (what it says since is its current text), those reads together.
 */
export async function memoryChanges(store: MemoryStore, q: ChangesQuery): Promise<MemoryChangeItem[]> {
  const since = q.since ? Date.parse(q.since) : -Infinity;
  const byMemory = new Map<string, MemoryRecord[]>();
  for (const v of await store.versions({ user_id: q.user_id, agent_id: q.agent_id }))
    byMemory.set(v.version_of!, [...(byMemory.get(v.version_of!) ?? []), v]);
  // Each version with what replaced it: the next version, or (for the last) the memory itself.
  const replaced: { memoryId: string; from: MemoryRecord; next?: MemoryRecord; at: string }[] = [];
  for (const [memoryId, versions] of byMemory)
    versions.forEach((from, i) => {
      const at = from.valid_to!;
      if (Date.parse(at) >= since) replaced.push({ memoryId, from, next: versions[i + 1], at });
    });
  const shown = replaced
    .sort((a, b) => a.at.localeCompare(b.at) || a.memoryId.localeCompare(b.memoryId))
    .slice(0, q.limit);
  const current = new Map<string, MemoryRecord | undefined>();
  await Promise.all(
    [...new Set(shown.filter((c) => !c.next).map((c) => c.memoryId))].map(async (id) =>
      current.set(id, await store.get(id)),
    ),
  );
  const changes: MemoryChangeItem[] = [];
  for (const c of shown) {
    const to = c.next ?? current.get(c.memoryId);
    if (to)
      changes.push({
        memory_id: c.memoryId,
        from: c.from.memory,
        to: to.memory,
        at: c.at,
        from_valid_from: c.from.valid_from,
      });
  }
  return changes;
}
