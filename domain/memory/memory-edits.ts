/**
 * Changes to one stored memory by its id: read it (404 when missing), replace its text (a correction,
 * or a newer statement superseding it, docs/memory-validity.md) and delete it with its earlier
 * versions; every change lands in history. Used by the service's update/delete and by the add pipeline.
 */
import type { MemoryRecord } from '../../shared/memory-model';
import type { MemoryServiceDeps } from './memory-service-deps';
import { textHash } from './memory-text';
import { withSlotWords } from './supersede/slot-words';
import { withEvokedWords } from './supersede/evoked-words';
import { withAsserted } from './supersede/asserted-statements';
import { keepEarlierVersion } from './validity/earlier-versions';

/** A memory that does not exist (404). */
export class MemoryNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`no memory with id ${id}`);
    this.name = 'MemoryNotFoundError';
  }
}

type MemoryEditsDeps = Pick<MemoryServiceDeps, 'store' | 'embedder' | 'history'> & { now: () => Date };

export class MemoryEdits {
  constructor(private readonly deps: MemoryEditsDeps) {}

  async get(id: string): Promise<MemoryRecord> {
    const record = await this.deps.store.get(id);
    if (!record) throw new MemoryNotFoundError(id);
    return record;
  }

  /**
   * Replaces a memory's text (and its vector, at `opts.at`, default now), recording the change.
   * A change in the world (`opts.supersede`: a newer statement of the attribute) keeps what the
   * memory said until then as an earlier version and makes the memory hold from `at`; a correction
   * (PUT /memory/update) rewrites what it says without a version (docs/memory-validity.md).
   */
  async updateText(
    id: string,
    text: string,
    metadata?: Record<string, unknown>,
    opts: { at?: string; vector?: Float32Array; supersede?: boolean } = {},
  ): Promise<{ record: MemoryRecord; previous: string }> {
    const before = await this.get(id);
    const vector = opts.vector ?? (await this.deps.embedder.embed([text]))[0];
    const at = opts.at ?? this.deps.now().toISOString();
    // The memory holds from `at` only when what it said until then was kept: a backfill dated before
    // its value began moves nothing back (no two values holding at once).
    const kept =
      opts.supersede && (await keepEarlierVersion(this.deps.store, this.deps.embedder, before, at));
    const updated = await this.deps.store.update(
      id,
      {
        memory: text,
        hash: textHash(text),
        updated_at: at,
        embedder: this.deps.embedder.id,
        // What a superseded memory said stays known as what it has been about (supersede/slot-words.ts).
        // A correction's text evokes what no word list of it says yet: the old text's words go.
        metadata: opts.supersede
          ? withSlotWords(metadata ?? before.metadata, before)
          : withAsserted(withEvokedWords(metadata ?? before.metadata, []), false),
        ...(kept ? { valid_from: at } : {}),
      },
      vector,
    );
    if (!updated) throw new MemoryNotFoundError(id);
    await this.deps.history.record(id, 'UPDATE', before.memory, text, at);
    return { record: updated, previous: before.memory };
  }

  async delete(id: string): Promise<MemoryRecord> {
    // Its earlier versions go first: nothing it said outlives it.
    const memory = await this.deps.store.get(id);
    if (memory)
      for (const version of await this.deps.store.versions({ user_id: memory.user_id, memory_id: id }))
        await this.deps.store.delete(version.id);
    const removed = await this.deps.store.delete(id);
    if (!removed) throw new MemoryNotFoundError(id);
    await this.deps.history.record(id, 'DELETE', removed.memory, null, this.deps.now().toISOString());
    return removed;
  }
}
