/**
 * The in-process search indexes of the embedded store, per user: an exact vector index and a BM25
 * inverted index over the same slots (docs/memory-search.md#speed-and-size). A user's indexes load
 * from the memory database on that user's first request; `warm()` loads every user in the
 * background, in pages, so neither start-up nor requests wait for a million memories.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { LexicalIndex, Vocabulary } from '../search/lexical-index';
import { indexTerms } from '../search/text-terms';
import { VectorPartition } from '../vector/vector-partition';
import type { MemoryDb } from './memory-db';

/** A stored vector (libsql answers BLOBs as ArrayBuffer) as an aligned Float32Array copy. */
function vectorOf(blob: ArrayBuffer | Uint8Array): Float32Array {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  return new Float32Array(bytes.slice().buffer);
}

/** One user's indexes: vectors and terms over the same slots. */
export interface Partition {
  vectors: VectorPartition;
  lexical: LexicalIndex;
}

export type IndexedFields = Pick<MemoryRecord, 'id' | 'agent_id' | 'run_id' | 'created_at' | 'memory'>;

/** What loading a user reads per memory, as a raw row. */
type LoadRow = [string, string | null, string | null, string, string, ArrayBuffer | Uint8Array];
const LOAD_ROWS = 'SELECT id, agent_id, run_id, created_at, memory, vector FROM memories WHERE user_id = ?';
/** Rows per background page: a few tens of milliseconds of work. */
const LOAD_PAGE = 2000;

export class UserIndexes {
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
  loaded(userId: string): Partition | undefined {
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
  forWrite(userId: string): Partition {
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

  /** A text's index terms as vocabulary ids (with repeats). */
  termIds(text: string): number[] {
    return indexTerms(text).map((t) => this.vocabulary.idOf(t));
  }

  /** Adds a memory to its user's indexes (replacing what `before` indexed, on an update). */
  index(p: Partition, r: IndexedFields, vector: Float32Array, before?: IndexedFields): void {
    const info = { id: r.id, agent_id: r.agent_id, run_id: r.run_id, created_ms: Date.parse(r.created_at) };
    const slot = p.vectors.upsert(info, vector);
    if (before) p.lexical.remove(slot, this.termIds(before.memory));
    p.lexical.add(slot, this.termIds(r.memory));
  }

  /** The vocabulary id of a query term (undefined: no memory holds it). */
  termId(term: string): number | undefined {
    return this.vocabulary.find(term);
  }

  /** Drops every index and stops a background load. */
  close(): void {
    this.closed = true;
    this.partitions.clear();
  }
}
