/**
 * The embedded memory store: rows and vectors in the memory database, and two in-process indexes
 * per user: an exact vector index (int16 SIMD scan) and a lexical inverted index (BM25) over the
 * same slots, so a search touches SQLite only for its hits. A user's indexes load on first use
 * and `warm()` loads the rest in the background.
 */
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import { LexicalIndex, Vocabulary } from '../search/lexical-index';
import { indexTerms } from '../search/text-terms';
import { VectorPartition, type SlotInfo } from '../vector/vector-partition';
import { openMemoryDb, type MemoryDb } from './memory-db';
import type { MemoryFilter, MemoryStore, TextHit, VectorHit } from './memory-store';

interface Row {
  id: string;
  user_id: string;
  agent_id: string | null;
  run_id: string | null;
  memory: string;
  hash: string;
  metadata_json: string;
  category: string | null;
  created_at: string;
  updated_at: string;
  embedder: string;
}

const COLUMNS =
  'id, user_id, agent_id, run_id, memory, hash, metadata_json, category, created_at, updated_at, embedder';

function toRecord(r: Row): MemoryRecord {
  // libsql adds `_metadata` (timing) to single-row reads: take the columns, nothing else.
  return {
    id: r.id,
    memory: r.memory,
    user_id: r.user_id,
    agent_id: r.agent_id,
    run_id: r.run_id,
    metadata: JSON.parse(r.metadata_json) as Record<string, unknown>,
    category: r.category,
    hash: r.hash,
    created_at: r.created_at,
    updated_at: r.updated_at,
    embedder: r.embedder,
  };
}

/** A stored vector (libsql answers BLOBs as ArrayBuffer) as an aligned Float32Array copy. */
function vectorOf(blob: ArrayBuffer | Uint8Array): Float32Array {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  return new Float32Array(bytes.slice().buffer);
}

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** The filter as a predicate over index slots (user is the partition). */
function slotFilter(f: MemoryFilter): (s: SlotInfo) => boolean {
  // Bounds parsed once, not per slot: the predicate runs inside the scan.
  const from = f.created_from === undefined ? -Infinity : Date.parse(f.created_from);
  const to = f.created_to === undefined ? Infinity : Date.parse(f.created_to);
  return (s) =>
    (f.agent_id === undefined || s.agent_id === f.agent_id) &&
    (f.run_id === undefined || s.run_id === f.run_id) &&
    (!f.long_term || s.run_id === null) &&
    (f.run_id_from === undefined || (s.run_id !== null && s.run_id >= f.run_id_from)) &&
    s.created_ms >= from &&
    s.created_ms < to;
}

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

/** One user's indexes: vectors and terms over the same slots. */
interface Partition {
  vectors: VectorPartition;
  lexical: LexicalIndex;
}

type IndexedFields = Pick<MemoryRecord, 'id' | 'agent_id' | 'run_id' | 'created_at' | 'memory'>;

/** What loading a user reads per memory, as a raw row. */
type LoadRow = [string, string | null, string | null, string, string, ArrayBuffer | Uint8Array];
const LOAD_ROWS = 'SELECT id, agent_id, run_id, created_at, memory, vector FROM memories WHERE user_id = ?';
/** Rows per background page: a few tens of milliseconds of work. */
const LOAD_PAGE = 2000;

export class EmbeddedMemoryStore implements MemoryStore {
  readonly kind = 'embedded';
  private readonly partitions = new Map<string, Partition>();
  private readonly vocabulary = new Vocabulary();
  private closed = false;

  constructor(
    private readonly db: MemoryDb,
    private readonly dims: number,
  ) {}

