/**
 * The in-process search indexes of a memory store, per user: an exact vector index and a BM25
 * inverted index over the same slots (docs/memory-search.md#speed-and-size). A user's indexes load
 * from the store's rows on that user's first request; `warm()` loads every user in the background,
 * in pages, so neither start-up nor requests wait for a million memories. Where the rows come from
 * is an {@link IndexRowSource}: the embedded file, or the shared PostgreSQL (docs/fleet.md#memory).
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { LexicalIndex, Vocabulary } from '../search/lexical-index';
import { indexTerms } from '../search/text-terms';
import { VectorPartition } from '../vector/vector-partition';
import { TimeOrder } from './time-order';

/** One user's indexes: vectors and terms over the same slots. */
export interface Partition {
  vectors: VectorPartition;
  lexical: LexicalIndex;
  /** The same slots in creation order, for neighbours in time (time-order.ts). */
  times: TimeOrder;
  /** The position in the store's change feed that the indexes reflect (shared stores only). */
  appliedSeq: number;
}

/** What the indexes hold of a memory; `valid_from` is null on a row an older instance wrote (then it holds since `created_at`). */
export type IndexedFields = Pick<
  MemoryRecord,
  'id' | 'agent_id' | 'run_id' | 'created_at' | 'memory' | 'valid_to'
> & {
  valid_from: string | null;
};

/** What loading a user reads per memory, as a raw row. */
export type LoadRow = [
  id: string,
  agent_id: string | null,
  run_id: string | null,
  created_at: string,
  memory: string,
  vector: ArrayBuffer | Uint8Array,
  valid_from: string | null,
  valid_to: string | null,
];

/** A row as `loadPage` (memory-queries.ts) selects it. */
type PageRow = IndexedFields & { vector: ArrayBuffer | Uint8Array };

/**
 * The keyset walk of every store's `read`: pages of `pageSize` rows from `loadPage`, each after the
 * last (created_at, id) of the one before, until `onPage` answers false or a page comes back short.
 */
export async function readInPages(
  loadPage: (after: [string, string], limit: number) => PageRow[] | Promise<PageRow[]>,
  pageSize: number,
  onPage: (rows: LoadRow[]) => Promise<boolean>,
): Promise<void> {
  let after: [string, string] = ['', ''];
  for (;;) {
    const rows = await loadPage(after, Math.min(pageSize, 1_000_000_000));
    const page = rows.map((r): LoadRow => [
      r.id,
      r.agent_id,
      r.run_id,
      r.created_at,
      r.memory,
      r.vector,
      r.valid_from,
      r.valid_to,
    ]);
    if (!(await onPage(page)) || rows.length < pageSize) return;
    const last = rows[rows.length - 1];
    after = [last.created_at, last.id];
  }
}

/** Where a store's rows are read from to build the indexes. */
export interface IndexRowSource {
  /** Every user with memories, and how many. */
  users(): Promise<[string, number][]>;
  /**
   * Reads a user's rows in (created_at, id) order, `pageSize` at a time, as one consistent read;
   * `onPage` answers false to stop. Answers the change-feed position the rows reflect (0 without a feed).
   */
  read(userId: string, pageSize: number, onPage: (rows: LoadRow[]) => Promise<boolean>): Promise<number>;
}

/** Rows per background page: a few tens of milliseconds of work. */
const LOAD_PAGE = 2000;

/** A stored vector (a BLOB or bytea) as an aligned Float32Array copy. */
export function vectorOf(blob: ArrayBuffer | Uint8Array): Float32Array {
  const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
  // A copy (Uint8Array's slice: a Buffer's own slice shares its pool's memory).
  return new Float32Array(Uint8Array.prototype.slice.call(bytes).buffer);
}

export class UserIndexes {
  private readonly partitions = new Map<string, Partition>();
  private readonly loading = new Map<string, Promise<Partition | undefined>>();
  private readonly vocabulary = new Vocabulary();
  private closed = false;

  constructor(
    private readonly rows: IndexRowSource,
    private readonly dims: number,
    /**
     * Publishes a freshly read partition by calling `publish`; a shared store first replays onto it
     * the changes made since its rows were read (shared/memory-change-feed.ts).
     */
    private readonly publisher: (
      userId: string,
      p: Partition,
      publish: () => Partition,
    ) => Promise<Partition> = async (_userId, _p, publish) => publish(),
  ) {}

