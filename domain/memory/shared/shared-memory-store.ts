/**
 * The memory store of a fleet (docs/fleet.md#memory): rows and vectors in the shared PostgreSQL,
 * searched through in-process indexes per user that every instance keeps current by replaying the
 * change feed (memory-change-feed.ts). A memory added through one instance is found by a search on
 * any other once the feed reaches it: milliseconds after the commit, through NOTIFY.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import type { PostgresNotifications } from '../../metadata-store/postgres-notifications';
import type { MemoryFilter, MemoryStore, TextHit, VectorHit } from '../store/memory-store';
import { indexedNeighbours, searchIndexedTerms, searchIndexedVectors } from '../store/indexed-search';
import { MEMORY_COLUMNS, toMemoryRecord, vectorBytes } from '../store/memory-row';
import { UserIndexes, type IndexRowSource, type LoadRow } from '../store/user-indexes';
import { appendChange, MemoryChangeFeed } from './memory-change-feed';
import type { MemoryTables } from '../store/memory-schema';
import { lockUserWrites } from './user-write-lock';

const COLUMNS = MEMORY_COLUMNS;
const toRecord = toMemoryRecord;

export class SharedMemoryStore implements MemoryStore {
  readonly kind = 'shared';
  private readonly indexes: UserIndexes;
  private readonly feed: MemoryChangeFeed;

  private constructor(
    private readonly db: Kysely<MemoryTables>,
    dims: number,
    notifications?: PostgresNotifications,
  ) {
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
      users: async () =>
        (
          await this.db
            .selectFrom('memories')
            .select((eb) => ['user_id', eb.fn.countAll<number>().as('n')])
            .groupBy('user_id')
            .execute()
        ).map((r) => [r.user_id, Number(r.n)]),
      read: (userId, pageSize, onPage) =>
        this.db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(async (tx) => {
            const seq = await this.feed.newestSeq(tx);
            let after: [string, string] = ['', ''];
            for (;;) {
              const rows = await tx
                .selectFrom('memories')
                .select(['id', 'agent_id', 'run_id', 'created_at', 'memory', 'vector'])
                .where('user_id', '=', userId)
                .where(sql<boolean>`(created_at, id) > (${after[0]}, ${after[1]})`)
                .orderBy('created_at')
                .orderBy('id')
                .limit(Math.min(pageSize, 1_000_000_000))
                .execute();
              const page = rows.map(
                (r) => [r.id, r.agent_id, r.run_id, r.created_at, r.memory, r.vector] as LoadRow,
              );
              if (!(await onPage(page)) || rows.length < pageSize) return seq;
              const last = rows[rows.length - 1];
              after = [last.created_at, last.id];
            }
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
      const same = await this.filtered(scope, tx)
        .select(COLUMNS)
        .where('hash', '=', record.hash)
        .limit(1)
        .executeTakeFirst();
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
    await tx
      .insertInto('memories')
      .values({
        id: record.id,
        user_id: record.user_id,
        agent_id: record.agent_id,
        run_id: record.run_id,
        memory: record.memory,
        hash: record.hash,
        metadata_json: JSON.stringify(record.metadata),
        category: record.category,
        created_at: record.created_at,
        updated_at: record.updated_at,
        embedder: record.embedder,
        vector: vectorBytes(vector),
      })
      .execute();
    await appendChange(tx, {
      user_id: record.user_id,
      memory_id: record.id,
      op: 'ADD',
      old_memory: null,
      new_memory: record.memory,
    });
  }

  async update(
    id: string,
    change: Pick<MemoryRecord, 'memory' | 'hash' | 'updated_at' | 'embedder'> & {
      metadata?: Record<string, unknown>;
    },
    vector: Float32Array,
  ): Promise<MemoryRecord | undefined> {
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
      await tx
        .updateTable('memories')
        .set({
          memory: change.memory,
          hash: change.hash,
          updated_at: change.updated_at,
          embedder: change.embedder,
          metadata_json: JSON.stringify(metadata),
          category,
          vector: vectorBytes(vector),
        })
        .where('id', '=', id)
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
      const before = await tx
        .deleteFrom('memories')
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst();
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

  async get(id: string): Promise<MemoryRecord | undefined> {
    const row = await this.db.selectFrom('memories').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(filter: MemoryFilter, limit = 10_000): Promise<MemoryRecord[]> {
    const rows = await this.filtered(filter)
      .select(COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
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
    const rows = await this.db.selectFrom('memories').select(COLUMNS).where('id', 'in', distinct).execute();
    return new Map(rows.map((r) => [r.id, toRecord(r)]));
  }

  async staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]> {
    const rows = await this.db
      .selectFrom('memories')
      .select(COLUMNS)
      .where('embedder', '!=', embedder)
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  }

  async countStale(embedder: string): Promise<number> {
    const row = await this.db
      .selectFrom('memories')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('embedder', '!=', embedder)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    const row = await this.filtered(filter)
      .select(COLUMNS)
      .where('hash', '=', hash)
      .limit(1)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** The filter as SQL over the memories table (in `db`: the pool, or a transaction). */
  private filtered(f: MemoryFilter, db: Kysely<MemoryTables> = this.db) {
    let q = db.selectFrom('memories').where('user_id', '=', f.user_id);
    if (f.agent_id !== undefined) q = q.where('agent_id', '=', f.agent_id);
    if (f.run_id !== undefined) q = q.where('run_id', '=', f.run_id);
    if (f.long_term) q = q.where('run_id', 'is', null);
    if (f.run_id_from !== undefined) q = q.where('run_id', '>=', f.run_id_from);
    // created_at is stored as ISO 8601 UTC (toISOString), so text order is time order.
    if (f.created_from !== undefined) q = q.where('created_at', '>=', new Date(f.created_from).toISOString());
    if (f.created_to !== undefined) q = q.where('created_at', '<', new Date(f.created_to).toISOString());
    return q;
  }

  async close(): Promise<void> {
    this.feed.close();
    this.indexes.close();
  }
}
