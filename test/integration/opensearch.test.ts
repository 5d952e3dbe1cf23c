/** The optional OpenSearch component (npm start -- --with-opensearch) is a real, working node. */
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../harness/opensearch-pool';

describe('local OpenSearch from Maven Central', () => {
  let node: LeasedOpenSearch;
  beforeAll(async () => {
    node = await leaseTestOpenSearch();
  }, 300_000);
  afterAll(async () => {
    await node?.release();
  });

  async function call(method: string, route: string, body?: unknown) {
    const res = await fetch(`${node.url}${route}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('runs OpenSearch 2.x with the job-scheduler plugin', async () => {
    const info = await call('GET', '/');
    expect((info.body.version as { number: string }).number).toMatch(/^2\./);
    const plugins = await fetch(`${node.url}/_cat/plugins?format=json`).then(
      (r) => r.json() as Promise<{ component: string }[]>,
    );
    expect(plugins.map((p) => p.component)).toContain('opensearch-job-scheduler');
  });

  it('indexes through a write alias, rolls it over and analyzes text', async () => {
    await call('PUT', '/_index_template/logs-test', {
      index_patterns: ['logs-test-*'],
      template: { settings: { number_of_shards: 1, number_of_replicas: 0 } },
    });
    expect(
      (await call('PUT', '/logs-test-000001', { aliases: { 'logs-test': { is_write_index: true } } })).status,
    ).toBe(200);
    expect(
      (await call('POST', '/logs-test/_doc?refresh=true', { message: 'worker started on plat-platform' }))
        .status,
    ).toBe(201);
    const rollover = await call('POST', '/logs-test/_rollover', { conditions: { max_docs: 1 } });
    expect(rollover.body).toMatchObject({ rolled_over: true, new_index: 'logs-test-000002' });
    const tokens = await call('POST', '/_analyze', { analyzer: 'standard', text: 'Worker STARTED' });
    expect((tokens.body.tokens as { token: string }[]).map((t) => t.token)).toEqual(['worker', 'started']);
  });
});
