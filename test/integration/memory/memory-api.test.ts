/**
 * The memory service over HTTP with the real embedding model and the embedded store: every
 * endpoint of docs/requirements.md#memory-api, validation, deduplication, history, the shared space, time decay, combined
 * search, concurrency with whole audit lines, and a restart that loses nothing.
 */
import * as fs from 'node:fs';
import { auditDir, createMemoryService } from '../../../gateway/memory/memory-service-wiring';
import { textHash } from '../../../domain/memory/memory-text';
import { otherModelMemory } from '../../fixtures/other-model-memory';
import { openEmbeddedMemoryStore } from '../../../domain/memory/store/embedded-memory-store';
import { loadConfig } from '../../../shared/config';
import { apiCaller, type ApiCall } from '../../harness/api-caller';
import { startTestMemoryService } from '../../harness/memory-service';
import { newTestDataDir } from '../../harness/platform-gateway';
import { calibratedRelevance } from '../../../domain/memory/search/calibration';
import { CALIBRATIONS } from '../../../domain/memory/search/calibration-fit';
import { relevanceFeatures } from '../../../domain/memory/search/relevance-features';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const today = () => new Date().toISOString().slice(0, 10);

async function startMemory(dataDir: string, env: Record<string, string> = {}) {
  const memory = await startTestMemoryService({ dataDir, env });
  return { call: apiCaller(memory.url), stop: memory.stop };
}

type Item = {
  id: string;
  memory: string;
  score: number;
  original_score?: number;
  created_at: string;
  memory_type: string;
};

