/**
 * The Qdrant memory store through the real `@qdrant/js-client-rest` client: the shared store
 * contract against the wire-format fake always, and against a real Qdrant when QDRANT_URL is set
 * (QDRANT_API_KEY optional); then what only the wire shows (collection setup, indexes, filters
 * sent, waits, api key).
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_QDRANT_COLLECTION,
  openQdrantMemoryStore,
} from '../../../activities/memory/store/qdrant-memory-store';
import type { MemoryStore } from '../../../activities/memory/store/memory-store';
import type { MemoryRecord } from '../../../shared/memory-model';
import { startQdrantFake, type QdrantFake, type QdrantFakeRequest } from '../../fakes/qdrant-fake';
import { memoryStoreContract, unitVector } from './memory-store-contract';

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

function record(fields: Partial<MemoryRecord> = {}): MemoryRecord {
  const at = new Date().toISOString();
  return {
    id: randomUUID(),
    memory: 'a memory',
    user_id: 'alice',
    agent_id: null,
    run_id: null,
    metadata: {},
    category: null,
    hash: randomUUID(),
    created_at: at,
    updated_at: at,
    embedder: 'test-embedder',
    ...fields,
  };
}

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

  it('creates plat_memories (cosine, 384-d) with its payload indexes when missing', async () => {
    await openQdrantMemoryStore({ url: fake.url });

    const collection = fake.collections.get(DEFAULT_QDRANT_COLLECTION);
    expect(collection).toMatchObject({ size: 384, distance: 'Cosine' });
    expect(Object.fromEntries(collection!.indexes)).toEqual({
      user_id: 'keyword',
      agent_id: 'keyword',
      run_id: 'keyword',
      hash: 'keyword',
      run_day: 'integer',
      created_at: 'datetime',
    });
    expect(sent('PUT', '/index').every((r) => r.query.wait === 'true')).toBe(true);
  });

  it('reopens an existing collection without recreating it, and refuses one of another size', async () => {
    await openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 8 });
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 8 });
    expect(sent('PUT', '/collections/m')).toHaveLength(1);
    expect(sent('PUT', '/index')).toHaveLength(6);

    // A missing index (e.g. a collection made by an older version) is added on open.
    fake.collections.get('m')!.indexes.delete('run_day');
    await openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 8 });
    expect(
      sent('PUT', '/index')
        .map((r) => (r.body as { field_name: string }).field_name)
        .slice(6),
    ).toEqual(['run_day']);

    await expect(openQdrantMemoryStore({ url: fake.url, collection: 'm', vectorSize: 384 })).rejects.toThrow(
      /holds 8-d Cosine vectors; this store needs 384-d Cosine/,
    );
    await store.close();
  });

  it('waits on every write and stores the whole record plus run_day as the payload', async () => {
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'w', vectorSize: 384 });
    const scoped = record({ run_id: '2025-03-05', metadata: { category: 'short_term', deep: { a: [1] } } });
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
    const upsert = writes[0].body as { points: { id: string; vector: number[]; payload: unknown }[] };
    expect(upsert.points[0].id).toBe(scoped.id);
    expect(upsert.points[0].vector).toHaveLength(384);
    // 2025-03-05 is day 20152 since 1970-01-01.
    expect(upsert.points[0].payload).toEqual({ ...scoped, run_day: 20152 });
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
        ],
      },
      {
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'run_id', match: { value: '2025-03-05' } },
        ],
      },
      {
        must: [
          { key: 'user_id', match: { value: 'alice' } },
          { key: 'run_day', range: { gte: 20152 } },
        ],
      },
    ]);
    expect(bodies.every((b) => b.with_payload === true)).toBe(true);
    await expect(store.list({ user_id: 'alice', run_id_from: '2025-02-30' })).rejects.toThrow(/run_id_from/);
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
