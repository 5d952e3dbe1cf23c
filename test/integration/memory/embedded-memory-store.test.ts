/**
 * The embedded memory store passes the same contract as every store (rows in SQLite, int16 SIMD
 * index, BM25 index), and loads its per-user indexes lazily after a restart.
 */
import { randomUUID } from 'node:crypto';
import { queryTerms } from '../../../activities/memory/search/text-terms';
import { openEmbeddedMemoryStore } from '../../../activities/memory/store/embedded-memory-store';
import type { MemoryRecord } from '../../../shared/memory-model';
import { newTestDataDir } from '../../harness/platform-gateway';
import { memoryStoreContract, unitVector } from './memory-store-contract';

memoryStoreContract('embedded', () => openEmbeddedMemoryStore(newTestDataDir()));

describe('embedded store after a restart', () => {
  const record = (user_id: string, memory: string): MemoryRecord => ({
    id: randomUUID(),
    memory,
    user_id,
    agent_id: null,
    run_id: null,
    metadata: {},
    category: null,
    hash: randomUUID(),
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    embedder: 'test-embedder',
  });

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
});
