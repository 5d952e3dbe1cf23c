/**
 * Extraction and reconciliation on Claude (the real Anthropic SDK against a local Messages API
 * fake): the custom extraction prompt is used for that call only, a contradicting fact updates the
 * memory instead of piling up (the model is shown the memories stating the same attribute,
 * docs/memory-supersede.md, and history keeps the old value), token usage is counted and audited;
 * ranking uses a fixed clock.
 */
import * as fs from 'node:fs';
import { auditDir, createMemoryService } from '../../../gateway/memory/memory-service-wiring';
import { DEFAULT_EXTRACTION_PROMPT } from '../../../domain/memory/extraction/claude-fact-extractor';
import type { MemoryService } from '../../../domain/memory/memory-service';
import { loadConfig } from '../../../shared/config';
import { startMessagesFake, type FakeRequest, type MessagesFake } from '../../fakes/anthropic-messages-fake';
import { newTestDataDir } from '../../harness/platform-gateway';

const now = new Date('2026-11-22T12:00:00Z');
const reply = (text: string, input = 300, output = 40) => ({
  content: [{ type: 'text' as const, text }],
  stop_reason: 'end_turn' as const,
  usage: { input_tokens: input, output_tokens: output },
});
const systemOf = (req: FakeRequest) => String(req.body.system);
/** The memory service in `dataDir`, extracting with Claude at `fake`, on the fixed clock. */
const memoryOnClaude = (dataDir: string, fake: MessagesFake) =>
  createMemoryService(
    dataDir,
    loadConfig({
      ANTHROPIC_API_KEY: 'sk-test',
      ANTHROPIC_BASE_URL: fake.baseURL,
      PLAT_MODEL_SMALL: 'claude-test-small',
    }),
    { now: () => now },
  );

