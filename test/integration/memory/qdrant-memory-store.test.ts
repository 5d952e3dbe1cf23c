/**
 * The Qdrant memory store through the real `@qdrant/js-client-rest` client: the shared store
 * contract against the wire-format fake always, and against a real Qdrant when QDRANT_URL is set
 * (QDRANT_API_KEY optional); then what only the wire shows (collection setup with its sparse
 * vector, indexes, named vectors and payload upserted, filters and time ranges sent, the counts and
 * sparse query of a lexical search, waits, api key).
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import {
  DEFAULT_QDRANT_COLLECTION,
  openQdrantMemoryStore,
} from '../../../domain/memory/store/qdrant-memory-store';
import type { MemoryStore } from '../../../domain/memory/store/memory-store';
import { documentVector, termDimension } from '../../../domain/memory/store/qdrant-sparse';
import { indexTerms, queryTerms } from '../../../domain/memory/search/text-terms';
import type { MemoryRecord } from '../../../shared/memory-model';
import { startQdrantFake, type QdrantFake, type QdrantFakeRequest } from '../../fakes/qdrant-fake';
import { memoryRecord as record, memoryStoreContract, unitVector } from './memory-store-contract';

let sharedFake: QdrantFake | undefined;
let opened = 0;

/** A store on its own collection of the shared fake, so tests do not see each other's memories. */
async function openOnFake(): Promise<MemoryStore> {
  sharedFake ??= await startQdrantFake();
  return openQdrantMemoryStore({ url: sharedFake.url, collection: `memories_${++opened}` });
}

const realUrl = process.env.QDRANT_URL;
const realApiKey = process.env.QDRANT_API_KEY || undefined;
const realCollections: string[] = [];

/** A store on a fresh, uniquely named collection of the real Qdrant (dropped after the file). */
async function openOnReal(): Promise<MemoryStore> {
  const collection = `plat_memories_test_${process.pid}_${Date.now()}_${++opened}`;
  realCollections.push(collection);
  return openQdrantMemoryStore({ url: realUrl!, apiKey: realApiKey, collection });
}

afterAll(async () => {
  await sharedFake?.close();
  if (realUrl && realCollections.length > 0) {
    const client = new QdrantClient({ url: realUrl, apiKey: realApiKey, checkCompatibility: false });
    for (const name of realCollections) await client.deleteCollection(name);
  }
});

memoryStoreContract('qdrant (wire-format fake)', openOnFake);
// No registry serves a Qdrant server, so the real one runs only where a user points QDRANT_URL at one.
memoryStoreContract(
  'qdrant (real)',
  openOnReal,
  realUrl ? undefined : 'set QDRANT_URL (and QDRANT_API_KEY if needed) to run it against a real Qdrant',
);

/** Every filter selects the current memories unless it asks as of a time (docs/memory-validity.md). */
const current = { is_empty: { key: 'valid_to' } };

