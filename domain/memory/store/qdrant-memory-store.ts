/**
 * The Qdrant memory store: one collection holds every memory as a point (id = memory id, vectors =
 * its embedding and its terms as a sparse vector, payload = the whole record), so rows and vectors live together and scale out
 * with Qdrant. Writes wait for Qdrant to apply them, so a read right after a write sees it.
 */
import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { categoryOf, type MemoryRecord } from '../../../shared/memory-model';
import type {
  MemoryFilter,
  MemoryStore,
  TextHit,
  VectorHit,
  MemoryChange,
  VersionScope,
} from './memory-store';
import { ensureMemoryCollection } from './qdrant-collection';
import { inProcessUserWrites, type UserWrites } from './user-writes';
import { keyword, toQdrantFilter } from './qdrant-filter';
import { fromPayload, toPayload } from './qdrant-payload';
import { documentVector, queryVector, TEXT_VECTOR } from './qdrant-sparse';
import { idf } from '../search/bm25';
import { indexTerms } from '../search/text-terms';

/** Where the store keeps its memories. */
export interface QdrantMemoryStoreOptions {
  /** e.g. `http://127.0.0.1:6333`. */
  url: string;
  apiKey?: string;
  /** Default `plat_memories`. */
  collection?: string;
  /** Dimensions of the embedder's vectors; default 384 (all-MiniLM-L6-v2). */
  vectorSize?: number;
  /**
   * What makes an add's check and insert one step per user: the fleet's PostgreSQL lock
   * (shared/user-write-lock.ts) when instances share the collection; default, this process's.
   */
  userWrites?: UserWrites;
}

export const DEFAULT_QDRANT_COLLECTION = 'plat_memories';

/** Qdrant point ids are unsigned integers or UUIDs; memory ids are UUIDs. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Page size when a list walks every matching point. */
const SCROLL_PAGE = 256;

type Point = { payload?: Record<string, unknown> | null };

const recordOf = (point: Point): MemoryRecord => fromPayload(point.payload ?? {});

/** Newest first, then by id, the embedded store's order. */
const newestFirst = (a: MemoryRecord, b: MemoryRecord): number =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** `MemoryStore` over a Qdrant collection (see the file comment). */
export class QdrantMemoryStore implements MemoryStore {
  readonly kind = 'qdrant';

  constructor(
    private readonly client: QdrantClient,
    private readonly collection: string,
    private readonly userWrites: UserWrites = inProcessUserWrites(),
  ) {}

  async insert(record: MemoryRecord, vector: Float32Array): Promise<void> {
    if (!UUID.test(record.id)) throw new Error(`a Qdrant memory id must be a UUID: ${record.id}`);
    await this.upsert(record, vector);
  }

  /**
   * The check, then the insert: two requests to Qdrant, made one step by the user's write lock, so
   * two adds of one fact for one user at the same moment store it once (docs/fleet.md#memory).
   */
  insertIfNew(scope: MemoryFilter, record: MemoryRecord, vector: Float32Array): Promise<MemoryRecord> {
    return this.userWrites(record.user_id, async () => {
      const same = await this.findByHash(scope, record.hash);
      if (same) return same;
      await this.insert(record, vector);
      return record;
    });
  }

