/**
 * One fact once across instances of a fleet (docs/fleet.md#memory): two memory services on one
 * PostgreSQL adding the same fact for one user at the same moment store it once and answer the
 * same id; a retry with the add's idempotency key on the other instance waits for the first add
 * and answers its response; an instance whose change-feed cursor fell behind pruned changes
 * reloads its users instead of skipping them.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from '../../../domain/memory/embedding/embedder';
import { offlineFactExtractor } from '../../../domain/memory/extraction/offline-fact-extractor';
import { MemoryService } from '../../../domain/memory/memory-service';
import type { SharedMemoryTables } from '../../../domain/memory/shared/memory-schema';
import {
  SharedAuditLog,
  SharedHistory,
  SharedIdempotencyKeys,
} from '../../../domain/memory/shared/shared-history';
import { openSharedMemoryDb } from '../../../domain/memory/shared/shared-memory-db';
import { SharedMemoryStore } from '../../../domain/memory/shared/shared-memory-store';
import type { Kysely } from 'kysely';
import { freshPostgresDatabase } from '../../harness/postgres';
import { unitVector } from './memory-store-contract';

const DIMS = 384;

/** Vectors from the text (its hash as the seed): the same text, the same vector, no model. */
function textEmbedder(delayMs = () => 0): Embedder {
  return {
    id: 'test-text-hash',
    dimensions: DIMS,
    async embed(texts) {
      const delay = delayMs();
      if (delay) await new Promise((r) => setTimeout(r, delay));
      return texts.map((t) => unitVector(createHash('sha256').update(t).digest().readUInt32LE(0)));
    },
  };
}

interface Instance {
  service: MemoryService;
  db: Kysely<SharedMemoryTables>;
  close(): Promise<void>;
}

/** A memory service as another host would run it: its own pool, listener and indexes. */
async function instance(url: string, name: string, embedder = textEmbedder()): Promise<Instance> {
  const { db, metadata } = await openSharedMemoryDb(`${url}?application_name=${name}`);
  const store = await SharedMemoryStore.open(db, DIMS, metadata.notifications);
  const service = new MemoryService({
    store,
    history: new SharedHistory(db),
    idempotency: new SharedIdempotencyKeys(db),
    embedder,
    extractor: offlineFactExtractor,
    audit: new SharedAuditLog(db),
  });
  return {
    service,
    db,
    close: async () => {
      await service.close();
      await metadata.close();
    },
  };
}

const rowsOf = async (db: Kysely<SharedMemoryTables>, user: string) =>
  db.selectFrom('memories').select(['id', 'memory']).where('user_id', '=', user).execute();

describe('one fact once across instances', () => {
  it('two instances adding the same fact for one user at the same moment store one row and answer its id', async () => {
    const url = await freshPostgresDatabase('memory-once');
    const a = await instance(url, 'a');
    const b = await instance(url, 'b');
    try {
      for (let round = 0; round < 30; round++) {
        const text = `The release train ${round} leaves on Thursday.`;
        const infer = round % 2 === 0;
        const [fromA, fromB] = await Promise.all([
          a.service.add({ user_id: 'ola', text, infer }),
          b.service.add({ user_id: 'ola', text, infer }),
        ]);
        expect(fromA.results).toHaveLength(1);
        expect(fromB.results[0].id).toBe(fromA.results[0].id);
        expect([fromA.results[0].event, fromB.results[0].event].sort()).toEqual(['ADD', 'NONE']);
      }
      const rows = await rowsOf(a.db, 'ola');
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.memory)).size).toBe(30);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
