/**
 * The embedded memory store: rows and vectors in the memory database, searched through in-process
 * indexes per user (`UserIndexes`: vectors and BM25 over the same slots), so a search touches
 * SQLite only for its hits. Its statements are the shared store's (memory-queries.ts), run on the
 * file synchronously.
 */
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import { openMemoryDb, type MemoryDb } from './memory-db';
import { memoryQueries, type MemoryQueries } from './memory-queries';
import { SyncStatements } from './sync-statements';
import { UserIndexes, type IndexRowSource, readInPages, type Partition } from './user-indexes';
import type {
  MemoryFilter,
  MemoryStore,
  TextHit,
  VectorHit,
  MemoryChange,
  VersionScope,
} from './memory-store';
import { indexedNeighbours, searchIndexedTerms, searchIndexedVectors } from './indexed-search';
import { toMemoryRecord } from './memory-row';
import { RecordCache } from './record-cache';

const toRecord = toMemoryRecord;

/** The rows the indexes load from, in the memory database: a user's in keyset pages. */
function fileRows(q: MemoryQueries, run: SyncStatements): IndexRowSource {
  return {
    async users() {
      return run.all(q.users()).map((r) => [r.user_id, Number(r.n)] as [string, number]);
    },
    async read(userId, pageSize, onPage) {
      await readInPages((after, limit) => run.all(q.loadPage(userId, after, limit)), pageSize, onPage);
      return 0;
    },
  };
}

export class EmbeddedMemoryStore implements MemoryStore {
  readonly kind = 'embedded';
  private readonly indexes: UserIndexes;

  private readonly q: MemoryQueries;
  private readonly run: SyncStatements;
  /** This process is the file's only writer (instance-lock.ts): each write forgets its row here. */
  private readonly cache = new RecordCache();

  constructor({ file, db }: MemoryDb, dims: number) {
    this.q = memoryQueries(db);
    this.run = new SyncStatements(file);
    this.indexes = new UserIndexes(fileRows(this.q, this.run), dims);
  }

  /** Loads every user's indexes in the background (see UserIndexes.warm). */
  warm(): Promise<void> {
    return this.indexes.warm();
  }

  async insert(record: MemoryRecord, vector: Float32Array): Promise<void> {
    this.insertRow(await this.indexes.forWrite(record.user_id), record, vector);
  }

  /** The check and the insert with nothing between them (this process is the store's only writer). */
  async insertIfNew(scope: MemoryFilter, record: MemoryRecord, vector: Float32Array): Promise<MemoryRecord> {
    const p = await this.indexes.forWrite(record.user_id);
    const same = this.hashed(scope, record.hash);
    if (same) return same;
    this.insertRow(p, record, vector);
    return record;
  }

  private insertRow(p: Partition, record: MemoryRecord, vector: Float32Array): void {
    this.cache.forget(record.id);
    this.run.run(this.q.insert(record, vector));
    this.indexes.index(p, record, vector);
  }

  async update(id: string, change: MemoryChange, vector: Float32Array): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    const p = await this.indexes.forWrite(before.user_id);
    const metadata = change.metadata ?? before.metadata;
    const category = categoryOf(metadata);
    const valid_from = change.valid_from ?? before.valid_from;
    this.cache.forget(id);
    this.run.run(this.q.update(id, { ...change, metadata, category, valid_from }, vector));
    const after = { ...before, ...change, metadata, category, valid_from };
    this.indexes.index(p, after, vector, before);
    return after;
  }

  async delete(id: string): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    const p = await this.indexes.forWrite(before.user_id);
    this.cache.forget(id);
    this.run.run(this.q.delete(id));
    this.indexes.unindex(p, id, before.memory);
    return before;
  }

  async versions(scope: VersionScope): Promise<MemoryRecord[]> {
    return this.run.all(this.q.versions(scope)).map(toRecord);
  }

  async get(id: string): Promise<MemoryRecord | undefined> {
    const row = this.run.first(this.q.byId(id));
    return row && toRecord(row);
  }

  async list(filter: MemoryFilter, limit = 10_000): Promise<MemoryRecord[]> {
    return this.run.all(this.q.list(filter, limit)).map(toRecord);
  }

  async search(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<VectorHit[]> {
    return (await this.searchMany(vector, [filter], limit))[0];
  }

  searchMany(vector: Float32Array, filters: MemoryFilter[], limit: number): Promise<VectorHit[][]> {
    return searchIndexedVectors(this.indexes, async (ids) => this.records(ids), vector, filters, limit);
  }

  neighbours(ids: string[], filter: MemoryFilter, span: number): Promise<Map<string, MemoryRecord[]>> {
    return indexedNeighbours(this.indexes, async (ids) => this.records(ids), ids, filter, span);
  }

  searchText(terms: string[], filters: MemoryFilter[], limit: number): Promise<TextHit[][]> {
    return searchIndexedTerms(this.indexes, async (ids) => this.records(ids), terms, filters, limit);
  }

  /** The rows of these ids, by id (those not kept read in one query). */
  private records(ids: string[]): Map<string, MemoryRecord> {
    return this.cache.get(ids, (missing) =>
      this.run
        .all(this.q.byIds(missing))
        .map((r) => ({ record: toRecord(r), chars: r.memory.length + r.metadata_json.length })),
    );
  }

  async staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]> {
    return this.run.all(this.q.stale(embedder, limit)).map(toRecord);
  }

  async countStale(embedder: string): Promise<number> {
    return Number(this.run.first(this.q.countStale(embedder))?.n ?? 0);
  }

  async findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    return this.hashed(filter, hash);
  }

  private hashed(filter: MemoryFilter, hash: string): MemoryRecord | undefined {
    const row = this.run.first(this.q.byHash(filter, hash));
    return row && toRecord(row);
  }

  async close(): Promise<void> {
    this.indexes.close();
  }
}

/** The embedded store of a data directory (vectors of `dims` dimensions). */
export async function openEmbeddedMemoryStore(dataDir: string, dims = 384): Promise<MemoryStore> {
  return new EmbeddedMemoryStore(await openMemoryDb(dataDir), dims);
}
