/**
 * What the memory service sends is what its OpenAPI document states: every search mode, with and
 * without decay, combined search, list, get and history, held to the served document's schemas in
 * full (a field the document does not state, such as `signals` once, fails). And a backfill dated in
 * the future is refused.
 */
import { openApiResponses } from '../harness/openapi-responses';
import { startTestMemoryService, type TestMemoryService } from '../harness/memory-service';

describe('memory responses against the served document', () => {
  let memory: TestMemoryService;
  let check: ReturnType<typeof openApiResponses>;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${memory.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    memory = await startTestMemoryService();
    check = openApiResponses((await call('GET', '/openapi.json')).body);
  });
  afterAll(async () => {
    await memory?.stop();
  });

  it('answers every search mode, list, get and history as its document states', async () => {
    const user = 'doc-user';
    const added = await call('POST', '/memory/add', {
      user_id: user,
      text: 'Caroline bought a red kayak in Boston in May 2023',
      infer: false,
      created_at: '2023-05-20T10:00:00Z',
    });
    expect(check('addMemory', 200, added.body)).toEqual([]);
    await call('POST', '/memory/add', {
      user_id: user,
      text: 'I water the garden every morning',
      infer: false,
    });
    const id = (added.body.results as { id: string }[])[0].id;

    const answers: [string, number, unknown][] = [];
    for (const search_mode of ['hybrid', 'semantic', 'lexical'])
      for (const time_decay of [true, false]) {
        const res = await call('POST', '/memory/search', {
          user_id: user,
          query: 'What did Caroline buy in Boston in May 2023?',
          search_mode,
          time_decay,
        });
        expect(res.status).toBe(200);
        expect((res.body.results as unknown[]).length).toBeGreaterThan(0);
        answers.push(['searchMemories', 200, res.body]);
      }
    // The hybrid answer carries signals, so the check covers them.
    expect(JSON.stringify(answers[0][2])).toContain('"signals"');
    answers.push([
      'searchCombined',
      200,
      (await call('POST', '/memory/search_combined', { user_id: user, query: 'kayak' })).body,
    ]);
    answers.push(['listMemories', 200, (await call('GET', `/memory/list?user_id=${user}`)).body]);
    answers.push(['getMemory', 200, (await call('GET', `/memory/${id}`)).body]);
    answers.push(['memoryHistory', 200, (await call('GET', `/memory/history/${id}`)).body]);
    expect(answers.flatMap(([op, status, body]) => check(op, status, body))).toEqual([]);
  });

  it('refuses a backfill dated in the future, naming the field, and stores nothing', async () => {
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const res = await call('POST', '/memory/add', {
      user_id: 'doc-future',
      text: 'a thing that has not happened',
      infer: false,
      created_at: future,
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: { code: 'created_at_in_future' } });
    expect(((await call('GET', '/memory/list?user_id=doc-future')).body.results as unknown[]).length).toBe(0);
    // A clock a few seconds ahead is not the future: a minute ahead is accepted.
    const skewed = await call('POST', '/memory/add', {
      user_id: 'doc-future',
      text: 'written by a machine whose clock runs fast',
      infer: false,
      created_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(skewed.status).toBe(200);
  });
});