describe('memory extraction with Claude', () => {
  let fake: MessagesFake;
  let service: MemoryService;
  let dataDir: string;

  beforeAll(async () => {
    fake = await startMessagesFake([
      () => reply('{"facts": ["Ana lives in Berlin.", "Ana loves sushi."]}'),
      () => reply('Here you go: {"facts": ["Ana lives in Lisbon."]}'),
      (req) => {
        const berlin = /- id (\S+): Ana lives in Berlin\./.exec(String(req.body.messages[0].content))![1];
        return reply(
          JSON.stringify({ event: 'UPDATE', id: berlin, text: 'Ana lives in Lisbon (moved in March).' }),
          200,
          30,
        );
      },
      () => reply('{"facts": ["Ben lives in Berlin."]}'),
      () => reply('{"facts": ["Ben has relocated to Porto for a new role at a fintech startup."]}'),
      (req) => {
        const berlin = /- id (\S+): Ben lives in Berlin\./.exec(String(req.body.messages[0].content))![1];
        return reply(JSON.stringify({ event: 'UPDATE', id: berlin, text: 'Ben lives in Porto.' }), 200, 30);
      },
    ]);
    dataDir = newTestDataDir();
    service = await memoryOnClaude(dataDir, fake);
  });
  afterAll(async () => fake?.close());

  it('extracts facts with the custom prompt for that call only', async () => {
    const custom = 'Extract where the user lives and what they eat. Answer {"facts": [...]}';
    const added = await service.add({
      user_id: 'ana',
      text: 'I moved to Berlin last year and I love sushi!',
      infer: true,
      custom_extraction_prompt: custom,
    });
    expect(added.results.map((r) => [r.event, r.memory])).toEqual([
      ['ADD', 'Ana lives in Berlin.'],
      ['ADD', 'Ana loves sushi.'],
    ]);
    expect(added.token_usage).toEqual({
      llm_calls: 1,
      input_tokens: 300,
      output_tokens: 40,
      total_tokens: 340,
    });
    expect(systemOf(fake.requests[0])).toBe(custom);
    expect(fake.requests[0].body.model).toBe('claude-test-small');
  });

  it('updates a contradicted memory instead of adding a second one, and records it', async () => {
    const added = await service.add({
      user_id: 'ana',
      text: 'Actually I moved to Lisbon in March.',
      infer: true,
    });
    expect(systemOf(fake.requests[1])).toBe(DEFAULT_EXTRACTION_PROMPT);
    expect(added.results).toEqual([
      expect.objectContaining({
        event: 'UPDATE',
        memory: 'Ana lives in Lisbon (moved in March).',
        previous_memory: 'Ana lives in Berlin.',
      }),
    ]);
    expect(added.token_usage).toEqual({
      llm_calls: 2,
      input_tokens: 500,
      output_tokens: 70,
      total_tokens: 570,
    });
    const memories = (await service.list({ user_id: 'ana', limit: 100 })).results.map((m) => m.memory).sort();
    expect(memories).toEqual(['Ana lives in Lisbon (moved in March).', 'Ana loves sushi.']);
    const id = added.results[0].id;
    expect((await service.history(id)).results.map((h) => [h.event, h.old_memory, h.new_memory])).toEqual([
      ['ADD', null, 'Ana lives in Berlin.'],
      ['UPDATE', 'Ana lives in Berlin.', 'Ana lives in Lisbon (moved in March).'],
    ]);
    // The model's UPDATE is a change in the world: what the memory said stays as an earlier version,
    // and what it was about stays with the memory.
    expect((await service.get(id)).metadata).toMatchObject({ plat_about: expect.arrayContaining(['lives']) });
    expect((await service.changes({ user_id: 'ana', limit: 10 })).results).toEqual([
      expect.objectContaining({
        memory_id: id,
        from: 'Ana lives in Berlin.',
        to: 'Ana lives in Lisbon (moved in March).',
      }),
    ]);
    const audit = fs
      .readFileSync(`${auditDir(dataDir)}/audit-2026-11-22.jsonl`, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audit.map((a) => [a.type, a.llm_calls, a.total_tokens])).toEqual([
      ['token_usage', 1, 340],
      ['token_usage', 2, 570],
    ]);
  });

  it('shows the model a memory stating the same attribute, however far in meaning, and keeps the old value', async () => {
    const [berlin] = (await service.add({ user_id: 'ben', text: 'I live in Berlin.', infer: true })).results;
    expect(berlin).toMatchObject({ event: 'ADD', memory: 'Ben lives in Berlin.' });
    const moved = 'Ben has relocated to Porto for a new role at a fintech startup.';
    const search = (query: string, search_mode: 'semantic' | 'hybrid') =>
      service.search({ user_id: 'ben', query, top_k: 5, min_score: 0, time_decay: false, search_mode });
    // Too far in meaning to be a neighbour the model would be shown (< 0.5): only its subject relates them.
    expect((await search(moved, 'semantic')).results[0].signals?.semantic).toBeLessThan(0.5);
    const added = await service.add({
      user_id: 'ben',
      text: 'Moved to Porto for a fintech job.',
      infer: true,
    });
    const decision = String(fake.requests[5].body.messages[0].content);
    expect(decision).toContain(`NEW: ${moved}`);
    expect(decision).toContain(`- id ${berlin.id}: Ben lives in Berlin.`);
    expect(added.results).toEqual([
      {
        id: berlin.id,
        memory: 'Ben lives in Porto.',
        event: 'UPDATE',
        previous_memory: 'Ben lives in Berlin.',
      },
    ]);
    expect(
      (await service.history(berlin.id)).results.map((h) => [h.event, h.old_memory, h.new_memory]),
    ).toEqual([
      ['ADD', null, 'Ben lives in Berlin.'],
      ['UPDATE', 'Ben lives in Berlin.', 'Ben lives in Porto.'],
    ]);
    const { results } = await search('Where does Ben live?', 'hybrid');
    expect(results.map((r) => r.memory)).toEqual(['Ben lives in Porto.']);
  });

  it('ranks with the decay formula on the service clock', async () => {
    await service.add({
      user_id: 'clock',
      text: 'The office wifi password rotates monthly.',
      infer: false,
      created_at: '2026-10-23T12:00:00Z',
    });
    const { results } = await service.search({
      user_id: 'clock',
      query: 'office wifi password',
      top_k: 5,
      min_score: 0,
      time_decay: true,
      search_mode: 'hybrid',
    });
    const [hit] = results;
    // 30 days old on the service clock: freshness 0.5.
    expect(hit.score).toBeCloseTo(0.7 * hit.original_score! + 0.3 * 0.5, 10);
  });
});