describe('memory service API', () => {
  const dataDir = newTestDataDir();
  let call: ApiCall;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ call, stop } = await startMemory(dataDir));
  });
  afterAll(async () => stop?.());

  const add = (body: Record<string, unknown>) => call('POST', '/memory/add', body);
  const search = async (body: Record<string, unknown>, path = '/memory/search') =>
    (await call('POST', path, body)).body.results as Item[];

  it('answers 400 naming the field for invalid input', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ user_id: 'u' }, '/memory/add', 'text'],
      [{ user_id: 'u', text: 'x', run_id: '2026-02-30' }, '/memory/add', 'run_id'],
      [{ user_id: 'u', text: 'x', colour: 'blue' }, '/memory/add', 'colour'],
      [{ user_id: 'u', query: 'q', min_score: 1.5 }, '/memory/search', 'min_score'],
      [{ user_id: 'u', query: 'q', top_k: 0 }, '/memory/search', 'top_k'],
      [{ user_id: 'u', query: 'q', top_k: 101 }, '/memory/search_combined', 'top_k'],
      [{ query: 'q' }, '/memory/search', 'user_id'],
    ];
    for (const [body, path, field] of cases) {
      const res = await call('POST', path, body);
      expect(res.status).toBe(400);
      expect((res.body.error as { details: { field: string }[] }).details.map((d) => d.field)).toContain(
        field,
      );
    }
    expect((await call('GET', '/memory/list')).status).toBe(400);
  });

  it('adds, gets, lists, updates, deletes, and keeps every change in history', async () => {
    const added = await add({
      user_id: 'ana',
      agent_id: 'ops',
      text: 'The staging database runs on port 5433.',
      infer: false,
    });
    expect(added.status).toBe(200);
    expect(added.body.token_usage).toEqual({
      llm_calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
    });
    const [{ id, event }] = added.body.results as { id: string; event: string }[];
    expect(event).toBe('ADD');
    expect((await call('GET', `/memory/${id}`)).body).toMatchObject({
      id,
      user_id: 'ana',
      agent_id: 'ops',
      run_id: null,
    });
    const list = (await call('GET', '/memory/list?user_id=ana&agent_id=ops')).body.results as {
      id: string;
    }[];
    expect(list.map((m) => m.id)).toContain(id);

    const updated = await call('PUT', '/memory/update', {
      memory_id: id,
      text: 'The staging database runs on port 6543.',
    });
    expect(updated.body).toMatchObject({ id, memory: 'The staging database runs on port 6543.' });
    const removed = await call('DELETE', `/memory/${id}`);
    expect(removed.body).toEqual({ message: 'memory deleted', id });
    expect((await call('GET', `/memory/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/memory/${id}`)).status).toBe(404);
    const history = (await call('GET', `/memory/history/${id}`)).body.results as Record<string, unknown>[];
    expect(history.map((h) => h.event)).toEqual(['ADD', 'UPDATE', 'DELETE']);
    expect(history[1]).toMatchObject({
      memory_id: id,
      old_memory: 'The staging database runs on port 5433.',
      new_memory: 'The staging database runs on port 6543.',
    });
    expect((await call('PUT', '/memory/update', { memory_id: 'nope', text: 'x' })).status).toBe(404);
    expect((await call('GET', '/memory/history/nope')).status).toBe(404);
  });

  it('adding the same fact twice leaves one memory', async () => {
    const text = 'Ana prefers tea over coffee in the morning. She runs every Tuesday.';
    const first = (await add({ user_id: 'dedupe', text })).body.results as { event: string }[];
    expect(first.map((r) => r.event)).toEqual(['ADD', 'ADD']);
    const second = (await add({ user_id: 'dedupe', text })).body.results as { event: string }[];
    expect(second.map((r) => r.event)).toEqual(['NONE', 'NONE']);
    const paraphrase = (await add({ user_id: 'dedupe', text: 'Ana prefers tea over coffee in the morning!' }))
      .body.results as { event: string }[];
    expect(paraphrase.map((r) => r.event)).toEqual(['NONE']);
    expect(((await call('GET', '/memory/list?user_id=dedupe')).body.results as unknown[]).length).toBe(2);
  });

  it('finds memories by meaning, with scores in [0, 1] and the decay formula applied', async () => {
    for (const [text, age] of [
      ['The production API is deployed with blue-green releases on Fridays.', 2],
      ['Our cat Miso only eats salmon flavoured food.', 1],
      ['Invoices are sent to customers on the first business day of each month.', 90],
    ] as const)
      await add({ user_id: 'bob', text, infer: false, created_at: daysAgo(age) });
    const results = await search({ user_id: 'bob', query: 'how do we ship the backend to prod?' });
    expect(results[0].memory).toContain('blue-green');
    for (const r of results) {
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      const age = (Date.now() - Date.parse(r.created_at)) / DAY;
      expect(r.score).toBeCloseTo(0.7 * r.original_score! + 0.3 * 0.5 ** (age / 30), 2);
    }
    const plain = await search({ user_id: 'bob', query: 'when do customers get billed?', time_decay: false });
    expect(plain[0].memory).toContain('Invoices');
    expect(plain[0].original_score).toBeUndefined();
    expect(plain.map((r) => r.score)).toEqual([...plain.map((r) => r.score)].sort((a, b) => b - a));
    console.log(`when do customers get billed? scores ${plain.map((r) => r.score.toFixed(3)).join(' ')}`);
    expect(plain[0].score - plain[1].score).toBeGreaterThan(0.1);
    const strict = await search({
      user_id: 'bob',
      query: 'when do customers get billed?',
      min_score: (plain[0].score + plain[1].score) / 2,
      time_decay: false,
    });
    expect(strict.map((r) => r.memory)).toEqual([plain[0].memory]);
  });

  it('hybrid search finds a rare product code by its terms and a paraphrase by its meaning', async () => {
    for (const text of [
      'Replacement cartridge QX-4471 fits the basement dehumidifier.',
      'Change the furnace air filter every three months.',
      'Coffee filter papers are in the top kitchen drawer.',
      "I can't stand cilantro, keep it out of every recipe.",
      'The dog walker comes every weekday at noon.',
    ])
      await add({ user_id: 'cy', text, infer: false });
    type Signals = {
      semantic?: number;
      lexical?: { relevance: number; terms: string[] };
      entities?: string[];
      relevance?: number;
    };
    const find = async (query: string, mode: string) =>
      (await search({ user_id: 'cy', query, search_mode: mode, time_decay: false, top_k: 3 })) as (Item & {
        signals: Signals;
      })[];

    // The code: a term no embedding knows, found lexically, and named as an entity.
    const [code] = await find('which part is qx4471?', 'hybrid');
    expect(code.memory).toContain('QX-4471');
    expect(code.signals.lexical?.terms).toContain('qx4471');
    expect(code.signals.entities).toContain('qx4471');
    expect(code.score).toBeGreaterThan(0);
    expect(code.score).toBeLessThanOrEqual(1);
    expect((await find('which part is qx4471?', 'lexical'))[0].memory).toContain('QX-4471');

    // The paraphrase: no word in common, so lexical search cannot find it; semantic (in hybrid) does.
    const question = 'which herb do I dislike?';
    expect((await find(question, 'lexical')).map((r) => r.memory)).not.toContainEqual(
      expect.stringContaining('cilantro'),
    );
    const [herb] = await find(question, 'hybrid');
    expect(herb.memory).toContain('cilantro');
    expect(herb.signals.semantic).toBeGreaterThan(0);
    expect(herb.signals.lexical).toBeUndefined();

    // Semantic mode's score is its similarity calibrated (the first candidate: no gap, rank 1); the
    // similarity itself is in the signals.
    const [semantic] = await find(question, 'semantic');
    const [first] = relevanceFeatures([semantic.signals.semantic!]);
    expect(semantic.signals.relevance).toBeCloseTo(calibratedRelevance(first, CALIBRATIONS.semantic), 10);
    // A question for a value now: the best answer's score (before decay) is 1, its relevance relative to itself.
    expect(semantic.score).toBe(1);
    expect(
      (await call('POST', '/memory/search', { user_id: 'cy', query: 'q', search_mode: 'fuzzy' })).status,
    ).toBe(400);
  });

  it('hybrid search lifts memories from the time a question names, and says so', async () => {
    for (const [text, at] of [
      ['Cooked lasagna for the neighbours.', '2023-01-14T18:00:00Z'],
      ['Cooked paella for the neighbours.', '2023-05-20T18:00:00Z'],
      ['Cooked curry for the neighbours.', '2023-09-09T18:00:00Z'],
    ])
      await add({ user_id: 'dee', text, infer: false, created_at: at });
    const results = (await search({
      user_id: 'dee',
      query: 'what did I cook for the neighbours in May 2023?',
      time_decay: false,
      top_k: 3,
    })) as (Item & { signals: { time?: string } })[];
    expect(results[0].memory).toContain('paella');
    expect(results[0].signals.time).toBe('in May 2023');
    expect(results.slice(1).every((r) => r.signals.time === undefined)).toBe(true);
    // A time no memory falls in changes nothing: it boosts, it never filters.
    const none = await search({
      user_id: 'dee',
      query: 'what did I cook in 1999?',
      time_decay: false,
      top_k: 3,
    });
    expect(none).toHaveLength(3);
  });

  it('always includes the shared space, marked memory_type shared', async () => {
    await add({
      user_id: 'shared',
      text: 'Always run database migrations before deploying the API.',
      infer: false,
      metadata: { category: 'procedural' },
    });
    const results = await search({ user_id: 'carol', query: 'what to do before a deploy' });
    expect(results).toEqual([
      expect.objectContaining({ memory_type: 'shared', memory: expect.stringContaining('migrations') }),
    ]);
  });

  it('search_combined merges long-term with recent short-term memories only', async () => {
    await add({ user_id: 'dan', text: 'The build server is named hal-9000.', infer: false });
    await add({
      user_id: 'dan',
      text: 'Today the build server hal-9000 was rebooted twice.',
      infer: false,
      run_id: today(),
    });
    const old = new Date(Date.now() - 10 * DAY).toISOString().slice(0, 10);
    await add({
      user_id: 'dan',
      text: 'The build server hal-9000 had a full disk.',
      infer: false,
      run_id: old,
    });
    const results = await search(
      { user_id: 'dan', query: 'build server', top_k: 5 },
      '/memory/search_combined',
    );
    const texts = results.map((r) => r.memory);
    expect(texts).toEqual(
      expect.arrayContaining([
        'The build server is named hal-9000.',
        'Today the build server hal-9000 was rebooted twice.',
      ]),
    );
    expect(texts).not.toContain('The build server hal-9000 had a full disk.');
    expect(results.find((r) => r.memory.startsWith('Today'))!.memory_type).toBe('short_term');
  });

  it('keeps 50 concurrent adds and writes whole audit lines', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        add({ user_id: 'eve', text: `Load test fact number ${i} about service ${i * 7}.`, infer: false }),
      ),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(((await call('GET', '/memory/list?user_id=eve')).body.results as unknown[]).length).toBe(50);
    const file = `${auditDir(dataDir)}/audit-${new Date().toISOString().slice(0, 10)}.jsonl`;
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const eve = entries.filter((e) => e.user_id === 'eve');
    expect(eve).toHaveLength(50);
    expect(eve[0]).toMatchObject({ type: 'token_usage', llm_calls: 0, total_tokens: 0 });
  });

  it('loses nothing across a restart', async () => {
    const before = (await call('GET', '/memory/list?user_id=bob')).body.results;
    await stop();
    ({ call, stop } = await startMemory(dataDir));
    expect((await call('GET', '/memory/list?user_id=bob')).body.results).toEqual(before);
    const results = await search({ user_id: 'bob', query: 'pet food' });
    expect(results[0].memory).toContain('Miso');
  });

  it('with PLAT_MEMORY_AUTOSHARE, shares experience and procedural memories once', async () => {
    const shareDir = newTestDataDir();
    const sharing = await startMemory(shareDir, { PLAT_MEMORY_AUTOSHARE: 'true' });
    try {
      const body = {
        user_id: 'fay',
        text: 'Restarting the queue worker fixes stuck exports.',
        infer: false,
        metadata: { category: 'experience' },
      };
      await sharing.call('POST', '/memory/add', body);
      await sharing.call('POST', '/memory/add', { ...body, user_id: 'gus' });
      await sharing.call('POST', '/memory/add', {
        ...body,
        text: 'Fay is on call this week.',
        metadata: { category: 'project' },
      });
      const shared = (await sharing.call('GET', '/memory/list?user_id=shared')).body.results as {
        memory: string;
      }[];
      expect(shared.map((m) => m.memory)).toEqual(['Restarting the queue worker fixes stuck exports.']);
    } finally {
      await sharing.stop();
    }
  });

  it('re-embeds memories another model made, so search finds them by meaning', async () => {
    const dir = newTestDataDir();
    const store = await openEmbeddedMemoryStore(dir);
    const noise = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i * 12.9898) * 0.05);
    const at = daysAgo(3);
    await store.insert(
      {
        id: '3f0c9b8e-2a41-4d7e-9c55-6f1b2a3c4d5e',
        memory: 'The on-call phone number is 555-0142.',
        user_id: 'hal',
        agent_id: null,
        run_id: null,
        metadata: {},
        category: null,
        hash: textHash('The on-call phone number is 555-0142.'),
        created_at: at,
        updated_at: at,
        embedder: 'some-older-model:fp32:000000000000',
        valid_from: at,
        valid_to: null,
        version_of: null,
      },
      noise,
    );
    const service = await createMemoryService(dir, loadConfig({}));
    expect(await service.reembedStale()).toBe(1);
    expect(await service.reembedStale()).toBe(0);
    const { results } = await service.search({
      user_id: 'hal',
      query: 'who do I call at night?',
      top_k: 1,
      min_score: 0.2,
      time_decay: false,
      search_mode: 'semantic',
    });
    expect(results[0]?.memory).toBe('The on-call phone number is 555-0142.');
    expect((await service.get(results[0].id)).embedder).toBe(service.embedderId);
  });

  it('re-embeds a store another model wrote in the background, showing progress, while searches answer', async () => {
    const dir = newTestDataDir();
    const store = await openEmbeddedMemoryStore(dir);
    const texts = [
      ...Array.from(
        { length: 47 },
        (_, i) => `The plant on shelf ${i} needs water every ${(i % 6) + 2} days.`,
      ),
      "I can't stand cilantro, keep it out of every recipe.",
    ];
    for (const [i, text] of texts.entries()) {
      const at = daysAgo(i % 9);
      await store.insert(
        otherModelMemory(i, 'ivy', text, at),
        Float32Array.from({ length: 384 }, (_, d) => Math.sin((i + 1) * (d + 3) * 0.37)),
      );
    }
    await store.close();

    const memory = await startTestMemoryService({ dataDir: dir });
    try {
      const { service } = memory;
      const http = apiCaller(memory.url);
      await service.warmUp();
      const before = (await http('GET', '/health')).body as { embedder: string; reembedding: unknown };
      expect(before).toMatchObject({
        embedder: service.embedderId,
        reembedding: { running: false, pending: 48, percent: 100 },
      });
      const find = async (mode: string) =>
        (
          (
            await http('POST', '/memory/search', {
              user_id: 'ivy',
              query: 'which herb do I dislike, cilantro?',
              search_mode: mode,
              time_decay: false,
              top_k: 3,
            })
          ).body.results as Item[]
        ).map((r) => r.memory);
      // Another model's vectors are not compared with this one's: found by terms only, until redone.
      expect(await find('semantic')).toEqual([]);
      expect((await find('hybrid'))[0]).toContain('cilantro');

      const percents: number[] = [];
      let answeredWhileRunning = 0;
      let finished = false;
      const run = service
        .reembedStale({ page: 8, onProgress: (p) => percents.push(p.percent) })
        .finally(() => {
          finished = true;
        });
      while (!finished) {
        const health = (await http('GET', '/health')).body as {
          reembedding: { running: boolean; percent: number };
        };
        const [lexical, hybrid] = [await find('lexical'), await find('hybrid')];
        if (health.reembedding.running && !finished) {
          // Until redone, a memory is found by its terms (ranked as one the semantic list missed).
          expect(lexical[0]).toContain('cilantro');
          expect(hybrid).toHaveLength(3);
          answeredWhileRunning++;
        }
      }
      expect(await run).toBe(48);
      expect(answeredWhileRunning).toBeGreaterThan(0);
      expect(percents.length).toBeGreaterThan(2);
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(percents[0]).toBeLessThan(50);
      expect(percents[percents.length - 1]).toBe(100);
      expect((await http('GET', '/health')).body).toMatchObject({
        reembedding: { running: false, pending: 0, done: 0, total: 0, percent: 100 },
      });
      expect((await find('semantic'))[0]).toContain('cilantro');
      expect((await find('hybrid'))[0]).toContain('cilantro');
      const listed = (await http('GET', '/memory/list?user_id=ivy&limit=100')).body.results as {
        id: string;
      }[];
      expect(listed).toHaveLength(48);
      for (const { id } of listed) expect((await service.get(id)).embedder).toBe(service.embedderId);
      expect(await service.reembedStale()).toBe(0);
    } finally {
      await memory.stop();
    }
  });

  it('serves its OpenAPI document', async () => {
    const doc = (await call('GET', '/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/memory/add',
        '/memory/search',
        '/memory/search_combined',
        '/memory/list',
        '/memory/{id}',
        '/memory/history/{id}',
        '/memory/update',
      ]),
    );
  });
});
