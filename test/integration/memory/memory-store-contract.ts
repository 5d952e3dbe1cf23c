/**
 * The behaviours every `MemoryStore` must have, as one shared jest suite: each store's test file
 * calls `memoryStoreContract(name, open)`. Vectors are deterministic synthetic unit vectors (seeded,
 * 384-d), so no embedding model is needed and similarities are known exactly. Tolerances allow for
 * stores that quantize vectors (the embedded int16 index): similarities within 0.005.
 */
import { createHash, randomUUID } from 'node:crypto';
import { queryTerms } from '../../../domain/memory/search/text-terms';
import type { MemoryFilter, MemoryStore, VectorHit } from '../../../domain/memory/store/memory-store';
import type { MemoryRecord } from '../../../shared/memory-model';
import { seededRandom } from '../../../scripts/demo-data/random';

const DIMS = 384;
/** toBeCloseTo precision: |difference| < 0.005. */
const CLOSE = 2;

function normalize(v: Float64Array): Float32Array {
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return Float32Array.from(v, (x) => x / norm);
}

/** A random direction in 384-d (Gaussian components), the same for the same seed. */
export function unitVector(seed: number): Float32Array {
  const rand = seededRandom(seed);
  const v = new Float64Array(DIMS);
  for (let i = 0; i < DIMS; i++) {
    // Box-Muller: uniform pairs to a normal sample.
    v[i] = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  }
  return normalize(v);
}

/** Cosine similarity, in double precision. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

/** A unit vector whose cosine with the unit vector `base` is `similarity` (up to float32 rounding). */
export function vectorAt(base: Float32Array, similarity: number, seed: number): Float32Array {
  const other = unitVector(seed);
  const along = cosine(base, other);
  const orthogonal = normalize(Float64Array.from(other, (x, i) => x - along * base[i]));
  const side = Math.sqrt(1 - similarity * similarity);
  return normalize(Float64Array.from(base, (x, i) => similarity * x + side * orthogonal[i]));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let clock = Date.parse('2025-03-01T08:00:00.000Z');

/**
 * A test memory of alice's ('a memory' unless `fields` say otherwise), created, updated and valid from
 * `at` (now by default) unless `fields` set `created_at`; its hash is random.
 */
export function memoryRecord(
  fields: Partial<MemoryRecord> = {},
  at = new Date().toISOString(),
): MemoryRecord {
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
    valid_from: fields.created_at ?? at,
    valid_to: null,
    version_of: null,
    ...fields,
  };
}

/** A record with sensible defaults and its text's hash; each call is one second newer than the previous. */
function memory(fields: Partial<MemoryRecord> = {}): MemoryRecord {
  const text = fields.memory ?? `memory ${randomUUID()}`;
  return memoryRecord(
    { memory: text, hash: sha256(text), ...fields },
    new Date((clock += 1000)).toISOString(),
  );
}

const ids = (records: { id: string }[]) => records.map((r) => r.id).sort();
const hitIds = (hits: VectorHit[]) => hits.map((h) => h.record.id);

