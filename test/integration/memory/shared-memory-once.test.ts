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
import { IdempotencyKeyBusyError } from '../../../domain/memory/memory-history';
import { memoryMigrations, type MemoryTables } from '../../../domain/memory/store/memory-schema';
import { migrateSchema, openMetadataDb } from '../../../domain/metadata-store/metadata-db';
import { AuditLog } from '../../../domain/memory/audit/audit-log';
import { auditTable } from '../../../domain/memory/audit/audit-table';
import { MemoryHistory } from '../../../domain/memory/memory-history';
import { IdempotencyKeys, type ClaimTiming } from '../../../domain/memory/idempotency-keys';
import { openSharedMemoryDb } from '../../../domain/memory/fleet/shared-memory-db';
import { SharedMemoryStore } from '../../../domain/memory/fleet/shared-memory-store';
import { sharedReembedLease } from '../../../domain/memory/fleet/shared-reembed-lease';
import { otherModelMemory } from '../../fixtures/other-model-memory';
import { sql, type Kysely } from 'kysely';
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
  db: Kysely<MemoryTables>;
  close(): Promise<void>;
}

/** A memory service as another host would run it: its own pool, listener and indexes. */
async function instance(
  url: string,
  name: string,
  opts: { embedder?: Embedder; claims?: Partial<ClaimTiming> } = {},
): Promise<Instance> {
  const { db, metadata } = await openSharedMemoryDb(`${url}?application_name=${name}`);
  const store = await SharedMemoryStore.open(db, DIMS, metadata.notifications);
  const service = new MemoryService({
    store,
    history: new MemoryHistory(db),
    idempotency: new IdempotencyKeys(db, 'postgres', opts.claims),
    embedder: opts.embedder ?? textEmbedder(),
    extractor: offlineFactExtractor,
    audit: new AuditLog(auditTable(db)),
    reembedLease: sharedReembedLease(db),
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

const rowsOf = async (db: Kysely<MemoryTables>, user: string) =>
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
      // Both instances' audit in one table, each row the line a file would hold.
      const audit = await a.db.selectFrom('memory_audit').select(['timestamp', 'entry_json']).execute();
      const adds = audit.map(
        (r) => JSON.parse(r.entry_json) as { timestamp: string; type: string; user_id: string },
      );
      expect(adds).toHaveLength(60);
      for (const [i, entry] of adds.entries())
        expect(entry).toMatchObject({ timestamp: audit[i].timestamp, type: 'token_usage', user_id: 'ola' });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a retry with the same key on B while A’s slow add runs waits for it and answers A’s response', async () => {
    const url = await freshPostgresDatabase('memory-once-key');
    let slow = 0;
    let embedding = () => {};
    // A's add embeds after it claimed its key: the embedder saying it started is the sign the key is held.
    const a = await instance(url, 'a', {
      embedder: textEmbedder(() => (embedding(), slow)),
    });
    const b = await instance(url, 'b');
    try {
      for (let round = 0; round < 5; round++) {
        const request = {
          user_id: 'pia',
          text: `Invoices for batch ${round} are sent on the first Monday.`,
          infer: false,
          idempotency_key: `retry-${round}`,
        };
        slow = 400;
        const aEmbeds = new Promise<void>((resolve) => (embedding = resolve));
        const first = a.service.add(request);
        // The retry lands on B while A's add is still embedding.
        await aEmbeds;
        const retried = await b.service.add(request);
        const original = await first;
        expect(original.results[0].event).toBe('ADD');
        expect(retried).toEqual({ ...original, idempotent_replay: true });
        slow = 0;
      }
      expect(await rowsOf(a.db, 'pia')).toHaveLength(5);
      const history = await a.db.selectFrom('memory_history').select('event').execute();
      expect(history.map((h) => h.event)).toEqual(['ADD', 'ADD', 'ADD', 'ADD', 'ADD']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a retry stops waiting for a hung add after maxWaitMs and says the add is still running', async () => {
    const url = await freshPostgresDatabase('memory-once-busy');
    const a = await instance(url, 'a');
    try {
      // A claim that outlives the retry's wait by far: on a loaded machine a renewal can come late, and
      // a claim that lapsed would let the retry take the key over (another test covers that).
      const owner = new IdempotencyKeys(a.db, 'postgres', { claimTtlMs: 3000 });
      let finish = (_: string) => {};
      let claimed = () => {};
      const ownerClaimed = new Promise<void>((resolve) => (claimed = resolve));
      // The owner is alive and renews its claim, but its add does not end. The retry starts once the
      // owner holds the key (its add runs only after the claim), not after a guess at how long that takes.
      const hung = owner.once('u\u0000k-hung', () => {
        claimed();
        return new Promise<string>((resolve) => (finish = resolve));
      });
      await ownerClaimed;
      const retry = new IdempotencyKeys(a.db, 'postgres', { claimTtlMs: 3000, pollMs: 20, maxWaitMs: 400 });
      const started = Date.now();
      const err = await retry.once('u\u0000k-hung', async () => 'ran twice').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(IdempotencyKeyBusyError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      // The add ends: the next retry answers its response.
      finish('first');
      expect(await hung).toEqual({ result: 'first', replay: false });
      expect(await retry.once('u\u0000k-hung', async () => 'ran twice')).toEqual({
        result: 'first',
        replay: true,
      });
    } finally {
      await a.close();
    }
  });

  it('after a model change one instance re-embeds the shared store while the other waits its turn', async () => {
    const url = await freshPostgresDatabase('memory-once-reembed');
    let embedded = 0;
    const counting = (): Embedder => {
      const inner = textEmbedder(() => 30);
      return {
        ...inner,
        embed: async (texts, kind) => ((embedded += texts.length), inner.embed(texts, kind)),
      };
    };
    const a = await instance(url, 'a', { embedder: counting() });
    const b = await instance(url, 'b', { embedder: counting() });
    try {
      const seed = await SharedMemoryStore.open(a.db, DIMS);
      for (let i = 0; i < 40; i++)
        await seed.insert(
          otherModelMemory(i, 'ivy', `Crate ${i} ships from dock ${i % 4}.`, '2024-01-01T00:00:00.000Z'),
          unitVector(i),
        );
      await seed.close();
      await a.service.warmUp();
      await b.service.warmUp();
      embedded = 0;
      const [fromA, fromB] = await Promise.all([
        a.service.reembedStale({ page: 8 }),
        b.service.reembedStale({ page: 8 }),
      ]);
      // One instance did all of it, the other none, and says another instance holds the work.
      expect([fromA, fromB].sort((x, y) => x - y)).toEqual([0, 40]);
      expect(embedded).toBe(40);
      const waiter = fromA === 0 ? a : b;
      expect(waiter.service.reembedProgress()).toMatchObject({ running: false, elsewhere: true });
      // Its next turn finds nothing left, and it stops saying so.
      expect(await waiter.service.reembedStale()).toBe(0);
      expect(waiter.service.reembedProgress()).toMatchObject({ pending: 0, elsewhere: false });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a claim whose owner died expires: the next retry runs the add', async () => {
    const url = await freshPostgresDatabase('memory-once-dead');
    const claims = { claimTtlMs: 300, pollMs: 20 };
    const a = await instance(url, 'a', { claims });
    const b = await instance(url, 'b', { claims });
    try {
      const request = { user_id: 'rui', text: 'The VPN certificate expires in June.', infer: false };
      // A claims the key and dies mid-add (its add never ends, its renewals stop with it).
      const dead = new IdempotencyKeys(a.db, 'postgres', { claimTtlMs: 300 });
      let die = (_: Error) => {};
      let claimed = () => {};
      const deadClaimed = new Promise<void>((resolve) => (claimed = resolve));
      const hung = dead.once('rui\u0000k-dead', () => {
        claimed();
        return new Promise<never>((_, reject) => (die = reject));
      });
      await deadClaimed;
      await a.close();

      const started = Date.now();
      const retried = await b.service.add({ ...request, idempotency_key: 'k-dead' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      expect(retried.results[0].event).toBe('ADD');
      expect(retried.idempotent_replay).toBeUndefined();
      const again = await b.service.add({ ...request, idempotency_key: 'k-dead' });
      expect(again).toEqual({ ...retried, idempotent_replay: true });
      die(new Error('the process is gone'));
      await expect(hung).rejects.toThrow('the process is gone');
    } finally {
      await b.close();
    }
  });

  it('a failed add releases its key at once', async () => {
    const url = await freshPostgresDatabase('memory-once-failed');
    const a = await instance(url, 'a');
    try {
      const keys = new IdempotencyKeys(a.db, 'postgres');
      await expect(keys.once('k', () => Promise.reject(new Error('model down')))).rejects.toThrow(
        'model down',
      );
      const started = Date.now();
      expect(await keys.once('k', async () => 'second try')).toEqual({ result: 'second try', replay: false });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await keys.once('k', async () => 'third')).toEqual({ result: 'second try', replay: true });
    } finally {
      await a.close();
    }
  });

  it('keys stored before claims existed still answer their response', async () => {
    const url = await freshPostgresDatabase('memory-once-migrate');
    const before = await openMetadataDb(url);
    await migrateSchema(before.db, 'postgres', 'memory', {
      '0001-memories': memoryMigrations('postgres')['0001-memories'],
    });
    await sql`INSERT INTO memory_idempotency (key, result_json, created_at) VALUES (${JSON.stringify('u\u0000old')}, '"stored"', '2025-01-01T00:00:00.000Z')`.execute(
      before.db,
    );
    await before.close();
    const a = await instance(url, 'a');
    try {
      const keys = new IdempotencyKeys(a.db, 'postgres');
      expect(await keys.once('u\u0000old', async () => 'again')).toEqual({ result: 'stored', replay: true });
    } finally {
      await a.close();
    }
  });
});