  /**
   * Loads every user's indexes, one user per turn of the event loop, so the service answers from
   * the start (a request for a user not loaded yet loads that user first) and a million memories
   * do not hold start-up back (docs/memory-search.md#speed-and-size).
   */
  async warm(): Promise<void> {
    for (const [userId, count] of await this.rows.users()) {
      if (this.closed) return;
      if (!this.partitions.has(userId) && !this.loading.has(userId)) await this.loadInPages(userId, count);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The user's indexes if they are loaded (no I/O). */
  peek(userId: string): Partition | undefined {
    return this.partitions.get(userId);
  }

  /** The user's indexes, loaded from the rows on first use; undefined when the user has none. */
  loaded(userId: string): Promise<Partition | undefined> {
    const known = this.partitions.get(userId);
    if (known) return Promise.resolve(known);
    let load = this.loading.get(userId);
    if (!load) {
      load = this.loadWhole(userId).finally(() => this.loading.delete(userId));
      this.loading.set(userId, load);
    }
    return load;
  }

  private async loadWhole(userId: string): Promise<Partition | undefined> {
    const p = this.buildPartition(0);
    let rows = 0;
    p.appliedSeq = await this.rows.read(userId, Number.MAX_SAFE_INTEGER, async (page) => {
      for (const row of page) this.indexRow(p, row);
      rows += page.length;
      return true;
    });
    if (!rows) return undefined;
    p.lexical.compact();
    return this.publish(userId, p);
  }

  /**
   * The background load of a user: pages of rows with the event loop free between them, so a user
   * with 100,000 memories does not stall requests for seconds. Built aside and published only if
   * no request loaded the user meanwhile (that load, and any write after it, wins).
   */
  private async loadInPages(userId: string, count: number): Promise<void> {
    const p = this.buildPartition(count);
    let stopped = false;
    p.appliedSeq = await this.rows.read(userId, LOAD_PAGE, async (page) => {
      for (const row of page) this.indexRow(p, row);
      await new Promise((resolve) => setImmediate(resolve));
      stopped = this.closed || this.partitions.has(userId) || this.loading.has(userId);
      return !stopped;
    });
    if (stopped || this.partitions.has(userId) || this.loading.has(userId)) return;
    p.lexical.compact();
    await this.publish(userId, p);
  }

  private publish(userId: string, p: Partition): Promise<Partition> {
    return this.publisher(userId, p, () => {
      // A write created the user's partition while this one loaded: it holds everything since.
      const existing = this.partitions.get(userId);
      if (existing) return existing;
      this.partitions.set(userId, p);
      return p;
    });
  }

  private indexRow(
    p: Partition,
    [id, agent_id, run_id, created_at, memory, vector, valid_from, valid_to]: LoadRow,
  ): void {
    this.index(p, { id, agent_id, run_id, created_at, memory, valid_from, valid_to }, vectorOf(vector));
  }

  /** The user's indexes for a write: loaded first, so a later load cannot index the row twice. */
  async forWrite(userId: string): Promise<Partition> {
    const p = (await this.loaded(userId)) ?? this.partitions.get(userId);
    if (p) return p;
    const fresh = this.buildPartition(0);
    this.partitions.set(userId, fresh);
    return fresh;
  }

  private buildPartition(rows: number): Partition {
    return {
      vectors: new VectorPartition(this.dims, rows),
      lexical: new LexicalIndex(),
      times: new TimeOrder(),
      appliedSeq: 0,
    };
  }

  /** A text's index terms as vocabulary ids (with repeats). */
  termIds(text: string): number[] {
    return indexTerms(text).map((t) => this.vocabulary.idOf(t));
  }

  /** Adds a memory to its user's indexes (replacing what `before` indexed, on an update). */
  index(p: Partition, r: IndexedFields, vector: Float32Array, before?: Pick<IndexedFields, 'memory'>): void {
    const info = {
      id: r.id,
      agent_id: r.agent_id,
      run_id: r.run_id,
      created_ms: Date.parse(r.created_at),
      valid_from_ms: Date.parse(r.valid_from ?? r.created_at),
      valid_to_ms: r.valid_to === null ? Infinity : Date.parse(r.valid_to),
    };
    const slot = p.vectors.upsert(info, vector);
    p.times.upsert(slot, info.created_ms);
    if (before) p.lexical.remove(slot, this.termIds(before.memory));
    p.lexical.add(slot, this.termIds(r.memory));
  }

  /** Removes a memory (indexed under `text`) from its user's indexes. */
  unindex(p: Partition, id: string, text: string): void {
    const slot = p.vectors.remove(id);
    if (slot === undefined) return;
    p.lexical.remove(slot, this.termIds(text));
    p.times.remove(slot);
  }

  /** The vocabulary id of a query term (undefined: no memory holds it). */
  termId(term: string): number | undefined {
    return this.vocabulary.find(term);
  }

  /**
   * Drops every loaded user's indexes (their next request, or `reload`, reads their rows again);
   * answers who they were.
   */
  forgetAll(): string[] {
    const users = [...this.partitions.keys()];
    this.partitions.clear();
    return users;
  }

  /** Loads these users' indexes again, one after another, in the background. */
  async reload(userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      if (this.closed) return;
      await this.loaded(userId);
    }
  }

  /** Drops every index and stops a background load. */
  close(): void {
    this.closed = true;
    this.partitions.clear();
  }
}
