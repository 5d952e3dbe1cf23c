/**
 * A store whose vector searches answer only memories embedded by the service's current model
 * (docs/memory-search.md#the-embedding-model). After a model change, memories keep their old vectors
 * until the background re-embedding reaches them; a similarity between vectors of two models means
 * nothing, so until then those memories are found by their terms (lexical search), and not by meaning.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import type { MemoryFilter, MemoryStore, TextHit, VectorHit } from './memory-store';

export class CurrentVectorsStore implements MemoryStore {
  readonly searchMany?: (
    vector: Float32Array,
    filters: MemoryFilter[],
    limit: number,
  ) => Promise<VectorHit[][]>;

  /**
   * `embedderId`: the current model's id; `reembedding`: whether memories of another model may be
   * left (searches then ask for twice the hits, since some are dropped).
   */
  constructor(
    private readonly store: MemoryStore,
    private readonly embedderId: () => string,
    private readonly reembedding: () => boolean,
    /** Similarities become `(similarity - floor) / (1 - floor)`, clamped to [0, 1] (0: unchanged). */
    private readonly floor = 0,
  ) {
    const many = store.searchMany?.bind(store);
    if (many) {
      this.searchMany = async (vector, filters, limit) => {
        if (!this.reembedding()) return (await many(vector, filters, limit)).map((h) => this.rescaled(h));
        const lists = await many(vector, filters, limit * 2);
        return lists.map((hits) => this.rescaled(this.current(hits).slice(0, limit)));
      };
    }
  }

  private rescaled(hits: VectorHit[]): VectorHit[] {
    const floor = this.floor;
    if (!floor) return hits;
    return hits.map((h) => ({ ...h, similarity: Math.max(0, (h.similarity - floor) / (1 - floor)) }));
  }

  get kind(): string {
    return this.store.kind;
  }

  async search(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<VectorHit[]> {
    if (!this.reembedding()) return this.rescaled(await this.store.search(vector, filter, limit));
    return this.rescaled(this.current(await this.store.search(vector, filter, limit * 2)).slice(0, limit));
  }

  private current(hits: VectorHit[]): VectorHit[] {
    const id = this.embedderId();
    return hits.filter((h) => h.record.embedder === id);
  }

  insert(record: MemoryRecord, vector: Float32Array): Promise<void> {
    return this.store.insert(record, vector);
  }
  /** Neighbour turns are found by time, not by vector: the store's own answer stands. */
  neighbours(...args: Parameters<MemoryStore['neighbours']>): ReturnType<MemoryStore['neighbours']> {
    return this.store.neighbours(...args);
  }

  insertIfNew(...args: Parameters<MemoryStore['insertIfNew']>): Promise<MemoryRecord> {
    return this.store.insertIfNew(...args);
  }
  update(...args: Parameters<MemoryStore['update']>): Promise<MemoryRecord | undefined> {
    return this.store.update(...args);
  }
  delete(id: string): Promise<MemoryRecord | undefined> {
    return this.store.delete(id);
  }
  versions(...args: Parameters<MemoryStore['versions']>): Promise<MemoryRecord[]> {
    return this.store.versions(...args);
  }
  get(id: string): Promise<MemoryRecord | undefined> {
    return this.store.get(id);
  }
  list(filter: MemoryFilter, limit?: number): Promise<MemoryRecord[]> {
    return this.store.list(filter, limit);
  }
  searchText(terms: string[], filters: MemoryFilter[], limit: number): Promise<TextHit[][]> {
    return this.store.searchText(terms, filters, limit);
  }
  staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]> {
    return this.store.staleRecords(embedder, limit);
  }
  countStale(embedder: string): Promise<number> {
    return this.store.countStale(embedder);
  }
  findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    return this.store.findByHash(filter, hash);
  }
  async warm(): Promise<void> {
    await this.store.warm?.();
  }
  close(): Promise<void> {
    return this.store.close();
  }
}
