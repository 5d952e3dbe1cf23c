/**
 * The fleet's memory store (rows in PostgreSQL, in-process indexes following the change feed)
 * passes the contract every store passes; and two instances on one database see each other's
 * adds, updates and deletes in vector and lexical search, as two hosts would.
 */
import { openSharedMemoryDb } from '../../../domain/memory/fleet/shared-memory-db';
import { SharedMemoryStore } from '../../../domain/memory/fleet/shared-memory-store';
import { queryTerms } from '../../../domain/memory/search/text-terms';
import type { MemoryStore } from '../../../domain/memory/store/memory-store';
import type { MemoryRecord } from '../../../shared/memory-model';
import { freshPostgresDatabase } from '../../harness/postgres';
import { memoryRecord, memoryStoreContract, unitVector } from './memory-store-contract';

const DIMS = 384;

/** A store as another instance (host) would open it: its own pool and listening connection. */
async function instance(url: string, name: string): Promise<MemoryStore> {
  const { db, metadata } = await openSharedMemoryDb(`${url}?application_name=${name}`);
  return SharedMemoryStore.open(db, DIMS, metadata.notifications);
}

memoryStoreContract('shared (PostgreSQL)', async () =>
  instance(await freshPostgresDatabase('memory-contract'), 'a'),
);

describe('two instances of the shared store', () => {
  const record = (user_id: string, memory: string) => memoryRecord({ user_id, memory });
  const ids = (hits: { record: MemoryRecord }[]) => hits.map((h) => h.record.id);

  /** Polls `probe` until it holds; answers how long that took. */
  const within = async (ms: number, probe: () => Promise<boolean>) => {
    const start = Date.now();
    while (!(await probe())) {
      if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return Date.now() - start;
  };

  it('an add, an update and a delete on A reach B’s loaded indexes within a second', async () => {
    const url = await freshPostgresDatabase('memory-two');
    const a = await instance(url, 'a');
    const b = await instance(url, 'b');
    try {
      const first = record('ana', 'the backup job runs nightly at two');
      await a.insert(first, unitVector(1));
      // B loads ana's indexes (one memory), then follows A's writes.
      expect(ids(await b.search(unitVector(1), { user_id: 'ana' }, 5))).toEqual([first.id]);

      const second = record('ana', 'invoice XR-7734 was paid by wire');
      await a.insert(second, unitVector(2));
      await within(
        1000,
        async () => ids(await b.search(unitVector(2), { user_id: 'ana' }, 1))[0] === second.id,
      );
      const lexical = async (q: string) =>
        ids((await b.searchText(queryTerms(q), [{ user_id: 'ana' }], 5))[0]);
      expect(await lexical('XR-7734')).toEqual([second.id]);

      await a.update(
        second.id,
        {
          memory: 'invoice QZ-9001 is overdue',
          hash: 'h2',
          updated_at: new Date().toISOString(),
          embedder: 'test-embedder',
        },
        unitVector(3),
      );
      await within(1000, async () => (await lexical('QZ-9001')).includes(second.id));
      expect(await lexical('XR-7734')).toEqual([]);
      expect(ids(await b.search(unitVector(3), { user_id: 'ana' }, 1))).toEqual([second.id]);

      await a.delete(first.id);
      await within(
        1000,
        async () => !ids(await b.search(unitVector(1), { user_id: 'ana' }, 5)).includes(first.id),
      );
      expect(await lexical('backup nightly')).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('concurrent writers on both instances: each ends with every memory indexed exactly once', async () => {
    const url = await freshPostgresDatabase('memory-race');
    const a = await instance(url, 'a');
    const b = await instance(url, 'b');
    try {
      await a.insert(record('ben', 'seed memory for ben'), unitVector(100));
      await b.search(unitVector(100), { user_id: 'ben' }, 1);
      await a.search(unitVector(100), { user_id: 'ben' }, 1);
      const written = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const r = record('ben', `note ${i} about topic${i}`);
          await (i % 2 ? a : b).insert(r, unitVector(200 + i));
          return r;
        }),
      );
      for (const store of [a, b]) {
        // Any of the 40 may commit last (both instances write at once): wait for the feed to bring
        // them all, then check none is indexed twice.
        await within(
          5000,
          async () => (await store.search(unitVector(100), { user_id: 'ben' }, 100)).length >= 41,
        );
        const all = ids(await store.search(unitVector(100), { user_id: 'ben' }, 100));
        expect(all).toHaveLength(41);
        expect(new Set(all).size).toBe(41);
        for (const [i, r] of written.entries())
          expect(ids((await store.searchText(queryTerms(`topic${i}`), [{ user_id: 'ben' }], 5))[0])).toEqual([
            r.id,
          ]);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
