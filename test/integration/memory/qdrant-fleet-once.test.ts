/**
 * One fact once on a fleet whose memories live in Qdrant (docs/fleet.md#memory): two memory services
 * built by the real wiring (PLAT_MEMORY_STORE=qdrant and PLAT_METADATA_URL), on one Qdrant collection
 * (the wire-format fake) and one PostgreSQL, adding the same facts for one user at the same moment,
 * store each once: Qdrant's check and insert run under the user's PostgreSQL lock. Without
 * PostgreSQL, one store's concurrent adds of one user are queued in its process.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Embedder } from '../../../domain/memory/embedding/embedder';
import type { MemoryService } from '../../../domain/memory/memory-service';
import { openQdrantMemoryStore } from '../../../domain/memory/store/qdrant-memory-store';
import type { MemoryRecord } from '../../../shared/memory-model';
import { createMemoryService } from '../../../gateway/memory/memory-service-wiring';
import { loadConfig } from '../../../shared/config';
import { startQdrantFake, type QdrantFake } from '../../fakes/qdrant-fake';
import { newTestDataDir } from '../../harness/platform-gateway';
import { freshPostgresDatabase } from '../../harness/postgres';
import { otherModelMemory } from '../../fixtures/other-model-memory';
import { unitVector } from './memory-store-contract';

/** The same text, the same vector; a short wait so that the adds overlap. */
const textEmbedder: Embedder = {
  id: 'test-text-hash',
  dimensions: 384,
  async embed(texts) {
    await new Promise((r) => setTimeout(r, 5));
    return texts.map((t) => unitVector(createHash('sha256').update(t).digest().readUInt32LE(0)));
  },
};

const FLEET_KEY = randomBytes(32).toString('base64');

let fake: QdrantFake;
beforeAll(async () => {
  fake = await startQdrantFake();
});
afterAll(async () => fake?.close());

async function qdrantService(collection: string, metadataUrl?: string): Promise<MemoryService> {
  const env: Record<string, string> = {
    PLAT_MEMORY_STORE: 'qdrant',
    QDRANT_URL: fake.url,
    QDRANT_COLLECTION: collection,
  };
  // A fleet shares one secret key (the wiring refuses PLAT_METADATA_URL without it).
  if (metadataUrl) Object.assign(env, { PLAT_METADATA_URL: metadataUrl, PLAT_SECRET_KEY: FLEET_KEY });
  return createMemoryService(newTestDataDir(), loadConfig(env), { embedder: textEmbedder });
}

/** The texts of `user`'s points in the fake's collection. */
const textsOf = (collection: string, user: string): string[] =>
  [...(fake.collections.get(collection)?.points.values() ?? [])]
    .map((p) => p.payload as { user_id?: string; memory?: string })
    .filter((p) => p.user_id === user)
    .map((p) => p.memory ?? '');

describe('one fact once on Qdrant', () => {
  it('two instances adding the same facts for one user at the same moment store each once', async () => {
    const url = await freshPostgresDatabase('memory-qdrant-once');
    const a = await qdrantService('fleet_once', `${url}?application_name=a`);
    const b = await qdrantService('fleet_once', `${url}?application_name=b`);
    try {
      for (let round = 0; round < 12; round++) {
        const text = `Badge ${round} opens the loading dock after six.`;
        const adds = await Promise.all(
          [a, b, a, b].map((s) => s.add({ user_id: 'ola', text, infer: false })),
        );
        const ids = new Set(adds.map((r) => r.results[0].id));
        expect(ids.size).toBe(1);
        expect(adds.filter((r) => r.results[0].event === 'ADD')).toHaveLength(1);
      }
      const texts = textsOf('fleet_once', 'ola');
      expect(texts).toHaveLength(12);
      expect(new Set(texts).size).toBe(12);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('one store without PostgreSQL serialises its own concurrent adds of one user', async () => {
    // The store itself, as a caller other than the service (which queues adds per user too) uses it.
    const store = await openQdrantMemoryStore({ url: fake.url, collection: 'single_once' });
    const text = 'The spare key is under the blue pot.';
    // The same fact for each user: one hash, a new id per add.
    const record = (user: string): MemoryRecord => ({
      ...otherModelMemory(0, user, text, '2023-07-01T09:00:00.000Z'),
      id: randomUUID(),
      embedder: textEmbedder.id,
    });
    const vector = unitVector(7);
    const stored = await Promise.all(
      Array.from({ length: 6 }, () => store.insertIfNew({ user_id: 'pia' }, record('pia'), vector)),
    );
    expect(new Set(stored.map((r) => r.id)).size).toBe(1);
    // Another user's add does not wait behind pia's, and is stored apart.
    await store.insertIfNew({ user_id: 'rui' }, record('rui'), vector);
    expect(textsOf('single_once', 'pia')).toEqual([text]);
    expect(textsOf('single_once', 'rui')).toEqual([text]);
    await store.close();
  });
});
