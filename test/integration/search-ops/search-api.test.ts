/** /v1/search through the gateway, signed in, against a real OpenSearch node. */
import { runPlat } from '../../harness/plat-cli';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { apiCaller } from '../../harness/api-caller';
import { startSearchGateways, type SearchGateways } from '../../harness/search-gateways';

describe('search API (real OpenSearch node)', () => {
  let search: SearchGateways;
  let token: string;
  const call = apiCaller(() => search.gateway.base);

  beforeAll(async () => {
    search = await startSearchGateways('search-api-test');
    token = (await call('POST', '/auth/signup', { username: 'ops', password: 'search ops!' })).body
      .id_token as string;
  }, 300_000);
  afterAll(async () => search?.stop());

  it('bootstraps a rolling index, and a second call changes nothing', async () => {
    const body = { shards: 1, replicas: 0 };
    const first = await call('POST', '/v1/search/indices/api-logs/bootstrap', body, token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      template: 'created',
      write_alias: 'created',
      write_index: 'api-logs-000001',
      // The default lifecycle: rolled over at 1d or 40gb, deleted at 30d.
      policy: { id: 'api-logs-lifecycle', result: 'created', engine: 'plat' },
      attached: 0,
    });
    const again = await call('POST', '/v1/search/indices/api-logs/bootstrap', body, token);
    expect(again.body).toMatchObject({
      template: 'unchanged',
      write_alias: 'unchanged',
      policy: { result: 'unchanged' },
    });
    // The managed-domain tiers are refused on this self-managed node, naming the one that works here.
    const tiered = await call('POST', '/v1/search/indices/tier-logs/bootstrap', { policy: 'tiered' }, token);
    expect(tiered.status).toBe(422);
    expect(JSON.stringify((tiered.body.error as { details: unknown }).details)).toMatch(
      /self-managed-tiered/,
    );
    expect((await call('POST', '/v1/search/indices/api-logs/bootstrap', body)).status).toBe(401);
  });

  it('answers 409 with the report when an existing state would break rollover', async () => {
    await fetch(`${search.node.url}/taken-logs`, { method: 'PUT' });
    const res = await call(
      'POST',
      '/v1/search/indices/taken-logs/bootstrap',
      { shards: 1, replicas: 0 },
      token,
    );
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'conflict',
      details: { write_alias: 'conflict', conflicts: [expect.stringMatching(/is a concrete index/)] },
    });
  });

  it('analyzes text and aggregates terms, saying what the cluster refused', async () => {
    const tokens = await call(
      'POST',
      '/v1/search/indices/api-logs/analyze',
      { analyzer: 'standard', text: 'Hello plat' },
      token,
    );
    expect(tokens.body.tokens).toEqual([
      expect.objectContaining({ token: 'hello', position: 0 }),
      expect.objectContaining({ token: 'plat', position: 1 }),
    ]);
    const noAnalyzer = await call(
      'POST',
      '/v1/search/indices/api-logs/analyze',
      { analyzer: 'klingon', text: 'x' },
      token,
    );
    expect(noAnalyzer.status).toBe(422);
    expect((noAnalyzer.body.error as { message: string }).message).toMatch(/klingon/);
    const both = await call('POST', '/v1/search/indices/api-logs/analyze', { text: 'x' }, token);
    expect(both.status).toBe(400);
    // An artificial document the cluster cannot map: its 500 is the request's fault, answered 422.
    const unmappable = await call(
      'POST',
      '/v1/search/indices/api-logs-000001/termvectors',
      { doc: { '': 1, nested: { '': 'x' } } },
      token,
    );
    expect(unmappable.status).toBe(422);
    expect((unmappable.body.error as { message: string }).message).toMatch(/could not compute term vectors/);
    const terms = await call('POST', '/v1/search/indices/api-logs/terms', { field: 'message' }, token);
    expect(terms.body).toMatchObject({ field: 'message.keyword', buckets: [] });
  });

  it('writes a policy idempotently, attaches it, explains, rolls over by hand and lists indices and shards', async () => {
    // A rolling index without a lifecycle, then a policy of its own.
    await call(
      'POST',
      '/v1/search/indices/plain-logs/bootstrap',
      { shards: 1, replicas: 0, policy: 'none' },
      token,
    );
    const policy = {
      default_state: 'hot',
      states: [
        {
          name: 'hot',
          actions: [{ rollover: { min_doc_count: 1000 } }],
          transitions: [{ state_name: 'delete', conditions: { min_index_age: '30d' } }],
        },
        { name: 'delete', actions: [{ delete: {} }] },
      ],
      ism_template: { index_patterns: ['plain-logs-*'], priority: 50 },
    };
    const created = await call('PUT', '/v1/search/policies/api-retention', { policy }, token);
    expect(created.body).toMatchObject({
      result: 'created',
      engine: 'plat',
      policy: { _id: 'api-retention' },
    });
    expect((await call('PUT', '/v1/search/policies/api-retention', { policy }, token)).body.result).toBe(
      'unchanged',
    );
    const invalid = await call(
      'PUT',
      '/v1/search/policies/broken',
      { policy: { ...policy, default_state: 'warm' } },
      token,
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({
      code: 'policy_invalid',
      details: { problems: [expect.objectContaining({ path: 'default_state' })] },
    });
    expect((await call('GET', '/v1/search/policies/broken', undefined, token)).status).toBe(404);

    const attached = await call(
      'POST',
      '/v1/search/indices/plain-logs-*/policy',
      { policy_id: 'api-retention' },
      token,
    );
    expect(attached.body).toEqual({ updated_indices: 1, failures: false, failed_indices: [] });
    const explain = await call('GET', '/v1/search/indices/plain-logs-000001/explain', undefined, token);
    expect(explain.body).toMatchObject({
      'plain-logs-000001': { policy_id: 'api-retention', enabled: true },
      total_managed_indices: 1,
    });

    const rolled = await call('POST', '/v1/search/aliases/plain-logs/rollover', undefined, token);
    expect(rolled.body).toMatchObject({
      old_index: 'plain-logs-000001',
      new_index: 'plain-logs-000002',
      rolled_over: true,
    });
    // A missing alias is a missing resource, not the cluster's 400.
    const missing = await call('POST', '/v1/search/aliases/no-such-logs/rollover', undefined, token);
    expect(missing).toMatchObject({ status: 404, body: { error: { message: 'no alias no-such-logs' } } });
    const alias = await call('GET', '/v1/search/aliases/plain-logs', undefined, token);
    expect(alias.body).toMatchObject({
      'plain-logs-000002': { aliases: { 'plain-logs': { is_write_index: true } } },
    });
    const indices = await call('GET', '/v1/search/cat/indices/plain-logs-*?s=index:desc', undefined, token);
    expect((indices.body as unknown as { index: string }[]).map((r) => r.index)).toEqual([
      'plain-logs-000002',
      'plain-logs-000001',
    ]);
    const shards = await call('GET', '/v1/search/cat/shards/plain-logs-000001', undefined, token);
    expect(shards.body).toEqual([
      expect.objectContaining({ index: 'plain-logs-000001', prirep: 'p', state: 'STARTED' }),
    ]);
    const settings = await call(
      'GET',
      '/v1/search/indices/plain-logs-000001/settings?filter_path=*.settings.index.number_of_replicas',
      undefined,
      token,
    );
    expect(settings.body).toEqual({
      'plain-logs-000001': { settings: { index: { number_of_replicas: '0' } } },
    });
    expect((await call('GET', '/v1/search/indices/no-such-index/explain', undefined, token)).status).toBe(
      404,
    );
  });

  /** The `plat` CLI as a user runs it, without blocking this process (it serves the gateway). */
  const plat = (...args: string[]) =>
    runPlat(['index', ...args], { ...process.env, PLAT_URL: search.gateway.base, PLAT_TOKEN: token });

  it('plat index: bootstrap, explain, cat with -v and -s, an invalid policy named problem by problem', async () => {
    const bootstrap = [
      'bootstrap',
      'cli-logs',
      '--replicas',
      '0',
      '--retention-days',
      '14',
      '--rollover-docs',
      '100',
    ];
    const boot = await plat(...bootstrap);
    expect(boot.stderr).toBe('');
    expect(boot.stdout).toContain('write alias cli-logs → cli-logs-000001: created');
    expect(boot.stdout).toContain("policy cli-logs-lifecycle: created (run by plat's lifecycle engine)");
    const again = await plat(...bootstrap);
    expect(again.stdout).toContain('policy cli-logs-lifecycle: unchanged');

    await plat('rollover', 'cli-logs');
    const cat = await plat('cat', 'indices', 'cli-logs-*', '-v', '-s', 'index:desc');
    const lines = cat.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^health\s+status\s+index/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[2])).toEqual(['cli-logs-000002', 'cli-logs-000001']);

    const explain = await plat('explain', 'cli-logs-*');
    expect(explain.stdout).toMatch(
      /cli-logs-000001 {2}\(not managed\)|cli-logs-000001 {2}cli-logs-lifecycle/,
    );

    const doctor = await plat('doctor', 'cli-logs', '--field', 'message');
    expect(doctor.status).toBe(1);
    expect(doctor.stdout).toContain('PROBLEM 4. aggregation on a text field');
    expect(doctor.stdout).toContain('fix: aggregate on message.keyword instead');
    expect(doctor.stdout).toMatch(/ok +2\. new index created but writes go to the old one/);
    // The manual rollover attached the new index at once; only the aggregation is a problem.
    expect(doctor.stdout).toContain('1 problem(s)');

    const file = path.join(search.gateway.dataDir, 'bad-policy.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        policy: { default_state: 'hot', states: [{ name: 'hot', transitions: [{ state_name: 'gone' }] }] },
      }),
    );
    const bad = await plat('policy', 'put', 'bad', '--file', file);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(
      /states\.0\.transitions\.0\.state_name: state hot moves to gone, which is not one of the states/,
    );

    // Tokens and terms from the terminal; cli-logs rolled over above, so it names two indices.
    const analyzed = await plat('analyze', 'cli-logs', '--field', 'message', 'Worker', 'started');
    expect([analyzed.status, analyzed.stderr]).toEqual([0, '']);
    expect(analyzed.stdout).toMatch(/0 +worker +0 +6/);
    expect(analyzed.stdout).toMatch(/1 +started +7 +14/);
    const vectors = await plat(
      'termvectors',
      'cli-logs',
      '--doc',
      '{"message":"disk full full"}',
      '--fields',
      'message',
    );
    expect(vectors.status).toBe(0);
    expect(vectors.stdout).toMatch(/message +full +2/);
    const help = await plat('terms', '--help');
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('index terms INDEX --field F')]);
  });

  it('answers 503 saying what to configure when no OpenSearch is set', async () => {
    const res = await apiCaller(search.bare.base)(
      'POST',
      '/v1/search/indices/x/analyze',
      { analyzer: 'standard', text: 'x' },
      token,
    );
    expect(res.status).toBe(503);
    expect((res.body.error as { message: string }).message).toMatch(/OPENSEARCH_URL/);
  });
});
