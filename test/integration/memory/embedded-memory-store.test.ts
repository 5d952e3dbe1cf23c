/**
 * The embedded memory store passes the same contract as every store (rows in SQLite, int16 SIMD
 * index, BM25 index), and loads its per-user indexes lazily after a restart.
 */
import { queryTerms } from '../../../domain/memory/search/text-terms';
import { openEmbeddedMemoryStore } from '../../../domain/memory/store/embedded-memory-store';
import { newTestDataDir } from '../../harness/platform-gateway';
import { memoryRecord, memoryStoreContract, unitVector } from './memory-store-contract';

memoryStoreContract('embedded', () => openEmbeddedMemoryStore(newTestDataDir()));

describe('embedded store after a restart', () => {
  const record = (user_id: string, memory: string) => memoryRecord({ user_id, memory });

  it('loads a user on first use, or all users with warm(), and never indexes a row twice', async () => {
    const dir = newTestDataDir();
    const before = await openEmbeddedMemoryStore(dir);
    const ana = record('ana', 'the deploy key rotates weekly');
    const ben = record('ben', 'the deploy runs on fridays');
    await before.insert(ana, unitVector(1));
    await before.insert(ben, unitVector(2));
    await before.close();

    // A write before the user's first read: the user's rows load first, then the new one joins them.
    const after = await openEmbeddedMemoryStore(dir);
    const ana2 = record('ana', 'the deploy key lives in the vault');
    await after.insert(ana2, unitVector(3));
    const [hits] = await after.searchText(queryTerms('deploy key'), [{ user_id: 'ana' }], 10);
    expect(hits.map((h) => h.record.id).sort()).toEqual([ana.id, ana2.id].sort());
    expect((await after.search(unitVector(1), { user_id: 'ana' }, 10)).map((h) => h.record.id)).toHaveLength(
      2,
    );

    await after.warm!();
    const [benHits] = await after.searchText(queryTerms('deploy'), [{ user_id: 'ben' }], 10);
    expect(benHits.map((h) => h.record.id)).toEqual([ben.id]);
    expect(await after.search(unitVector(9), { user_id: 'nobody' }, 10)).toEqual([]);
    await after.close();
  });

  it('loads a large user in pages in the background; a request meanwhile loads it whole, once', async () => {
    const dir = newTestDataDir();
    const before = await openEmbeddedMemoryStore(dir);
    const many = Array.from({ length: 4500 }, (_, i) => record('cara', `note ${i} about the garden`));
    for (const r of many) await before.insert(r, unitVector(1000 + (many.indexOf(r) % 50)));
    await before.close();

    // Background pages, untouched: every memory, once.
    const quiet = await openEmbeddedMemoryStore(dir);
    await quiet.warm!();
    const [all] = await quiet.searchText(queryTerms('garden'), [{ user_id: 'cara' }], 10_000);
    expect(all).toHaveLength(4500);
    await quiet.close();

    // A write while the background is between pages: it loads the user itself, and wins.
    const busy = await openEmbeddedMemoryStore(dir);
    const warming = busy.warm!();
    await new Promise((resolve) => setImmediate(resolve));
    const late = record('cara', 'the garden gate is blue');
    await busy.insert(late, unitVector(7));
    await warming;
    const [found] = await busy.searchText(queryTerms('garden'), [{ user_id: 'cara' }], 10_000);
    expect(found).toHaveLength(4501);
    expect(new Set(found.map((h) => h.record.id)).size).toBe(4501);
    expect((await busy.search(unitVector(7), { user_id: 'cara' }, 1))[0].record.id).toBe(late.id);
    await busy.close();
  });
});