/** Runs the shared behaviours against a fresh store from `open` per test. */
export function memoryStoreContract(
  name: string,
  open: () => Promise<MemoryStore>,
  /** When set, the contract is reported as skipped with this reason instead of run. */
  skipReason?: string,
): void {
  (skipReason ? describe.skip : describe)(
    `memory store contract: ${name}${skipReason ? ` (skipped: ${skipReason})` : ''}`,
    () => {
      let store: MemoryStore;

      beforeEach(async () => {
        store = await open();
      });

      afterEach(async () => {
        await store.close();
      });

      /** Inserts records with their vectors, a few at a time. */
      async function insertAll(items: [MemoryRecord, Float32Array][]): Promise<void> {
        for (let i = 0; i < items.length; i += 25) {
          await Promise.all(items.slice(i, i + 25).map(([record, vector]) => store.insert(record, vector)));
        }
      }

      it('answers the current memories by default, and those that held then with valid_at', async () => {
        // Berlin held until March; the memory says Lisbon since (docs/memory-validity.md).
        const march = '2025-03-01T00:00:00.000Z';
        const now = memory({ memory: 'I moved to Lisbon', created_at: '2025-01-01T00:00:00.000Z' });
        now.valid_from = march;
        const then = memory({
          memory: 'I live in Berlin',
          created_at: '2025-01-01T00:00:00.000Z',
          valid_to: march,
          version_of: now.id,
        });
        const other = memory({ memory: 'my cat is called Tom', created_at: '2025-02-01T00:00:00.000Z' });
        await insertAll([
          [now, unitVector(1)],
          [then, unitVector(1)],
          [other, unitVector(2)],
        ]);
        const [feb, april] = ['2025-02-15T00:00:00.000Z', '2025-04-01T00:00:00.000Z'];

        expect(ids(await store.list({ user_id: 'alice' }))).toEqual(ids([now, other]));
        expect(hitIds(await store.search(unitVector(1), { user_id: 'alice' }, 5))).not.toContain(then.id);
        const [lexical] = await store.searchText(['berlin'], [{ user_id: 'alice' }], 5);
        expect(lexical.map((h) => h.record.id)).toEqual([]);
        expect(await store.findByHash({ user_id: 'alice' }, then.hash)).toBeUndefined();

        expect(ids(await store.list({ user_id: 'alice', valid_at: feb }))).toEqual(ids([then, other]));
        expect(hitIds(await store.search(unitVector(1), { user_id: 'alice', valid_at: feb }, 5))[0]).toBe(
          then.id,
        );
        const [asOfFeb] = await store.searchText(['berlin'], [{ user_id: 'alice', valid_at: feb }], 5);
        expect(asOfFeb.map((h) => h.record.id)).toEqual([then.id]);
        expect(ids(await store.list({ user_id: 'alice', valid_at: april }))).toEqual(ids([now, other]));
        // Before anything was said, nothing held.
        expect(await store.list({ user_id: 'alice', valid_at: '2024-12-31T00:00:00.000Z' })).toEqual([]);

        expect(await store.versions({ user_id: 'alice', memory_id: now.id })).toEqual([then]);
        expect(await store.versions({ user_id: 'alice' })).toEqual([then]);
        expect(await store.versions({ user_id: 'bob' })).toEqual([]);
        expect(await store.get(then.id)).toEqual(then);
      });

      it('reads an inserted memory back by id, in lists and in searches', async () => {
        const record = memory({ memory: 'the build uses pnpm', metadata: { category: 'environment' } });
        const vector = unitVector(1);
        await store.insert(record, vector);

        expect(await store.get(record.id)).toEqual(record);
        expect(await store.list({ user_id: 'alice' })).toEqual([record]);
        const hits = await store.search(vector, { user_id: 'alice' }, 5);
        expect(hitIds(hits)).toEqual([record.id]);
        expect(hits[0].record).toEqual(record);
        expect(hits[0].similarity).toBeCloseTo(1, CLOSE);
        expect(hits[0].similarity).toBeLessThanOrEqual(1);
      });

      it('answers undefined for ids it does not hold', async () => {
        await store.insert(memory(), unitVector(2));
        const change = {
          memory: 'x',
          hash: sha256('x'),
          updated_at: new Date().toISOString(),
          embedder: 'e',
        };
        for (const id of [randomUUID(), 'not-a-uuid']) {
          expect(await store.get(id)).toBeUndefined();
          expect(await store.update(id, change, unitVector(3))).toBeUndefined();
          expect(await store.delete(id)).toBeUndefined();
        }
        expect(await store.list({ user_id: 'alice' })).toHaveLength(1);
      });

      it('filters by user, agent, exact run, long-term and runs from a day on', async () => {
        const query = unitVector(10);
        const a = memory({ agent_id: 'coder' });
        const b = memory({ agent_id: 'writer' });
        const c = memory({ agent_id: 'coder', run_id: '2025-03-01' });
        const d = memory({ agent_id: 'coder', run_id: '2025-03-05' });
        const e = memory({ run_id: '2025-03-10' });
        const f = memory({ user_id: 'bob', agent_id: 'coder' });
        await insertAll([a, b, c, d, e, f].map((r, i) => [r, vectorAt(query, 0.9 - i * 0.1, 100 + i)]));

        const cases: [MemoryFilter, MemoryRecord[]][] = [
          [{ user_id: 'alice' }, [a, b, c, d, e]],
          [{ user_id: 'alice', agent_id: 'coder' }, [a, c, d]],
          [{ user_id: 'alice', run_id: '2025-03-05' }, [d]],
          [{ user_id: 'alice', long_term: true }, [a, b]],
          [{ user_id: 'alice', run_id_from: '2025-03-05' }, [d, e]],
          [{ user_id: 'alice', agent_id: 'coder', long_term: true }, [a]],
          [{ user_id: 'alice', agent_id: 'coder', run_id_from: '2025-03-02' }, [d]],
          [{ user_id: 'alice', run_id_from: '2025-03-11' }, []],
          [{ user_id: 'alice', agent_id: 'nobody' }, []],
          [{ user_id: 'bob' }, [f]],
        ];
        for (const [filter, expected] of cases) {
          const label = JSON.stringify(filter);
          expect([label, ids(await store.list(filter))]).toEqual([label, ids(expected)]);
          expect([label, ids((await store.search(query, filter, 10)).map((h) => h.record))]).toEqual([
            label,
            ids(expected),
          ]);
        }
      });

      it('lists newest first and honours a limit', async () => {
        const records = [memory(), memory(), memory(), memory()];
        // Inserted out of order: the order must come from created_at, not from insertion.
        await insertAll([2, 0, 3, 1].map((i) => [records[i], unitVector(20 + i)]));
        const newestFirst = [...records].reverse();

        expect(await store.list({ user_id: 'alice' })).toEqual(newestFirst);
        expect(await store.list({ user_id: 'alice' }, 2)).toEqual(newestFirst.slice(0, 2));
        expect(await store.list({ user_id: 'alice' }, 10)).toEqual(newestFirst);
      });

      it('ranks hits by similarity, passing cosine through and clamping it into [0, 1]', async () => {
        const query = unitVector(30);
        const similarities = [1, 0.95, 0.7, 0.4, 0.1, -0.5];
        const records = similarities.map(() => memory());
        // Inserted in a scrambled order, so ranking cannot come from insertion order.
        await insertAll(
          [3, 0, 5, 1, 4, 2].map((i) => [records[i], vectorAt(query, similarities[i], 300 + i)]),
        );

        const hits = await store.search(query, { user_id: 'alice' }, 10);
        expect(hitIds(hits)).toEqual(records.map((r) => r.id));
        hits.forEach((hit, i) => {
          expect(hit.similarity).toBeGreaterThanOrEqual(0);
          expect(hit.similarity).toBeLessThanOrEqual(1);
          expect(hit.similarity).toBeCloseTo(Math.max(0, similarities[i]), CLOSE);
        });
        // Opposite meaning is clamped to exactly 0.
        expect(hits[5].similarity).toBe(0);

        expect(hitIds(await store.search(query, { user_id: 'alice' }, 2))).toEqual([
          records[0].id,
          records[1].id,
        ]);
      });

      it('updates text, hash, vector and timestamps, and search follows the new meaning', async () => {
        const [topic1, topic2, topic3] = [unitVector(40), unitVector(41), unitVector(42)];
        const original = memory({
          memory: 'deploys go through jenkins',
          metadata: { category: 'procedural' },
          category: 'procedural',
        });
        const other = memory({ memory: 'the staging database is postgres' });
        await insertAll([
          [original, vectorAt(topic1, 0.95, 400)],
          [other, vectorAt(topic2, 0.95, 401)],
        ]);

        const change = {
          memory: 'deploys go through github actions',
          hash: sha256('deploys go through github actions'),
          updated_at: '2025-04-01T09:00:00.000Z',
          embedder: 'test-embedder-2',
        };
        // Read by a search first: a store that keeps rows it read must not answer this one stale.
        expect((await store.search(topic1, { user_id: 'alice' }, 1))[0].record).toEqual(original);
        const updated = await store.update(original.id, change, vectorAt(topic3, 0.95, 402));
        const expected = { ...original, ...change };
        expect(updated).toEqual(expected);
        expect(await store.get(original.id)).toEqual(expected);
        expect(await store.list({ user_id: 'alice' }, 10)).toContainEqual(expected);

        const byNewMeaning = await store.search(topic3, { user_id: 'alice' }, 1);
        expect(byNewMeaning.map((h) => h.record)).toEqual([expected]);
        expect(byNewMeaning[0].similarity).toBeCloseTo(0.95, CLOSE);
        // The old vector is gone: the old meaning no longer finds it.
        const byOldMeaning = await store.search(topic1, { user_id: 'alice' }, 2);
        expect(byOldMeaning.find((h) => h.record.id === original.id)!.similarity).toBeLessThan(0.3);

        expect((await store.findByHash({ user_id: 'alice' }, change.hash))?.id).toBe(original.id);
        expect(await store.findByHash({ user_id: 'alice' }, original.hash)).toBeUndefined();
        expect(await store.get(other.id)).toEqual(other);
      });

      it('keeps metadata on update unless new metadata is given, which then replaces it', async () => {
        const record = memory({ metadata: { category: 'project', source: 'sync' }, category: 'project' });
        const vector = unitVector(50);
        await store.insert(record, vector);
        const change = {
          memory: 'v2',
          hash: sha256('v2'),
          updated_at: '2025-04-02T00:00:00.000Z',
          embedder: 'e',
        };

        expect((await store.update(record.id, change, vector))?.metadata).toEqual(record.metadata);
        const metadata = { category: 'decision', reason: { why: 'cost', weight: 2 } };
        const replaced = await store.update(record.id, { ...change, metadata }, vector);
        expect(replaced).toEqual({ ...record, ...change, metadata, category: 'decision' });
        expect(await store.get(record.id)).toEqual(replaced);
      });

      it('deletes: answers the removed memory, which then disappears from get, list and search', async () => {
        const doomed = memory({ agent_id: 'coder', metadata: { category: 'task' }, category: 'task' });
        const kept = memory();
        const vector = unitVector(60);
        await insertAll([
          [doomed, vector],
          [kept, vectorAt(vector, 0.5, 600)],
        ]);

        expect(hitIds(await store.search(vector, { user_id: 'alice' }, 10))).toContain(doomed.id);
        expect(await store.delete(doomed.id)).toEqual(doomed);
        expect(await store.get(doomed.id)).toBeUndefined();
        expect(await store.list({ user_id: 'alice' })).toEqual([kept]);
        expect(hitIds(await store.search(vector, { user_id: 'alice' }, 10))).toEqual([kept.id]);
        expect(await store.findByHash({ user_id: 'alice' }, doomed.hash)).toBeUndefined();
        expect(await store.delete(doomed.id)).toBeUndefined();
      });

      it('inserts a fact once per scope: insertIfNew answers the memory already stored', async () => {
        const text = 'deploys happen on fridays';
        const longTerm = { user_id: 'alice', long_term: true };
        const first = memory({ memory: text });
        expect(await store.insertIfNew(longTerm, first, unitVector(90))).toEqual(first);

        const again = memory({ memory: text });
        expect((await store.insertIfNew(longTerm, again, unitVector(90))).id).toBe(first.id);
        expect(await store.get(again.id)).toBeUndefined();
        expect(hitIds(await store.search(unitVector(90), { user_id: 'alice' }, 5))).toEqual([first.id]);

        const today = memory({ memory: text, run_id: '2025-03-05' });
        expect(
          await store.insertIfNew({ user_id: 'alice', run_id: '2025-03-05' }, today, unitVector(91)),
        ).toEqual(today);
        expect(ids(await store.list({ user_id: 'alice' }))).toEqual(ids([first, today]));
      });

      it('finds exact duplicates by hash within the filter only', async () => {
        const text = 'the api listens on port 8230';
        const x = memory({ memory: text, agent_id: 'coder' });
        const y = memory({ memory: text, agent_id: 'writer', run_id: '2025-03-05' });
        const z = memory({ memory: text, user_id: 'bob' });
        await insertAll([x, y, z].map((r, i) => [r, unitVector(70 + i)]));
        const hash = sha256(text);

        const any = await store.findByHash({ user_id: 'alice' }, hash);
        expect([x.id, y.id]).toContain(any?.id);
        expect(await store.findByHash({ user_id: 'alice', agent_id: 'coder' }, hash)).toEqual(x);
        expect(await store.findByHash({ user_id: 'alice', long_term: true }, hash)).toEqual(x);
        expect(await store.findByHash({ user_id: 'alice', run_id: '2025-03-05' }, hash)).toEqual(y);
        expect(await store.findByHash({ user_id: 'alice', run_id_from: '2025-03-01' }, hash)).toEqual(y);
        expect(await store.findByHash({ user_id: 'bob' }, hash)).toEqual(z);
        expect(await store.findByHash({ user_id: 'carol' }, hash)).toBeUndefined();
        expect(await store.findByHash({ user_id: 'alice' }, sha256('something else'))).toBeUndefined();
      });

      it('keeps users apart, even with identical text and vectors', async () => {
        const vector = unitVector(80);
        const alice = memory({ memory: 'prefers dark mode' });
        const bob = memory({ memory: 'prefers dark mode', user_id: 'bob' });
        await insertAll([
          [alice, vector],
          [bob, vector],
        ]);

        expect(hitIds(await store.search(vector, { user_id: 'alice' }, 10))).toEqual([alice.id]);
        expect(hitIds(await store.search(vector, { user_id: 'bob' }, 10))).toEqual([bob.id]);
        expect(await store.list({ user_id: 'bob' })).toEqual([bob]);
        expect(await store.search(vector, { user_id: 'carol' }, 10)).toEqual([]);
        expect(await store.list({ user_id: 'carol' })).toEqual([]);
      });

      it('round-trips metadata (nested objects, arrays, nulls, unicode) and every field', async () => {
        const rich = memory({
          memory: 'Produktion läuft auf 🚀 kubernetes — 本番',
          agent_id: null,
          run_id: null,
          category: 'environment',
          metadata: {
            category: 'environment',
            nested: { path: '/srv/app', ports: [80, 443], flags: { tls: true, legacy: false }, none: null },
            tags: ['ops', '日本語'],
            ratio: 0.25,
            empty: {},
            rows: [{ a: 1 }, { b: [2, 3] }],
          },
        });
        const scoped = memory({
          agent_id: 'coder',
          run_id: '2025-03-05',
          metadata: {},
          embedder: 'other/model@q8',
        });
        const vector = unitVector(90);
        await insertAll([
          [rich, vector],
          [scoped, vectorAt(vector, 0.3, 900)],
        ]);

        expect(await store.get(rich.id)).toEqual(rich);
        expect(await store.get(scoped.id)).toEqual(scoped);
        expect(await store.list({ user_id: 'alice' })).toEqual([scoped, rich]);
        expect((await store.search(vector, { user_id: 'alice' }, 1))[0].record).toEqual(rich);
        expect(await store.findByHash({ user_id: 'alice' }, scoped.hash)).toEqual(scoped);
        // After a model change: what another model embedded, counted and listed for re-embedding.
        expect(await store.countStale(rich.embedder)).toBe(1);
        expect(await store.staleRecords(rich.embedder, 10)).toEqual([scoped]);
        expect(await store.countStale(scoped.embedder)).toBe(1);
      });

      it('finds memories by their terms: best match first, matched terms, relevance in [0, 1]', async () => {
        const code = memory({ memory: 'Ordered replacement part XR-7734 for the drone' });
        const drone = memory({ memory: 'The drone battery was charged overnight' });
        const coffee = memory({ memory: 'Coffee with Maria on Friday' });
        const other = memory({ memory: 'Ordered replacement part XR-7734 for the drone', user_id: 'bob' });
        await insertAll([code, drone, coffee, other].map((r, i) => [r, unitVector(100 + i)]));

        const [hits] = await store.searchText(
          queryTerms('which drone part is xr7734?'),
          [{ user_id: 'alice' }],
          5,
        );
        expect(hits.map((h) => h.record.id)).toEqual([code.id, drone.id]);
        expect(hits[0].record).toEqual(code);
        expect(hits[0].matched.sort()).toEqual(['dron', 'part', 'xr7734']);
        expect(hits[1].matched).toEqual(['dron']);
        expect(hits[0].score).toBeGreaterThan(hits[1].score);
        for (const h of hits) {
          expect(h.relevance).toBeGreaterThan(0);
          expect(h.relevance).toBeLessThanOrEqual(1);
        }
        expect(hits[0].relevance).toBeGreaterThan(hits[1].relevance);
        // Nothing shares a term: no hits; no terms at all: no hits.
        expect(
          await store.searchText(queryTerms('quantum chromodynamics'), [{ user_id: 'alice' }], 5),
        ).toEqual([[]]);
        expect(await store.searchText([], [{ user_id: 'alice' }], 5)).toEqual([[]]);
      });

      it('answers each lexical filter in one call, and follows updates and deletes', async () => {
        const longTerm = memory({ memory: 'the staging database lives on host db7', agent_id: 'ops' });
        const shortTerm = memory({ memory: 'restarted the staging database today', run_id: '2025-03-05' });
        await insertAll([
          [longTerm, unitVector(110)],
          [shortTerm, unitVector(111)],
        ]);
        const terms = queryTerms('staging database');
        const [lt, st, ops] = await store.searchText(
          terms,
          [
            { user_id: 'alice', long_term: true },
            { user_id: 'alice', run_id_from: '2025-03-01' },
            { user_id: 'alice', agent_id: 'ops' },
          ],
          5,
        );
        expect(lt.map((h) => h.record.id)).toEqual([longTerm.id]);
        expect(st.map((h) => h.record.id)).toEqual([shortTerm.id]);
        expect(ops.map((h) => h.record.id)).toEqual([longTerm.id]);

        const text = 'the staging cache lives on host db9';
        await store.update(
          longTerm.id,
          { memory: text, hash: sha256(text), updated_at: new Date().toISOString(), embedder: 'e' },
          unitVector(112),
        );
        const [afterUpdate] = await store.searchText(queryTerms('database db9'), [{ user_id: 'alice' }], 5);
        // Equal idf (each term in one memory): order is by length, so compare as a set.
        expect(new Map(afterUpdate.map((h) => [h.record.id, h.matched]))).toEqual(
          new Map([
            [longTerm.id, ['db9']],
            [shortTerm.id, ['databas']],
          ]),
        );
        await store.delete(shortTerm.id);
        const [afterDelete] = await store.searchText(queryTerms('database'), [{ user_id: 'alice' }], 5);
        expect(afterDelete).toEqual([]);
      });

      it('filters searches and lists by a created_at range (from inclusive, to exclusive)', async () => {
        const at = (iso: string, text: string) => memory({ memory: text, created_at: iso, updated_at: iso });
        const april = at('2023-04-30T23:59:59.000Z', 'hiking trip in april');
        const mayFirst = at('2023-05-01T00:00:00.000Z', 'hiking trip on may day');
        const mayLast = at('2023-05-31T12:00:00.000Z', 'hiking trip late in may');
        const june = at('2023-06-01T00:00:00.000Z', 'hiking trip in june');
        await insertAll([april, mayFirst, mayLast, june].map((r, i) => [r, unitVector(120 + i)]));
        const may: MemoryFilter = {
          user_id: 'alice',
          created_from: '2023-05-01T00:00:00.000Z',
          created_to: '2023-06-01T00:00:00.000Z',
        };
        expect(ids(await store.list(may))).toEqual(ids([mayFirst, mayLast]));
        expect(ids((await store.search(unitVector(120), may, 10)).map((h) => h.record))).toEqual(
          ids([mayFirst, mayLast]),
        );
        const [text] = await store.searchText(queryTerms('hiking trip'), [may], 10);
        expect(ids(text.map((h) => h.record))).toEqual(ids([mayFirst, mayLast]));
        const since = await store.list({ user_id: 'alice', created_from: '2023-05-31T12:00:00.000Z' });
        expect(ids(since)).toEqual(ids([mayLast, june]));
      });

      it('answers the memories created just before and after, within the filter', async () => {
        if (!store.neighbours) throw new Error(`${name}: no neighbours`);
        const at = (iso: string, text: string, extra: Partial<MemoryRecord> = {}) =>
          memory({ memory: text, created_at: iso, updated_at: iso, ...extra });
        // Inserted out of order: the lookup follows created_at, not insertion.
        const c = at('2023-05-08T10:00:02.000Z', 'turn c');
        const a = at('2023-05-08T10:00:00.000Z', 'turn a');
        const b = at('2023-05-08T10:00:01.000Z', 'turn b');
        const bot = at('2023-05-08T10:00:01.500Z', 'turn of a bot', { agent_id: 'bot' });
        const d = at('2023-05-08T10:00:03.000Z', 'turn d');
        const bob = at('2023-05-08T10:00:01.200Z', 'turn of bob', { user_id: 'bob' });
        await insertAll([c, a, b, bot, d, bob].map((r, i) => [r, unitVector(600 + i)]));
        const alice = { user_id: 'alice' };
        const found = await store.neighbours([b.id, a.id, 'no-such-id'], alice, 1);
        expect(found.get(b.id)?.map((r) => r.id)).toEqual([a.id, bot.id]);
        expect(found.get(a.id)?.map((r) => r.id)).toEqual([b.id]);
        expect(found.has('no-such-id')).toBe(false);
        const mine = await store.neighbours(
          [b.id],
          { user_id: 'alice', agent_id: undefined, long_term: true },
          2,
        );
        expect(mine.get(b.id)?.map((r) => r.id)).toEqual([a.id, bot.id, c.id]);
        const noBot = await store.neighbours([c.id], { ...alice, agent_id: 'nobody' }, 1);
        expect(noBot.get(c.id)).toEqual([]);
        await store.delete(d.id);
        const afterDelete = await store.neighbours([c.id], alice, 1);
        expect(afterDelete.get(c.id)?.map((r) => r.id)).toEqual([bot.id]);
        expect(afterDelete.get(c.id)?.[0]).toEqual(bot);
        expect(await store.neighbours([], alice, 1)).toEqual(new Map());
        expect(await store.neighbours([c.id], { user_id: 'nobody' }, 1)).toEqual(new Map());
      });

      it('still answers the exact nearest neighbours after 1,000 inserts', async () => {
        const vectors = new Map<string, Float32Array>();
        const records = Array.from({ length: 1000 }, (_, i) => {
          const record = memory({ agent_id: i % 2 === 0 ? 'coder' : 'writer' });
          vectors.set(record.id, unitVector(10_000 + i));
          return record;
        });
        // Bob's memories sit right next to the queries: a filter leak would show at the top.
        const bobs = Array.from({ length: 50 }, (_, i) => memory({ user_id: 'bob', memory: `bob ${i}` }));
        const bobVector = (i: number) => vectorAt(vectors.get(records[i * 7].id)!, 0.99, 20_000 + i);
        await insertAll([
          ...records.map((r): [MemoryRecord, Float32Array] => [r, vectors.get(r.id)!]),
          ...bobs.map((r, i): [MemoryRecord, Float32Array] => [r, bobVector(i)]),
        ]);

        const queries = [
          ...[3, 250, 777].map((i, j) => vectorAt(vectors.get(records[i].id)!, 0.8, 30_000 + j)),
          unitVector(40_000),
          unitVector(40_001),
        ];
        const filters: MemoryFilter[] = [{ user_id: 'alice' }, { user_id: 'alice', agent_id: 'coder' }];
        for (const filter of filters) {
          const candidates = records.filter(
            (r) => filter.agent_id === undefined || r.agent_id === filter.agent_id,
          );
          for (const [q, query] of queries.entries()) {
            const truth = candidates
              .map((r) => ({ id: r.id, similarity: cosine(query, vectors.get(r.id)!) }))
              .sort((a, b) => b.similarity - a.similarity)
              .slice(0, 10);
            const trueSimilarity = new Map(
              candidates.map((r) => [r.id, cosine(query, vectors.get(r.id)!)] as const),
            );
            const hits = await store.search(query, filter, 10);
            const label = `${JSON.stringify(filter)} query ${q}`;

            expect([label, hits.length]).toEqual([label, 10]);
            // Near-duplicate queries have one clear answer, which must come first.
            if (q < 3) expect([label, hits[0].record.id]).toEqual([label, truth[0].id]);
            hits.forEach((hit, rank) => {
              const actual = trueSimilarity.get(hit.record.id);
              // Every hit is a real top-10 neighbour (ties within quantization error allowed)...
              expect([label, actual !== undefined]).toEqual([label, true]);
              expect(actual!).toBeGreaterThanOrEqual(truth[9].similarity - 0.005);
              // ...at its rank, with its true similarity.
              expect(hit.similarity).toBeCloseTo(Math.max(0, truth[rank].similarity), CLOSE);
              expect(hit.similarity).toBeCloseTo(Math.max(0, actual!), CLOSE);
            });
          }
        }
      });
    },
  );
}
