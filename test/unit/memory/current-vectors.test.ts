/**
 * The store as searches see it after a model change (store/current-vectors.ts): vector hits of
 * another model dropped while memories re-embed, and a model's cosines calibrated into relevance.
 */
import type { MemoryRecord } from '../../../shared/memory-model';
import { CurrentVectorsStore } from '../../../domain/memory/store/current-vectors';
import type { MemoryStore, VectorHit } from '../../../domain/memory/store/memory-store';

const record = (id: string, embedder: string) => ({ id, embedder }) as MemoryRecord;

function fakeStore(hits: VectorHit[]): MemoryStore & { limits: number[] } {
  const limits: number[] = [];
  return {
    limits,
    kind: 'fake',
    search: async (_v: Float32Array, _f: unknown, limit: number) => {
      limits.push(limit);
      return hits.slice(0, limit);
    },
    searchMany: async (_v: Float32Array, filters: unknown[], limit: number) => {
      limits.push(limit);
      return filters.map(() => hits.slice(0, limit));
    },
  } as unknown as MemoryStore & { limits: number[] };
}

const hits: VectorHit[] = [
  { record: record('a', 'old'), similarity: 0.9 },
  { record: record('b', 'new'), similarity: 0.8 },
  { record: record('c', 'old'), similarity: 0.7 },
  { record: record('d', 'new'), similarity: 0.6 },
  { record: record('e', 'new'), similarity: 0.2 },
];

/** The store over `inner` with 'new' the current model, re-embedding or not, and the ids a search of 2 finds. */
function currentOf(inner: MemoryStore, reembedding: boolean) {
  const store = new CurrentVectorsStore(
    inner,
    () => 'new',
    () => reembedding,
  );
  const idsFound = async () =>
    (await store.search(new Float32Array(2), { user_id: 'u' }, 2)).map((h) => h.record.id);
  return { store, idsFound };
}

describe('CurrentVectorsStore', () => {
  it('while re-embedding, answers only the current model’s vectors, asking for twice the hits', async () => {
    const inner = fakeStore(hits);
    const { store, idsFound } = currentOf(inner, true);
    expect(await idsFound()).toEqual(['b', 'd']);
    const [many] = await store.searchMany!(new Float32Array(2), [{ user_id: 'u' }], 2);
    expect(many.map((h) => h.record.id)).toEqual(['b', 'd']);
    expect(inner.limits).toEqual([4, 4]);
  });

  it('once every memory is current, passes searches through unchanged', async () => {
    const inner = fakeStore(hits);
    expect(await currentOf(inner, false).idsFound()).toEqual(['a', 'b']);
    expect(inner.limits).toEqual([2]);
  });

  it('calibrates similarities as (cosine - floor) / (1 - floor), never below 0', async () => {
    const store = new CurrentVectorsStore(
      fakeStore(hits),
      () => 'new',
      () => false,
      0.6,
    );
    const got = await store.search(new Float32Array(2), { user_id: 'u' }, 5);
    expect(got.map((h) => h.similarity)).toEqual([0.75, 0.5, 0.25, 0, 0].map((x) => expect.closeTo(x, 10)));
  });
});
