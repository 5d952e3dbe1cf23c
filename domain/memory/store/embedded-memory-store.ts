/**
 * The embedded memory store: rows and vectors in the memory database, searched through in-process
 * indexes per user (`UserIndexes`: vectors and BM25 over the same slots), so a search touches
 * SQLite only for its hits.
 */
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import type { SqliteFile } from '../../metadata-store/sqlite-file';
import { openMemoryDb } from './memory-db';
import { UserIndexes, type IndexRowSource, type LoadRow, type Partition } from './user-indexes';
import type { MemoryFilter, MemoryStore, TextHit, VectorHit } from './memory-store';
import { indexedNeighbours, searchIndexedTerms, searchIndexedVectors } from './indexed-search';
import { MEMORY_COLUMNS, toMemoryRecord, vectorBytes, type MemoryRow } from './memory-row';

const COLUMNS = MEMORY_COLUMNS.join(', ');
type Row = MemoryRow;
const toRecord = toMemoryRecord;

/** The filter as SQL over the memories table. */
function sqlFilter(f: MemoryFilter): { where: string; params: unknown[] } {
  const clauses = ['user_id = ?'];
  const params: unknown[] = [f.user_id];
  const add = (clause: string, ...values: unknown[]) => {
    clauses.push(clause);
    params.push(...values);
  };
  if (f.agent_id !== undefined) add('agent_id = ?', f.agent_id);
  if (f.run_id !== undefined) add('run_id = ?', f.run_id);
  if (f.long_term) add('run_id IS NULL');
  if (f.run_id_from !== undefined) add('run_id >= ?', f.run_id_from);
  // created_at is stored as ISO 8601 UTC (toISOString), so text order is time order.
  if (f.created_from !== undefined) add('created_at >= ?', new Date(f.created_from).toISOString());
  if (f.created_to !== undefined) add('created_at < ?', new Date(f.created_to).toISOString());
  return { where: clauses.join(' AND '), params };
}

const LOAD_ROWS = 'SELECT id, agent_id, run_id, created_at, memory, vector FROM memories WHERE user_id = ?';

/** The rows the indexes load from, in the memory database: a user's in keyset pages. */
function fileRows(db: SqliteFile): IndexRowSource {
  return {
    async users() {
      return db.prepare('SELECT user_id, COUNT(*) FROM memories GROUP BY user_id').raw().all() as [
        string,
        number,
      ][];
    },
    async read(userId, pageSize, onPage) {
      const page = db.prepare(`${LOAD_ROWS} AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`);
      let after: [string, string] = ['', ''];
      for (;;) {
        const rows = page.raw().all(userId, ...after, Math.min(pageSize, 1_000_000_000)) as LoadRow[];
        if (!(await onPage(rows)) || rows.length < pageSize) return 0;
        const last = rows[rows.length - 1];
        after = [last[3], last[0]];
      }
    },
  };
}

export class EmbeddedMemoryStore implements MemoryStore {
  readonly kind = 'embedded';
  private readonly indexes: UserIndexes;

  constructor(
    private readonly db: SqliteFile,
    dims: number,
  ) {
    this.indexes = new UserIndexes(fileRows(db), dims);
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
    this.db
      .prepare(`INSERT INTO memories (${COLUMNS}, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        record.id,
        record.user_id,
        record.agent_id,
        record.run_id,
        record.memory,
        record.hash,
        JSON.stringify(record.metadata),
        record.category,
        record.created_at,
        record.updated_at,
        record.embedder,
        vectorBytes(vector),
      );
    this.indexes.index(p, record, vector);
  }

  async update(
    id: string,
    change: Pick<MemoryRecord, 'memory' | 'hash' | 'updated_at' | 'embedder'> & {
      metadata?: Record<string, unknown>;
    },
    vector: Float32Array,
  ): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    const p = await this.indexes.forWrite(before.user_id);
    const metadata = change.metadata ?? before.metadata;
    const category = categoryOf(metadata);
    this.db
      .prepare(
        'UPDATE memories SET memory = ?, hash = ?, updated_at = ?, embedder = ?, metadata_json = ?, category = ?, vector = ? WHERE id = ?',
      )
      .run(
        change.memory,
        change.hash,
        change.updated_at,
        change.embedder,
        JSON.stringify(metadata),
        category,
        vectorBytes(vector),
        id,
      );
    const after = { ...before, ...change, metadata, category };
    this.indexes.index(p, after, vector, before);
    return after;
  }

  async delete(id: string): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    const p = await this.indexes.forWrite(before.user_id);
    this.db.prepare('DELETE FROM memories WHERE id = ?').run(id);
    this.indexes.unindex(p, id, before.memory);
    return before;
  }

  async get(id: string): Promise<MemoryRecord | undefined> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM memories WHERE id = ?`).get(id) as Row | undefined;
    return row && toRecord(row);
  }

  async list(filter: MemoryFilter, limit = 10_000): Promise<MemoryRecord[]> {
    const { where, params } = sqlFilter(filter);
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM memories WHERE ${where} ORDER BY created_at DESC, id LIMIT ?`)
      .all(...params, limit) as Row[];
    return rows.map(toRecord);
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

  /** The rows of these ids, by id (one query). */
  private records(ids: string[]): Map<string, MemoryRecord> {
    const distinct = [...new Set(ids)];
    if (!distinct.length) return new Map();
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM memories WHERE id IN (${distinct.map(() => '?').join(', ')})`)
      .all(...distinct) as Row[];
    return new Map(rows.map((r) => [r.id, toRecord(r)]));
  }

  async staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]> {
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM memories WHERE embedder != ? LIMIT ?`)
      .all(embedder, limit) as Row[];
    return rows.map(toRecord);
  }

  async countStale(embedder: string): Promise<number> {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM memories WHERE embedder != ?').get(embedder) as {
      n: number;
    };
    return Number(row.n);
  }

  async findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    return this.hashed(filter, hash);
  }

  private hashed(filter: MemoryFilter, hash: string): MemoryRecord | undefined {
    const { where, params } = sqlFilter(filter);
    const row = this.db
      .prepare(`SELECT ${COLUMNS} FROM memories WHERE ${where} AND hash = ? LIMIT 1`)
      .get(...params, hash) as Row | undefined;
    return row && toRecord(row);
  }

  async close(): Promise<void> {
    this.indexes.close();
  }
}

/** The embedded store of a data directory (vectors of `dims` dimensions). */
export async function openEmbeddedMemoryStore(dataDir: string, dims = 384): Promise<MemoryStore> {
  return new EmbeddedMemoryStore((await openMemoryDb(dataDir)).file, dims);
}