  /**
   * Loads every user's indexes, one user per turn of the event loop, so the service answers from
   * the start (a request for a user not loaded yet loads that user first) and a million memories
   * do not hold start-up back (docs/memory-search.md#speed-and-size).
   */
  async warm(): Promise<void> {
    const users = this.db.prepare('SELECT user_id, COUNT(*) FROM memories GROUP BY user_id').raw().all() as [
      string,
      number,
    ][];
    for (const [userId, count] of users) {
      if (this.closed) return;
      if (!this.partitions.has(userId)) await this.loadInPages(userId, count);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The user's indexes, loaded from the database on first use; undefined when the user has none. */
  private loaded(userId: string): Partition | undefined {
    const known = this.partitions.get(userId);
    if (known) return known;
    const rows = this.db.prepare(`${LOAD_ROWS} ORDER BY created_at, id`).raw().all(userId) as LoadRow[];
    if (!rows.length) return undefined;
    const p = this.buildPartition(rows.length);
    for (const row of rows) this.indexRow(p, row);
    p.lexical.compact();
    this.partitions.set(userId, p);
    return p;
  }

  /**
   * The background load of a user: pages of rows with the event loop free between them, so a user
   * with 100,000 memories does not stall requests for seconds. Built aside and published only if
   * no request loaded the user meanwhile (that load, and any write after it, wins).
   */
  private async loadInPages(userId: string, count: number): Promise<void> {
    const p = this.buildPartition(count);
    const page = this.db.prepare(
      `${LOAD_ROWS} AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
    );
    let after: [string, string] = ['', ''];
    for (;;) {
      const rows = page.raw().all(userId, ...after, LOAD_PAGE) as LoadRow[];
      for (const row of rows) this.indexRow(p, row);
      if (rows.length < LOAD_PAGE) break;
      const last = rows[rows.length - 1];
      after = [last[3], last[0]];
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed || this.partitions.has(userId)) return;
    }
    if (this.partitions.has(userId)) return;
    p.lexical.compact();
    this.partitions.set(userId, p);
  }

  private indexRow(p: Partition, [id, agent_id, run_id, created_at, memory, vector]: LoadRow): void {
    this.index(p, { id, agent_id, run_id, created_at, memory }, vectorOf(vector));
  }

  /** The user's indexes for a write: loaded first, so a later load cannot index the row twice. */
  private partition(userId: string): Partition {
    return this.loaded(userId) ?? this.newPartition(userId, 0);
  }

  private newPartition(userId: string, rows: number): Partition {
    const p = this.buildPartition(rows);
    this.partitions.set(userId, p);
    return p;
  }

  private buildPartition(rows: number): Partition {
    return { vectors: new VectorPartition(this.dims, rows), lexical: new LexicalIndex() };
  }

  private termIds(text: string): number[] {
    return indexTerms(text).map((t) => this.vocabulary.idOf(t));
  }

  /** Adds a memory to its user's indexes (replacing what `before` indexed, on an update). */
  private index(p: Partition, r: IndexedFields, vector: Float32Array, before?: IndexedFields): void {
    const info = { id: r.id, agent_id: r.agent_id, run_id: r.run_id, created_ms: Date.parse(r.created_at) };
    const slot = p.vectors.upsert(info, vector);
    if (before) p.lexical.remove(slot, this.termIds(before.memory));
    p.lexical.add(slot, this.termIds(r.memory));
  }

  async insert(record: MemoryRecord, vector: Float32Array): Promise<void> {
    const p = this.partition(record.user_id);
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
        toBlob(vector),
      );
    this.index(p, record, vector);
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
    const p = this.partition(before.user_id);
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
        toBlob(vector),
        id,
      );
    const after = { ...before, ...change, metadata, category };
    this.index(p, after, vector, before);
    return after;
  }

  async delete(id: string): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    const p = this.partition(before.user_id);
    this.db.prepare('DELETE FROM memories WHERE id = ?').run(id);
    const slot = p.vectors.remove(id);
    if (slot !== undefined) p.lexical.remove(slot, this.termIds(before.memory));
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

  async searchMany(vector: Float32Array, filters: MemoryFilter[], limit: number): Promise<VectorHit[][]> {
    const userId = filters[0]?.user_id;
    if (filters.some((f) => f.user_id !== userId)) throw new Error('searchMany: filters of one user only');
    const partition = userId === undefined ? undefined : this.loaded(userId);
    if (!partition) return filters.map(() => []);
    const lists = partition.vectors.searchMany(vector, limit, filters.map(slotFilter));
    const byId = this.records(lists.flat().map((h) => h.id));
    // Cosine similarity is already a similarity: only clamped into [0, 1] (opposite meaning = 0).
    return lists.map((hits) =>
      hits.flatMap((h) => {
        const record = byId.get(h.id);
        return record ? [{ record, similarity: Math.min(1, Math.max(0, h.cosine)) }] : [];
      }),
    );
  }

  async searchText(terms: string[], filters: MemoryFilter[], limit: number): Promise<TextHit[][]> {
    const userId = filters[0]?.user_id;
    if (filters.some((f) => f.user_id !== userId)) throw new Error('searchText: filters of one user only');
    const partition = userId === undefined || !terms.length ? undefined : this.loaded(userId);
    if (!partition) return filters.map(() => []);
    const { vectors, lexical } = partition;
    const accepts = filters.map((f) => {
      const accept = slotFilter(f);
      return (slot: number) => {
        const info = vectors.info(slot);
        return info !== undefined && accept(info);
      };
    });
    const lists = lexical.searchMany(
      terms.map((t) => this.vocabulary.find(t)),
      limit,
      accepts,
    );
    const byId = this.records(lists.flat().map((m) => vectors.info(m.slot)!.id));
    return lists.map((matches) =>
      matches.flatMap((m) => {
        const record = byId.get(vectors.info(m.slot)!.id);
        return record
          ? [{ record, score: m.score, relevance: m.relevance, matched: m.matched.map((i) => terms[i]) }]
          : [];
      }),
    );
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

  async findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    const { where, params } = sqlFilter(filter);
    const row = this.db
      .prepare(`SELECT ${COLUMNS} FROM memories WHERE ${where} AND hash = ? LIMIT 1`)
      .get(...params, hash) as Row | undefined;
    return row && toRecord(row);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.partitions.clear();
  }
}

/** The embedded store of a data directory (vectors of `dims` dimensions). */
export async function openEmbeddedMemoryStore(dataDir: string, dims = 384): Promise<MemoryStore> {
  return new EmbeddedMemoryStore(openMemoryDb(dataDir), dims);
}