describe('attributes Claude names (subject, attribute, value)', () => {
  let fake: MessagesFake;
  let service: MemoryService;

  beforeAll(async () => {
    const fact = (text: string, value: string, holder = 'Ana', attribute = 'bank') =>
      reply(JSON.stringify({ facts: [{ text, subject: holder, attribute, value }] }));
    fake = await startMessagesFake([
      () => fact('Ana banks with Monzo.', 'Monzo'),
      // Another spelling of the same holder and attribute: the same key.
      () => fact('Ana switched her account to Revolut.', 'Revolut', 'ana', ' Bank '),
      () => fact('Ana is with Revolut.', 'revolut'),
      // An oversized attribute is no attribute; a fact that is not text is dropped.
      () =>
        reply(
          JSON.stringify({
            facts: [
              { text: 'Ana likes jazz.', subject: 'Ana', attribute: 'x'.repeat(10_000), value: 'jazz' },
              42,
              '',
            ],
          }),
        ),
    ]);
    service = await memoryOnClaude(newTestDataDir(), fake);
  });
  afterAll(async () => fake?.close());

  it('supersedes the memory of the same attribute without asking the model again, and keeps the old value', async () => {
    const first = await service.add({ user_id: 'ana', text: 'I bank with Monzo', infer: true });
    expect(first.results).toEqual([
      expect.objectContaining({ event: 'ADD', memory: 'Ana banks with Monzo.' }),
    ]);
    const id = first.results[0].id;
    expect((await service.get(id)).metadata).toEqual({
      plat_subject: { holder: 'Ana', attribute: 'bank', value: 'Monzo' },
      plat_evokes: expect.arrayContaining(['bank']),
    });

    const calls = fake.requests.length;
    const changed = await service.add({ user_id: 'ana', text: 'I moved my money to Revolut', infer: true });
    // One call: the extraction. The same holder and attribute decided the rest.
    expect(fake.requests.length).toBe(calls + 1);
    expect(changed.results).toEqual([
      {
        id,
        memory: 'Ana switched her account to Revolut.',
        event: 'UPDATE',
        previous_memory: 'Ana banks with Monzo.',
      },
    ]);
    expect((await service.changes({ user_id: 'ana', limit: 10 })).results).toEqual([
      expect.objectContaining({
        memory_id: id,
        from: 'Ana banks with Monzo.',
        to: 'Ana switched her account to Revolut.',
      }),
    ]);
    // The same value again is known.
    expect((await service.add({ user_id: 'ana', text: 'Revolut is my bank', infer: true })).results).toEqual([
      { id, memory: 'Ana switched her account to Revolut.', event: 'NONE' },
    ]);
  });

  it('takes the attribute from the model only: a caller cannot claim one in metadata', async () => {
    const claimed = { plat_subject: { holder: 'Ana', attribute: 'bank', value: 'Evil Bank' }, note: 'kept' };
    const added = await service.add({
      user_id: 'ana',
      text: 'Evil Bank is great.',
      infer: false,
      metadata: claimed,
    });
    const id = added.results[0].id;
    expect((await service.get(id)).metadata).toEqual({ note: 'kept' });
    expect(
      (await service.update({ memory_id: id, text: 'Evil Bank is fine.', metadata: claimed })).metadata,
    ).toEqual({
      note: 'kept',
    });
  });

  it('reads no attribute from an oversized one, and drops facts that are not text', async () => {
    const added = await service.add({ user_id: 'ana', text: 'I like jazz', infer: true });
    expect(added.results).toEqual([expect.objectContaining({ event: 'ADD', memory: 'Ana likes jazz.' })]);
    expect((await service.get(added.results[0].id)).metadata).toEqual({});
  });
});
