/** /v1/search through the gateway, signed in, against a real OpenSearch node. */
import { apiCaller } from '../../harness/api-caller';
import { startTestOpenSearch, type TestOpenSearch } from '../../harness/opensearch';
import { startTestGateway, type TestGateway } from '../../harness/platform-gateway';
import { devServerEnv } from '../../harness/temporal-envs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';

describe('search API (real OpenSearch node)', () => {
  let node: TestOpenSearch;
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  let bare: TestGateway;
  let token: string;
  const call = apiCaller(() => gateway.base);

  beforeAll(async () => {
    node = await startTestOpenSearch();
    env = await devServerEnv();
    gateway = await startTestGateway({
      client: env.client,
      taskQueue: 'search-api-test',
      opensearchUrl: node.url,
    });
    // Same data (users, keys), no OpenSearch.
    bare = await startTestGateway({
      client: env.client,
      taskQueue: 'search-api-test',
      dataDir: gateway.dataDir,
    });
    token = (await call('POST', '/auth/signup', { username: 'ops', password: 'search ops!' })).body
      .id_token as string;
  }, 300_000);
  afterAll(async () => {
    await gateway?.stop();
    await bare?.stop();
    await env?.teardown();
    await node?.stop();
  });

  it('bootstraps a rolling index, and a second call changes nothing', async () => {
    const body = { shards: 1, replicas: 0 };
    const first = await call('POST', '/v1/search/indices/api-logs/bootstrap', body, token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      template: 'created',
      write_alias: 'created',
      write_index: 'api-logs-000001',
    });
    const again = await call('POST', '/v1/search/indices/api-logs/bootstrap', body, token);
    expect(again.body).toMatchObject({ template: 'unchanged', write_alias: 'unchanged' });
    expect((await call('POST', '/v1/search/indices/api-logs/bootstrap', body)).status).toBe(401);
  });

  it('answers 409 with the report when an existing state would break rollover', async () => {
    await fetch(`${node.url}/taken-logs`, { method: 'PUT' });
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
    const terms = await call('POST', '/v1/search/indices/api-logs/terms', { field: 'message' }, token);
    expect(terms.body).toMatchObject({ field: 'message.keyword', buckets: [] });
  });

  it('answers 503 saying what to configure when no OpenSearch is set', async () => {
    const res = await apiCaller(bare.base)(
      'POST',
      '/v1/search/indices/x/analyze',
      { analyzer: 'standard', text: 'x' },
      token,
    );
    expect(res.status).toBe(503);
    expect((res.body.error as { message: string }).message).toMatch(/OPENSEARCH_URL/);
  });
});