  async update(id: string, change: MemoryChange, vector: Float32Array): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    const metadata = change.metadata ?? before.metadata;
    const category = categoryOf(metadata);
    const valid_from = change.valid_from ?? before.valid_from;
    const after: MemoryRecord = { ...before, ...change, metadata, category, valid_from };
    // An upsert replaces vector and payload together: the point never pairs old text with a new vector.
    await this.upsert(after, vector);
    return after;
  }

  async delete(id: string): Promise<MemoryRecord | undefined> {
    const before = await this.get(id);
    if (!before) return undefined;
    await this.client.delete(this.collection, { wait: true, points: [id] });
    return before;
  }

  async get(id: string): Promise<MemoryRecord | undefined> {
    // Qdrant rejects a malformed id with 400; no memory can have one, so it is simply not found.
    if (!UUID.test(id)) return undefined;
    const points = await this.client.retrieve(this.collection, { ids: [id], with_payload: true });
    return points[0] && recordOf(points[0]);
  }

  async versions(scope: VersionScope): Promise<MemoryRecord[]> {
    const must = [keyword('user_id', scope.user_id)];
    if (scope.agent_id !== undefined) must.push(keyword('agent_id', scope.agent_id));
    if (scope.memory_id !== undefined) must.push(keyword('version_of', scope.memory_id));
    // A version has a version_of; a current memory has none (or null).
    const records = await this.scrollAll({ must, must_not: [{ is_empty: { key: 'version_of' } }] });
    return records.sort(
      (a, b) =>
        (a.version_of ?? '').localeCompare(b.version_of ?? '') || a.valid_from.localeCompare(b.valid_from),
    );
  }

  async list(filter: MemoryFilter, limit?: number): Promise<MemoryRecord[]> {
    if (limit !== undefined) return limit > 0 ? this.newest(filter, limit) : [];
    // Without a limit, walk every page by id (order_by cannot page by offset) and sort here.
    return (await this.scrollAll(toQdrantFilter(filter))).sort(newestFirst);
  }

  /** Every point the filter selects, page by page. */
  private async scrollAll(filter: Schemas['Filter']): Promise<MemoryRecord[]> {
    const records: MemoryRecord[] = [];
    let offset: Schemas['ExtendedPointId'] | undefined;
    do {
      const page = await this.client.scroll(this.collection, {
        filter,
        limit: SCROLL_PAGE,
        offset,
        with_payload: true,
      });
      records.push(...page.points.map(recordOf));
      offset = (page.next_page_offset ?? undefined) as Schemas['ExtendedPointId'] | undefined;
    } while (offset !== undefined);
    return records;
  }

  /** The `limit` newest matches, ordered by Qdrant over the `created_at` datetime index. */
  private async newest(filter: MemoryFilter, limit: number): Promise<MemoryRecord[]> {
    const page = await this.client.scroll(this.collection, {
      filter: toQdrantFilter(filter),
      limit,
      order_by: { key: 'created_at', direction: 'desc' },
      with_payload: true,
    });
    // Qdrant leaves the order of equal timestamps open; settle ties as the unlimited list does.
    return page.points.map(recordOf).sort(newestFirst);
  }

  async search(vector: Float32Array, filter: MemoryFilter, limit: number): Promise<VectorHit[]> {
    if (limit <= 0) return [];
    const { points } = await this.client.query(this.collection, {
      query: Array.from(vector),
      filter: toQdrantFilter(filter),
      limit,
      with_payload: true,
    });
    // A cosine score is already a similarity in [-1, 1]: passed through, clamped into [0, 1]
    // (opposite meaning = 0; float rounding can overshoot 1).
    return points.map((p) => ({ record: recordOf(p), similarity: Math.min(1, Math.max(0, p.score)) }));
  }

  /**
   * For each source of the filter's user, up to `span` memories the filter allows created before it
   * and `span` at or after it, nearest first: two scrolls ordered over the `created_at` index per
   * source, all at once (search asks for 10 sources). Qdrant leaves the order of equal timestamps
   * open: memories stored at the same moment come after the source, in any order.
   */
  async neighbours(ids: string[], filter: MemoryFilter, span: number): Promise<Map<string, MemoryRecord[]>> {
    const wanted = [...new Set(ids)].filter((id) => UUID.test(id));
    if (!wanted.length || span <= 0) return new Map();
    const points = await this.client.retrieve(this.collection, { ids: wanted, with_payload: true });
    const sources = points.map(recordOf).filter((r) => r.user_id === filter.user_id);
    const side = async (source: MemoryRecord, direction: 'asc' | 'desc'): Promise<MemoryRecord[]> => {
      const range = direction === 'desc' ? { lt: source.created_at } : { gte: source.created_at };
      const page = await this.client.scroll(this.collection, {
        filter: toQdrantFilter(filter, [{ key: 'created_at', range }]),
        // One more after: the source itself is at its own time.
        limit: direction === 'asc' ? span + 1 : span,
        order_by: { key: 'created_at', direction },
        with_payload: true,
      });
      return page.points
        .map(recordOf)
        .filter((r) => r.id !== source.id)
        .slice(0, span);
    };
    const lists = await Promise.all(
      sources.map(async (source) => {
        const [before, after] = await Promise.all([side(source, 'desc'), side(source, 'asc')]);
        return [source.id, [...before, ...after]] as [string, MemoryRecord[]];
      }),
    );
    return new Map(lists);
  }

  async searchText(terms: string[], filters: MemoryFilter[], limit: number): Promise<TextHit[][]> {
    return Promise.all(filters.map((f) => this.searchTextOne(terms, f, limit)));
  }

  /** BM25 over one filter: idf from counts among the filtered memories, then a sparse query. */
  private async searchTextOne(terms: string[], filter: MemoryFilter, limit: number): Promise<TextHit[]> {
    if (limit <= 0 || !terms.length) return [];
    const count = async (extra: Schemas['Condition'][] = []) =>
      (await this.client.count(this.collection, { filter: toQdrantFilter(filter, extra), exact: true }))
        .count;
    const [n, ...dfs] = await Promise.all([
      count(),
      ...terms.map((t) => count([{ key: 'terms', match: { value: t } }])),
    ]);
    const weights = new Map(terms.map((t, i) => [t, dfs[i] > 0 ? idf(n, dfs[i]) : 0]));
    const ceiling = [...weights.values()].reduce((a, b) => a + b, 0);
    if (ceiling <= 0) return [];
    const { points } = await this.client.query(this.collection, {
      query: queryVector(weights),
      using: TEXT_VECTOR,
      filter: toQdrantFilter(filter),
      limit,
      with_payload: true,
    });
    return points.map((p) => {
      const held = new Set((p.payload?.terms as string[] | undefined) ?? []);
      return {
        record: recordOf(p),
        score: p.score,
        relevance: Math.min(1, Math.max(0, p.score / ceiling)),
        matched: terms.filter((t) => held.has(t)),
      };
    });
  }

  async findByHash(filter: MemoryFilter, hash: string): Promise<MemoryRecord | undefined> {
    const { points } = await this.client.scroll(this.collection, {
      filter: toQdrantFilter(filter, [{ key: 'hash', match: { value: hash } }]),
      limit: 1,
      with_payload: true,
    });
    return points[0] && recordOf(points[0]);
  }

  async staleRecords(embedder: string, limit: number): Promise<MemoryRecord[]> {
    const { points } = await this.client.scroll(this.collection, {
      filter: { must_not: [{ key: 'embedder', match: { value: embedder } }] },
      limit,
      with_payload: true,
    });
    return points.map(recordOf);
  }

  async countStale(embedder: string): Promise<number> {
    const { count } = await this.client.count(this.collection, {
      filter: { must_not: [{ key: 'embedder', match: { value: embedder } }] },
      exact: true,
    });
    return count;
  }

  /** Nothing to release: the REST client holds only idle keep-alive sockets, which time out. */
  async close(): Promise<void> {}

  private async upsert(record: MemoryRecord, vector: Float32Array): Promise<void> {
    // The payload is spread into a plain object: the client's payload type wants an index signature.
    await this.client.upsert(this.collection, {
      wait: true,
      points: [
        {
          id: record.id,
          // The unnamed dense vector is named "" beside the named sparse one.
          vector: { '': Array.from(vector), [TEXT_VECTOR]: documentVector(indexTerms(record.memory)) },
          payload: { ...toPayload(record) },
        },
      ],
    });
  }
}

/** Connects to Qdrant, creates or checks the memory collection, and answers the store. */
export async function openQdrantMemoryStore(options: QdrantMemoryStoreOptions): Promise<QdrantMemoryStore> {
  const collection = options.collection ?? DEFAULT_QDRANT_COLLECTION;
  // The version check is a fire-and-forget request that reports through console.warn; a wrong
  // URL or key already fails the collection check below, loudly.
  // The client loads here, with Qdrant configured, not in every memory service (0.05 s of CPU).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { QdrantClient } = require('@qdrant/js-client-rest') as typeof import('@qdrant/js-client-rest');
  const client = new QdrantClient({ url: options.url, apiKey: options.apiKey, checkCompatibility: false });
  await ensureMemoryCollection(client, collection, options.vectorSize ?? 384);
  return new QdrantMemoryStore(client, collection, options.userWrites);
}
