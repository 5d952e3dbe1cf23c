/**
 * Re-embedding after a model change (docs/memory-search.md#the-embedding-model): counts the memories
 * another model embedded, redoes their vectors a few texts at a time beside serving, one instance of
 * a fleet at a time (reembed-lease.ts), and reports how far it got (GET /health, the metrics).
 */
import type { MemoryServiceDeps } from './memory-service-deps';
import { soleReembedLease } from './reembed-lease';
import type { UserWrites } from './store/user-writes';
import { everydayBackground } from './embedding/everyday-background';
import { assertionPrototypes } from './supersede/asserted-statements';

/** Texts embedded at a time when re-embedding: what a search's question may wait behind. */
const REEMBED_CHUNK = 4;

/** The re-embedding after a model change (MemoryService.reembedStale). */
export interface ReembedProgress {
  /** The current model's id. */
  embedder: string;
  running: boolean;
  /** Memories still holding another model's vector. */
  pending: number;
  /** Redone by the running re-embedding, of `total`. */
  done: number;
  total: number;
  /** done / total, 100 when nothing runs. */
  percent: number;
  /** Another instance of the fleet holds the re-embedding: this one serves and tries again later. */
  elsewhere: boolean;
}

type ReembeddingDeps = Pick<MemoryServiceDeps, 'store' | 'embedder' | 'reembedLease'> & {
  /** The service's per-user writes: a redone vector waits for the user's adds. */
  serialized: UserWrites;
};
export type ReembedOptions = { page?: number; onProgress?: (p: ReembedProgress) => void };

export class MemoryReembedding {
  /** Memories another model embedded, as last counted (undefined: not counted yet). */
  private staleLeft: number | undefined;
  private reembedding: { total: number; done: number; started: number } | undefined;
  /** The last re-embedding found another instance running it. */
  private reembeddingElsewhere = false;
  /** Set when the process shuts down: re-embedding stops after the texts in the model's hands. */
  private stopping = false;

  constructor(private readonly deps: ReembeddingDeps) {}

  /** Whether some memory may still hold another model's vector (searches then also ask the store). */
  mayBeStale(): boolean {
    return this.staleLeft !== 0;
  }

  /**
   * Loads the embedding model (the first embed is slow), its word table (supersede/evoked-words.ts)
   * and, for a model that reads statements by likeness, the sentences it compares them with
   * (supersede/asserted-statements.ts: two dozen inferences, not on the first add), and counts the
   * memories another model embedded.
   */
  async warmUp(): Promise<void> {
    const { embedder } = this.deps;
    const [vector] = await embedder.embed(['warm up']);
    await embedder.nearestWords?.([vector], 1);
    if (embedder.assertedFrom !== undefined) await assertionPrototypes(embedder);
    else if (embedder.alikeStatements !== undefined) await everydayBackground(embedder);
    this.staleLeft = await this.deps.store.countStale(embedder.id);
  }

  /**
   * Re-embeds memories whose vectors another model made (the embedder id is stored with each
   * vector), so a model change never mixes incomparable vectors; meant to run in the background
   * beside serving (docs/memory-search.md#the-embedding-model). Until a memory is redone, searches
   * find it by its terms only. A few texts are embedded at a time, so a search's question waits
   * behind at most those in the model's worker. `onProgress` is called after each page. Answers how
   * many were redone.
   */
  async reembedStale(opts: ReembedOptions = {}): Promise<number> {
    const { store, embedder } = this.deps;
    const total = await store.countStale(embedder.id);
    this.staleLeft = total;
    if (!total) {
      this.reembeddingElsewhere = false;
      return 0;
    }
    const lease = this.deps.reembedLease ?? soleReembedLease;
    const outcome = await lease(() => this.reembedPages(opts));
    this.reembeddingElsewhere = !outcome.ran;
    return outcome.ran ? outcome.result : 0;
  }

  /** The re-embedding itself, page after page, once this instance holds the lease. */
  private async reembedPages(opts: ReembedOptions): Promise<number> {
    const { store, embedder } = this.deps;
    const id = embedder.id;
    // Counted again under the lease: another instance may have redone some meanwhile.
    const total = await store.countStale(id);
    this.staleLeft = total;
    if (!total) return 0;
    const run = { total, done: 0, started: Date.now() };
    this.reembedding = run;
    try {
      for (;;) {
        const stale = await store.staleRecords(id, opts.page ?? 64);
        if (!stale.length) break;
        for (let start = 0; start < stale.length && !this.stopping; start += REEMBED_CHUNK) {
          const chunk = stale.slice(start, start + REEMBED_CHUNK);
          const vectors = await embedder.embed(chunk.map((r) => r.memory));
          for (const [i, r] of chunk.entries()) {
            // Serialized with the user's adds, and only if the memory is still what was embedded.
            await this.deps.serialized(r.user_id, async () => {
              const now = await store.get(r.id);
              if (!now || now.hash !== r.hash || now.embedder === id) return;
              await store.update(
                r.id,
                { memory: now.memory, hash: now.hash, updated_at: now.updated_at, embedder: id },
                vectors[i],
              );
            });
          }
          run.done += chunk.length;
        }
        this.staleLeft = Math.max(0, run.total - run.done);
        opts.onProgress?.(this.reembedProgress());
        // What is left waits for the next start (it resumes where this one stopped).
        if (this.stopping) return run.done;
      }
      // Memories written by another model meanwhile (a fleet instance still on the old one) wait for the next start.
      this.staleLeft = await store.countStale(id);
      return run.done;
    } finally {
      this.reembedding = undefined;
    }
  }

  /** Where the re-embedding after a model change stands (GET /health, the metrics). */
  reembedProgress(): ReembedProgress {
    const run = this.reembedding;
    const done = run ? Math.min(run.done, run.total) : 0;
    return {
      embedder: this.deps.embedder.id,
      running: run !== undefined,
      pending: run ? run.total - done : (this.staleLeft ?? 0),
      done,
      total: run?.total ?? 0,
      percent: run ? Math.floor((100 * done) / run.total) : 100,
      elsewhere: !run && this.reembeddingElsewhere,
    };
  }

  /**
   * Asks a running re-embedding to stop once the texts the model is embedding are done: ending the
   * process while the model's worker thread is mid-batch aborts it (onnxruntime's native code).
   */
  stopReembedding(): void {
    this.stopping = true;
  }
}
