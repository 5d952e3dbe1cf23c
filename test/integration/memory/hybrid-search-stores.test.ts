/**
 * Hybrid search end to end on both stores: the memory service (real embedding model) over the
 * embedded store and over the Qdrant store (through the wire-format fake). A product code only a
 * lexical match finds, a paraphrase only a semantic match finds, and a named month, all by the
 * default search mode.
 */
import type { MemoryService } from '../../../domain/memory/memory-service';
import { createMemoryService } from '../../../gateway/memory/memory-service-wiring';
import { loadConfig } from '../../../shared/config';
import type { SearchRequest } from '../../../shared/memory-requests';
import { startQdrantFake, type QdrantFake } from '../../fakes/qdrant-fake';
import { newTestDataDir } from '../../harness/platform-gateway';

let fake: QdrantFake;

beforeAll(async () => {
  fake = await startQdrantFake();
});
afterAll(async () => fake?.close());

const stores: [string, () => Record<string, string>][] = [
  ['embedded', () => ({ PLAT_MEMORY_STORE: 'embedded' })],
  [
    'qdrant (wire-format fake)',
    () => ({ PLAT_MEMORY_STORE: 'qdrant', QDRANT_URL: fake.url, QDRANT_COLLECTION: `hybrid_${Date.now()}` }),
  ],
];

describe.each(stores)('hybrid search on the %s store', (_name, env) => {
  let service: MemoryService;
  const search = (query: string, extra: Partial<SearchRequest> = {}) =>
    service.search({
      query,
      user_id: 'eve',
      top_k: 3,
      min_score: 0,
      time_decay: false,
      search_mode: 'hybrid',
      ...extra,
    });

  beforeAll(async () => {
    service = await createMemoryService(newTestDataDir(), loadConfig(env()));
    for (const [text, at] of [
      ['Replacement cartridge QX-4471 fits the basement dehumidifier.', '2023-01-10T09:00:00Z'],
      ['Change the furnace air filter every three months.', '2023-02-10T09:00:00Z'],
      ["I can't stand cilantro, keep it out of every recipe.", '2023-03-10T09:00:00Z'],
      ['Cooked paella for the neighbours.', '2023-05-20T18:00:00Z'],
      ['Cooked curry for the neighbours.', '2023-09-09T18:00:00Z'],
    ])
      await service.add({ user_id: 'eve', text, infer: false, created_at: at });
  });

  it('finds a product code by its terms and names it as an entity', async () => {
    const [top] = (await search('which part is qx4471?')).results;
    expect(top.memory).toContain('QX-4471');
    expect(top.signals?.lexical?.terms).toContain('qx4471');
    expect(top.signals?.entities).toContain('qx4471');
  });

  it('finds a paraphrase by its meaning, with no word in common', async () => {
    const lexical = await search('which herb do I dislike?', { search_mode: 'lexical' });
    expect(lexical.results.map((r) => r.memory).join()).not.toContain('cilantro');
    const [top] = (await search('which herb do I dislike?')).results;
    expect(top.memory).toContain('cilantro');
    expect(top.signals?.lexical).toBeUndefined();
  });

  it('lifts the memory from the month a question names', async () => {
    const [top] = (await search('what did I cook for the neighbours in May 2023?')).results;
    expect(top.memory).toContain('paella');
    expect(top.signals?.time).toBe('in May 2023');
  });

  it('keeps scores in [0, 1] with min_score and decay applied to the fused relevance', async () => {
    const decayed = await search('cooked for the neighbours', { time_decay: true, top_k: 5 });
    for (const r of decayed.results) {
      expect(r.original_score).toBeGreaterThanOrEqual(0);
      expect(r.original_score).toBeLessThanOrEqual(1);
      expect(r.score).toBeLessThanOrEqual(1);
    }
    const strict = await search('cooked for the neighbours', { min_score: 0.4, top_k: 5 });
    expect(strict.results.length).toBeGreaterThan(0);
    for (const r of strict.results) expect(r.score).toBeGreaterThanOrEqual(0.4);
  });

  it('keeps the fact a question matches above the facts stored at the same moment', async () => {
    const at = '2023-07-01T09:00:00Z';
    for (const text of [
      'The guest wifi password is on the fridge.',
      'The recycling goes out on Tuesdays.',
      'The boiler service is booked with Halvorsen Heating.',
      'The spare bike lock code is 4471.',
    ])
      await service.add({ user_id: 'eve', text, infer: false, created_at: at, agent_id: 'house' });
    for (const [question, answer] of [
      ['who services the boiler?', 'Halvorsen'],
      ['when does the recycling go out?', 'recycling'],
    ]) {
      const [top] = (await search(question, { agent_id: 'house' })).results;
      expect(top.memory).toContain(answer);
    }
  });
});
