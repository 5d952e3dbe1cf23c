/**
 * The embedded memory store: rows and vectors in the memory database, and an in-process exact
 * index per user (int16 SIMD scan) loaded at open, so a search touches SQLite only for its hits.
 */
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import { VectorPartition, type SlotInfo } from '../vector/vector-partition';
import { openMemoryDb, type MemoryDb } from './memory-db';
import type { MemoryFilter, MemoryStore, VectorHit } from './memory-store';

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
  return (s) =>
    (f.agent_id === undefined || s.agent_id === f.agent_id) &&
    (f.run_id === undefined || s.run_id === f.run_id) &&
    (!f.long_term || s.run_id === null) &&
    (f.run_id_from === undefined || (s.run_id !== null && s.run_id >= f.run_id_from));
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
  return { where: clauses.join(' AND '), params };
}

export class EmbeddedMemoryStore implements MemoryStore {
  readonly kind = 'embedded';
  private readonly partitions = new Map<string, VectorPartition>();

  constructor(
    private readonly db: MemoryDb,
    private readonly dims: number,
  ) {
    const rows = db.prepare('SELECT id, user_id, agent_id, run_id, vector FROM memories').all() as {
      id: string;
      user_id: string;
      agent_id: string | null;
      run_id: string | null;
      vector: ArrayBuffer | Uint8Array;
    }[];
    for (const r of rows) {
      const v = vectorOf(r.vector);
      this.partition(r.user_id).upsert({ id: r.id, agent_id: r.agent_id, run_id: r.run_id }, v);
    }
  }

  private partition(userId: string): VectorPartition {
    let p = this.partitions.get(userId);
    if (!p) this.partitions.set(userId, (p = new VectorPartition(this.dims)));
    return p;
  }

  async insert(record: MemoryRecord, vector: Float32Array): Promise<void> {
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
    this.partition(record.user_id).upsert(
      { id: record.id, agent_id: record.agent_id, run_id: record.run_id },
      vector,
    );
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
    this.partition(before.user_id).upsert({ id, agent_id: before.agent_id, run_id: before.run_id }, vector);
    return { ...before, ...change, metadata, category };
  }

  async delete(id: string): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    this.db.prepare('DELETE FROM memories WHERE id = ?').run(id);
    this.partitions.get(before.user_id)?.remove(id);
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
    const partition = userId === undefined ? undefined : this.partitions.get(userId);
    if (!partition) return filters.map(() => []);
    const lists = partition.searchMany(vector, limit, filters.map(slotFilter));
    const ids = [...new Set(lists.flat().map((h) => h.id))];
    if (!ids.length) return filters.map(() => []);
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM memories WHERE id IN (${ids.map(() => '?').join(', ')})`)
      .all(...ids) as Row[];
    const byId = new Map(rows.map((r) => [r.id, toRecord(r)]));
    // Cosine similarity is already a similarity: only clamped into [0, 1] (opposite meaning = 0).
    return lists.map((hits) =>
      hits.flatMap((h) => {
        const record = byId.get(h.id);
        return record ? [{ record, similarity: Math.min(1, Math.max(0, h.cosine)) }] : [];
      }),
    );
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
    this.partitions.clear();
  }
}

/** The embedded store of a data directory (vectors of `dims` dimensions). */
export async function openEmbeddedMemoryStore(dataDir: string, dims = 384): Promise<MemoryStore> {
  return new EmbeddedMemoryStore(openMemoryDb(dataDir), dims);
}