describe('QdrantMemoryStore on the wire (fake)', () => {
  let fake: QdrantFake;

  beforeEach(async () => {
    fake = await startQdrantFake();
  });

  afterEach(async () => {
    await fake.close();
  });

  const sent = (method: string, suffix: string): QdrantFakeRequest[] =>
    fake.requests.filter((r) => r.method === method && r.path.endsWith(suffix));

  it('creates plat_memories (cosine, 384-d, plus the text sparse vector) with its payload indexes when missing', async () => {
    await openQdrantMemoryStore({ url: fake.url });

    expect(sent('PUT', `/collections/${DEFAULT_QDRANT_COLLECTION}`).map((r) => r.body)).toEqual([
      { vectors: { size: 384, distance: 'Cosine' }, sparse_vectors: { text: {} } },
    ]);
    const collection = fake.collections.get(DEFAULT_QDRANT_COLLECTION);
    expect(collection).toMatchObject({ size: 384, distance: 'Cosine' });
    expect(Object.fromEntries(collection!.sparseVectors)).toEqual({ text: {} });
    expect(Object.fromEntries(collection!.indexes)).toEqual({
      user_id: 'keyword',
      agent_id: 'keyword',
      run_id: 'keyword',
      hash: 'keyword',
      run_day: 'integer',
      created_at: 'datetime',
      terms: 'keyword',
    });
    expect(sent('PUT', '/index').every((r) => r.query.wait === 'true')).toBe(true);
  });

  it('refuses an existing collection without the text sparse vector, naming QDRANT_COLLECTION', async () => {
    // A collection made before lexical search: one unnamed dense vector, nothing else.
    const client = new QdrantClient({ url: fake.url, checkCompatibility: false });
    await client.createCollection('old', { vectors: { size: 384, distance: 'Cosine' } });
    fake.requests.length = 0;

    await expect(openQdrantMemoryStore({ url: fake.url, collection: 'old' })).rejects.toThrow(
      /Qdrant collection old has no "text" sparse vector.*set QDRANT_COLLECTION to a new name/,
    );
    // Refused before anything is changed: no index added, nothing recreated.
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('reopens an existing collection without recreating it, and refuses one of another size', async () => {
    await openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 8 });
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 8 });
    expect(sent('PUT', '/collections/m')).toHaveLength(1);
    expect(sent('PUT', '/index')).toHaveLength(7);

    // A missing index (e.g. a collection made by an older version) is added on open.
    fake.collections.get('m')!.indexes.delete('run_day');
    await openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 8 });
    expect(
      sent('PUT', '/index')
        .map((r) => (r.body as { field_name: string }).field_name)
        .slice(7),
    ).toEqual(['run_day']);

    await expect(openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 384 })).rejects.toThrow(
      /holds 8-d Cosine vectors; this store needs 384-d Cosine/,
    );
    await store.close();
  });

  it('waits on every write and stores the whole record plus run_day and terms as the payload', async () => {
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'w', vectorSize: 384 });
    const scoped = record({
      memory: 'Hikes and hiking: the hike to XR-7734',
      run_id: '2025-03-05',
      metadata: { category: 'short_term', deep: { a: [1] } },
    });
    await store.insert(scoped, unitVector(1));
    await store.update(
      scoped.id,
      { memory: 'b', hash: 'h2', updated_at: new Date().toISOString(), embedder: 'e' },
      unitVector(2),
    );
    await store.delete(scoped.id);

    const writes = [...sent('PUT', '/points'), ...sent('POST', '/points/delete')];
    expect(writes).toHaveLength(3);
    expect(writes.every((r) => r.query.wait === 'true')).toBe(true);
    const upsert = writes[0].body as {
      points: {
        id: string;
        vector: { ''?: number[]; text?: { indices: number[]; values: number[] } };
        payload: unknown;
      }[];
    };
    expect(upsert.points[0].id).toBe(scoped.id);
    // Named vectors: "" is the unnamed dense one, `text` the sparse one over the memory's terms.
    expect(Object.keys(upsert.points[0].vector).sort()).toEqual(['', 'text']);
    expect(upsert.points[0].vector['']).toHaveLength(384);
    // "Hikes", "hiking" and "hike" stem alike: 3 of one term, then xr, 7734 and xr7734 once each.
    const distinct = [...new Set(indexTerms(scoped.memory))];
    expect(distinct).toHaveLength(4);
    const sparse = upsert.points[0].vector.text!;
    expect(sparse).toEqual(documentVector(indexTerms(scoped.memory)));
    expect(sparse.indices).toEqual(distinct.map(termDimension).sort((a, b) => a - b));
    const weightOf = (t: string) => sparse.values[sparse.indices.indexOf(termDimension(t))];
    expect(weightOf(distinct[0])).toBeGreaterThan(weightOf('xr'));
    // 2025-03-05 is day 20152 since 1970-01-01; terms are the distinct index terms.
    expect(upsert.points[0].payload).toEqual({ ...scoped, run_day: 20152, terms: distinct });
  });

  it('sends the filters as keyword matches, is_empty for long-term and a run_day range', async () => {
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'f', vectorSize: 384 });
    await store.search(unitVector(1), { user_id: 'alice', agent_id: 'coder', long_term: true }, 3);
    await store.search(unitVector(1), { user_id: 'alice', run_id: '2025-03-05' }, 3);
    await store.search(unitVector(1), { user_id: 'alice', run_id_from: '2025-03-05' }, 3);

    const bodies = sent('POST', '/points/query').map(
      (r) => r.body as { filter: unknown; with_payload: boolean },
    );
    expect(bodies.map((b) => b.filter)).toEqual([
      {
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'agent_id', match: { value: 'coder' } },
          { is_empty: { key: 'run_id' } },
          current,
        ],
      },
      {
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'run_id', match: { value: '2025-03-05' } },
          current,
        ],
      },
      {
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'run_day', range: { gte: 20152 } },
          current,
        ],
      },
    ]);
    expect(bodies.every((b) => b.with_payload === true)).toBe(true);
    await expect(store.list({ user_id: 'alice', run_id_from: '2025-02-30' })).rejects.toThrow(/run_id_from/);
  });

  it('sends a time range as a created_at datetime range, and Qdrant applies it', async () => {
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 't', vectorSize: 4 });
    const at = (created_at: string) => record({ created_at, updated_at: created_at });
    const [before, inside, after] = [
      at('2024-12-31T23:59:59.999Z'),
      at('2025-01-15T12:00:00.000Z'),
      at('2025-02-01T00:00:00.000Z'),
    ];
    for (const r of [before, inside, after]) await store.insert(r, new Float32Array([1, 0, 0, 0]));
    fake.requests.length = 0;

    const january = { created_from: '2025-01-01T00:00:00.000Z', created_to: '2025-02-01T00:00:00.000Z' };
    const hits = await store.search(new Float32Array([1, 0, 0, 0]), { user_id: 'alice', ...january }, 10);
    expect(hits.map((h) => h.record.id)).toEqual([inside.id]);
    const listed = await store.list({ user_id: 'alice', created_from: january.created_to });
    expect(listed.map((r) => r.id)).toEqual([after.id]);

    const filters = [...sent('POST', '/points/query'), ...sent('POST', '/points/scroll')].map(
      (r) => (r.body as { filter: unknown }).filter,
    );
    expect(filters).toEqual([
      {
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'created_at', range: { gte: january.created_from, lt: january.created_to } },
          current,
        ],
      },
      {
        // An open end is left out of the range.
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'created_at', range: { gte: january.created_to } },
          current,
        ],
      },
    ]);
  });

  describe('lexical search', () => {
    /** BM25's idf, as docs/memory-search.md defines it. */
    const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const userIs = (user: string) => ({ key: 'user_id', match: { value: user } });

    it('counts per filter and term, then sends a sparse query on `text` weighted by idf', async () => {
      const store = await openQdrantMemoryStore({ url: fake.url, collection: 'x', vectorSize: 4 });
      const v = new Float32Array([1, 0, 0, 0]);
      const walks = record({ memory: 'Dog walks in the park every morning with my dog' });
      const cat = record({ memory: 'Cat naps all day' });
      const food = record({ memory: 'Dog food brand preference is Acme' });
      const bobs = record({ user_id: 'bob', memory: 'Dog' });
      for (const r of [walks, cat, food, bobs]) await store.insert(r, v);
      fake.requests.length = 0;

      // "zebra" is held by no memory, "cat" by none of bob's.
      const terms = queryTerms('dog cat zebra');
      expect(terms).toEqual(['dog', 'cat', 'zebra']);
      const [alice, bob] = await store.searchText(terms, [{ user_id: 'alice' }, { user_id: 'bob' }], 10);

      // Per filter: one exact count of what it selects, one per term of the memories holding it.
      const counts = sent('POST', '/points/count').map((r) => r.body);
      const countsFor = (user: string) => [
        { filter: { must: [userIs(user), current] }, exact: true },
        ...terms.map((t) => ({
          filter: { must: [userIs(user), current, { key: 'terms', match: { value: t } }] },
          exact: true,
        })),
      ];
      expect(counts).toHaveLength(2 * (1 + terms.length));
      expect(counts).toEqual(expect.arrayContaining([...countsFor('alice'), ...countsFor('bob')]));

      // Then one sparse query per filter on the `text` vector, its values the idf weights; a term
      // no memory under the filter holds is left out.
      const sparse = (weights: Record<string, number>) => {
        const entries = Object.entries(weights)
          .map(([t, w]) => [termDimension(t), w] as const)
          .sort((a, b) => a[0] - b[0]);
        return { indices: entries.map(([i]) => i), values: entries.map(([, w]) => w) };
      };
      const aliceWeights = { dog: idf(3, 2), cat: idf(3, 1) };
      const bobWeights = { dog: idf(1, 1) };
      const queries = sent('POST', '/points/query').map((r) => r.body as Record<string, unknown>);
      expect(queries).toHaveLength(2);
      const byUser = (user: string) =>
        queries.find((q) => JSON.stringify(q.filter) === JSON.stringify({ must: [userIs(user), current] }));
      for (const [user, weights] of [
        ['alice', aliceWeights],
        ['bob', bobWeights],
      ] as const) {
        const q = byUser(user)!;
        expect(q).toMatchObject({ using: 'text', limit: 10, with_payload: true });
        const query = q.query as { indices: number[]; values: number[] };
        expect(query.indices).toEqual(sparse(weights).indices);
        query.values.forEach((w, i) => expect(w).toBeCloseTo(sparse(weights).values[i], 12));
      }

      // Scores are the sparse dot product; relevance is the score over Σ idf, clamped into [0, 1].
      const expected = (r: MemoryRecord, weights: Record<string, number>) => {
        const doc = documentVector(indexTerms(r.memory));
        const score = Object.entries(weights).reduce((s, [t, w]) => {
          const k = doc.indices.indexOf(termDimension(t));
          return k < 0 ? s : s + w * doc.values[k];
        }, 0);
        const ceiling = Object.values(weights).reduce((a, b) => a + b, 0);
        return { score, relevance: Math.min(1, score / ceiling) };
      };
      const aliceExpected = [walks, cat, food]
        .map((r) => ({ r, ...expected(r, aliceWeights) }))
        .sort((a, b) => b.score - a.score);
      expect(alice.map((h) => h.record.id)).toEqual(aliceExpected.map((e) => e.r.id));
      alice.forEach((hit, i) => {
        expect(hit.score).toBeCloseTo(aliceExpected[i].score, 9);
        expect(hit.relevance).toBeCloseTo(aliceExpected[i].relevance, 9);
        expect(hit.relevance).toBeGreaterThan(0);
        expect(hit.relevance).toBeLessThanOrEqual(1);
      });
      expect(Object.fromEntries(alice.map((h) => [h.record.id, h.matched]))).toEqual({
        [walks.id]: ['dog'],
        [cat.id]: ['cat'],
        [food.id]: ['dog'],
      });
      expect(alice.find((h) => h.record.id === walks.id)!.record).toEqual(walks);

      // Bob's one-word memory scores above Σ idf (a short document's tf part exceeds 1): clamped to 1.
      expect(bob).toHaveLength(1);
      expect(bob[0]).toMatchObject({ record: bobs, matched: ['dog'], relevance: 1 });
      expect(bob[0].score).toBeGreaterThan(bobWeights.dog);
    });

    it('sends no query when no memory under the filter holds a term', async () => {
      const store = await openQdrantMemoryStore({ url: fake.url, collection: 'z', vectorSize: 4 });
      await store.insert(record({ memory: 'Dog walks' }), new Float32Array([1, 0, 0, 0]));
      fake.requests.length = 0;

      expect(await store.searchText(['zebra'], [{ user_id: 'alice' }, { user_id: 'bob' }], 5)).toEqual([
        [],
        [],
      ]);
      expect(sent('POST', '/points/count')).toHaveLength(4);
      expect(sent('POST', '/points/query')).toEqual([]);
    });
  });

  it('lists with a limit through order_by on created_at, and without one by paging over ids', async () => {
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'l', vectorSize: 4 });
    const base = Date.parse('2025-01-01T00:00:00.000Z');
    const records = Array.from({ length: 300 }, (_, i) =>
      record({ created_at: new Date(base + i * 60_000).toISOString() }),
    );
    for (let i = 0; i < records.length; i += 50) {
      await Promise.all(records.slice(i, i + 50).map((r) => store.insert(r, new Float32Array([1, 0, 0, 0]))));
    }
    fake.requests.length = 0;

    const all = await store.list({ user_id: 'alice' });
    expect(all.map((r) => r.id)).toEqual([...records].reverse().map((r) => r.id));
    const pages = sent('POST', '/points/scroll').map(
      (r) => r.body as { offset?: unknown; order_by?: unknown },
    );
    expect(pages).toHaveLength(2);
    expect(pages[1].offset).toBeDefined();

    const newest = await store.list({ user_id: 'alice' }, 3);
    expect(newest.map((r) => r.id)).toEqual(
      records
        .slice(-3)
        .reverse()
        .map((r) => r.id),
    );
    expect(sent('POST', '/points/scroll').at(-1)!.body).toMatchObject({
      limit: 3,
      order_by: { key: 'created_at', direction: 'desc' },
    });
  });

  it('answers unknown-format ids as not found without asking Qdrant, and refuses to insert them', async () => {
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'i', vectorSize: 384 });
    fake.requests.length = 0;
    expect(await store.get('mem-1')).toBeUndefined();
    expect(await store.delete('mem-1')).toBeUndefined();
    expect(fake.requests).toEqual([]);
    await expect(store.insert(record({ id: 'mem-1' }), unitVector(1))).rejects.toThrow(/must be a UUID/);
  });

  it('sends the api key on every request', async () => {
    await fake.close();
    fake = await startQdrantFake({ apiKey: 'k-123' });
    // The client warns about a key over plain http; that is expected against a local fake.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await expect(openQdrantMemoryStore({ url: fake.url, collection: 'k' })).rejects.toThrow();
      const store = await openQdrantMemoryStore({ url: fake.url, apiKey: 'k-123', collection: 'k' });
      await store.insert(record(), unitVector(1));
      const keyed = fake.requests.filter((r) => r.headers['api-key'] === 'k-123');
      expect(keyed.length).toBeGreaterThan(0);
      expect(fake.requests.filter((r) => r.headers['api-key'] === undefined)).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});
