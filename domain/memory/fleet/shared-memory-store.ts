/**
 * The memory store of a fleet (docs/fleet.md#memory): rows and vectors in the shared PostgreSQL,
 * searched through in-process indexes per user that every instance keeps current by replaying the
 * change feed (memory-change-feed.ts). A memory added through one instance is found by a search on
 * any other once the feed reaches it: milliseconds after the commit, through NOTIFY.
 */
import type { Kysely, Transaction } from 'kysely';
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import type { PostgresNotifications } from '../../metadata-store/postgres-notifications';
import type {
  MemoryFilter,
  MemoryStore,
  TextHit,
  VectorHit,
  MemoryChange,
  VersionScope,
} from '../store/memory-store';
import { indexedNeighbours, searchIndexedTerms, searchIndexedVectors } from '../store/indexed-search';
import { MEMORY_COLUMNS, toMemoryRecord } from '../store/memory-row';
import { memoryQueries, type MemoryQueries } from '../store/memory-queries';
import { UserIndexes, type IndexRowSource, readInPages } from '../store/user-indexes';
import { appendChange, MemoryChangeFeed } from './memory-change-feed';
import type { MemoryTables } from '../store/memory-schema';
import { lockUserWrites } from './user-write-lock';

const COLUMNS = MEMORY_COLUMNS;
const toRecord = toMemoryRecord;

export class SharedMemoryStore implements MemoryStore {
  readonly kind = 'shared';
  private readonly indexes: UserIndexes;
  private readonly feed: MemoryChangeFeed;
  /** The statements on the pool (a transaction builds its own with `memoryQueries(tx)`). */
  private readonly q: MemoryQueries;

  private constructor(
    private readonly db: Kysely<MemoryTables>,
    dims: number,
    notifications?: PostgresNotifications,
  ) {
    this.q = memoryQueries(db);
    this.feed = new MemoryChangeFeed(db, () => this.indexes, notifications);
    this.indexes = new UserIndexes(this.rowSource(), dims, (userId, p, publish) =>
      this.feed.publish(userId, p, publish),
    );
  }

  static async open(
    db: Kysely<MemoryTables>,
    dims: number,
    notifications?: PostgresNotifications,
  ): Promise<SharedMemoryStore> {
    const store = new SharedMemoryStore(db, dims, notifications);
    await store.feed.start();
    return store;
  }

  /** A user's rows in one repeatable-read snapshot, with the newest change that snapshot holds. */
  private rowSource(): IndexRowSource {
    return {
      users: async () => (await this.q.users().execute()).map((r) => [r.user_id, Number(r.n)]),
      read: (userId, pageSize, onPage) =>
        this.db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(async (tx) => {
            const seq = await this.feed.newestSeq(tx);
            const q = memoryQueries(tx);
            await readInPages((after, limit) => q.loadPage(userId, after, limit).execute(), pageSize, onPage);
            return seq;
          }),
    };
  }

  feedGaps(): number {
    return this.feed.gaps;
  }

  warm(): Promise<void> {
    return this.indexes.warm();
  }

  async insert(record: MemoryRecord, vector: Float32Array): Promise<void> {
    await this.db.transaction().execute((tx) => this.insertRow(tx, record, vector));
    // This instance's next search sees the write (read your writes).
    await this.feed.afterWrite();
  }

  /** The check and the insert under the user's write lock, so instances adding one fact store it once. */
  async insertIfNew(scope: MemoryFilter, record: MemoryRecord, vector: Float32Array): Promise<MemoryRecord> {
    const stored = await this.db.transaction().execute(async (tx) => {
      await lockUserWrites(tx, record.user_id);
      const same = await memoryQueries(tx).byHash(scope, record.hash).executeTakeFirst();
      if (same) return toRecord(same);
      await this.insertRow(tx, record, vector);
      return record;
    });
    if (stored === record) await this.feed.afterWrite();
    return stored;
  }

  private async insertRow(
    tx: Transaction<MemoryTables>,
    record: MemoryRecord,
    vector: Float32Array,
  ): Promise<void> {
    await memoryQueries(tx).insert(record, vector).execute();
    await appendChange(tx, {
      user_id: record.user_id,
      memory_id: record.id,
      op: 'ADD',
      old_memory: null,
      new_memory: record.memory,
    });
  }

  async update(id: string, change: MemoryChange, vector: Float32Array): Promise<MemoryRecord | undefined> {
    const after = await this.db.transaction().execute(async (tx) => {
      const before = await tx
        .selectFrom('memories')
        .select(COLUMNS)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) return undefined;
      const metadata = change.metadata ?? (JSON.parse(before.metadata_json) as Record<string, unknown>);
      const category = categoryOf(metadata);
      await memoryQueries(tx)
        .update(
          id,
          {
            ...change,
            metadata,
            category,
            valid_from: change.valid_from ?? before.valid_from ?? before.created_at,
          },
          vector,
        )
        .execute();
      await appendChange(tx, {
        user_id: before.user_id,
        memory_id: id,
        op: 'UPDATE',
        old_memory: before.memory,
        new_memory: change.memory,
      });
      return { ...toRecord(before), ...change, metadata, category };
    });
    if (after) await this.feed.afterWrite();
    return after;
  }

  async delete(id: string): Promise<MemoryRecord | undefined> {
    const removed = await this.db.transaction().execute(async (tx) => {
      const before = await memoryQueries(tx).delete(id).returning(COLUMNS).executeTakeFirst();
      if (!before) return undefined;
      await appendChange(tx, {
        user_id: before.user_id,
        memory_id: id,
        op: 'DELETE',
        old_memory: before.memory,
        new_memory: null,
      });
      return toRecord(before);
    });
    if (removed) await this.feed.afterWrite();
    return removed;
  }

  async versions(scope: VersionScope): Promise<MemoryRecord[]> {
    return (await this.q.versions(scope).execute()).map(toRecord);
  }

  async get(id: string): Promise<MemoryRecord | undefined> {
    const row = await this.q.byId(id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(filter: MemoryFilter, limit = 10_000): Promise<MemoryRecord[]> {
    return (await this.q.list(filter, limit).execute()).map(toRecord);
  }

  async search(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<VectorHit[]> {
    return (await this.searchMany(vector, [filter], limit))[0];
  }

  searchMany(vector: Float32Array, filters: MemoryFilter[], limit: number): Promise<VectorHit[][]> {
    return searchIndexedVectors(this.indexes, (ids) => this.records(ids), vector, filters, limit);
  }

  neighbours(ids: string[], filter: MemoryFilter, span: number): Promise<Map<string, MemoryRecord[]>> {
    return indexedNeighbours(this.indexes, (ids) => this.records(ids), ids, filter, span);
  }

  searchText(terms: string[], filters: MemoryFilter[], limit: number): Promise<TextHit[][]> {
    return searchIndexedTerms(this.indexes, (ids) => this.records(ids), terms, filters, limit);
  }

  private async records(ids: string[]): Promise<Map<string, MemoryRecord>> {
    const distinct = [...new Set(ids)];
    if (!distinct.length) return new Map();
    const rows = await this.q.byIds(distinct).execute();
    return new Map(rows.map((r) => [r.id, toRecord(r)]));
  }

  async staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]> {
    return (await this.q.stale(embedder, limit).execute()).map(toRecord);
  }

  async countStale(embedder: string): Promise<number> {
    const row = await this.q.countStale(embedder).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    const row = await this.q.byHash(filter, hash).executeTakeFirst();
    return row && toRecord(row);
  }

  async close(): Promise<void> {
    this.feed.close();
    this.indexes.close();
  }
}
