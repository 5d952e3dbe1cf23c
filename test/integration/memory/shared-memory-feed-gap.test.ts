/**
 * A gap in the change feed (docs/fleet.md#memory): changes pruned before an instance read them
 * make it reload its users from their rows, so its searches find what those changes wrote instead
 * of missing it for good. A starting instance is never behind the pruned mark.
 */
import type { Kysely } from 'kysely';
import { appendChange } from '../../../domain/memory/fleet/memory-change-feed';
import { pruneChanges } from '../../../domain/memory/fleet/memory-change-pruning';
import type { MemoryTables } from '../../../domain/memory/store/memory-schema';
import { openSharedMemoryDb } from '../../../domain/memory/fleet/shared-memory-db';
import { SharedMemoryStore } from '../../../domain/memory/fleet/shared-memory-store';
import { vectorBytes } from '../../../domain/memory/store/memory-row';
import { freshPostgresDatabase } from '../../harness/postgres';
import { memoryRecord, unitVector } from './memory-store-contract';

const DIMS = 384;

interface Instance {
  store: SharedMemoryStore;
  db: Kysely<MemoryTables>;
  close(): Promise<void>;
}

async function instance(url: string, name: string): Promise<Instance> {
  const { db, metadata } = await openSharedMemoryDb(`${url}?application_name=${name}`);
  const store = await SharedMemoryStore.open(db, DIMS, metadata.notifications);
  return {
    store,
    db,
    close: async () => {
      await store.close();
      await metadata.close();
    },
  };
}

const record = (memory: string) => memoryRecord({ user_id: 'ana', memory });

/** Polls `probe` until it holds. */
const within = async (ms: number, probe: () => Promise<boolean>) => {
  const start = Date.now();
  while (!(await probe())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('a gap in the change feed', () => {
  it('changes pruned past B’s cursor make B reload its users: its search finds what they wrote', async () => {
    const url = await freshPostgresDatabase('memory-feed-gap');
    const a = await instance(url, 'a');
    const b = await instance(url, 'b');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const top = async (seed: number) =>
      (await b.store.search(unitVector(seed), { user_id: 'ana' }, 1))[0]?.record.id;
    try {
      const first = record('the backup job runs nightly at two');
      await a.store.insert(first, unitVector(1));
      expect(await top(1)).toBe(first.id); // B has loaded ana

      // A write whose change no instance ever reads: committed and pruned in one transaction.
      const missed = record('the VPN gateway moved to Frankfurt');
      await a.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('memories')
          .values({
            id: missed.id,
            user_id: missed.user_id,
            agent_id: null,
            run_id: null,
            memory: missed.memory,
            hash: missed.hash,
            metadata_json: '{}',
            category: null,
            created_at: missed.created_at,
            updated_at: missed.updated_at,
            embedder: missed.embedder,
            valid_from: missed.valid_from,
            vector: vectorBytes(unitVector(2)),
          })
          .execute();
        await appendChange(tx, {
          user_id: 'ana',
          memory_id: missed.id,
          op: 'ADD',
          old_memory: null,
          new_memory: missed.memory,
        });
        await pruneChanges(tx, new Date(Date.now() + 60_000));
      });
      // Then a change B reads, after the gap.
      const later = record('invoices go out on mondays');
      await a.store.insert(later, unitVector(3));

      await within(2000, async () => (await top(3)) === later.id);
      await within(2000, async () => (await top(2)) === missed.id);
      expect(b.store.feedGaps()).toBe(1);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/pruned before this instance read them/));

      // An instance starting now is not behind the mark: no gap, and it sees everything.
      const c = await instance(url, 'c');
      try {
        const next = record('the office closes at six on fridays');
        await a.store.insert(next, unitVector(4));
        const onC = await c.store.search(unitVector(2), { user_id: 'ana' }, 5);
        expect(onC.map((h) => h.record.id).sort()).toEqual([first.id, missed.id, later.id, next.id].sort());
        expect(c.store.feedGaps()).toBe(0);
      } finally {
        await c.close();
      }
    } finally {
      warn.mockRestore();
      await a.close();
      await b.close();
    }
  });
});
