/**
 * plat's own logs through its search-lifecycle code, on a real OpenSearch node: the two rolling
 * indices with their 30-day and 14-day retention policies; the real PRD activity's agent log shipped
 * to `plat-agent-logs` and read back through `GET /v1/projects/{id}/agent-logs?source=opensearch`;
 * the gateway's access log in `plat-access-logs`; nothing lost while the cluster is away.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createAnalysisActivities } from '../../../activities/analysis/analysis-activities';
import { lifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { LogShipper } from '../../../domain/search-ops/plat-logs/log-shipper';
import {
  ACCESS_LOGS,
  AGENT_LOGS,
  ensurePlatLogIndices,
} from '../../../domain/search-ops/plat-logs/plat-log-indices';
import { dataDirDeps } from '../../../workers/platform-activities';
import { apiCaller } from '../../harness/api-caller';
import { harness } from '../../harness/harness-state';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';
import { newTestDataDir, startTestGateway, type TestGateway } from '../../harness/platform-gateway';
import { devServerEnv } from '../../harness/temporal-envs';

describe("plat's own logs in OpenSearch (real node)", () => {
  let node: LeasedOpenSearch;
  let client: OpenSearchClient;
  let env: TestWorkflowEnvironment;
  let gateway: TestGateway;
  const call = apiCaller(() => gateway.base);

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    client = new OpenSearchClient({ url: node.url });
    env = await devServerEnv();
  }, 300_000);
  afterAll(async () => {
    await gateway?.stop();
    await env?.teardown();
    await node?.release();
  });

  const count = async (alias: string, query: object) =>
    (await client.request<{ count: number }>('POST', `/${alias}/_count`, { query })).count;
  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 200));
    return check();
  };

  it('bootstraps both rolling indices with 30-day and 14-day retention, idempotently', async () => {
    const first = await ensurePlatLogIndices(client);
    expect(first.map((r) => [r.name, r.write_index, r.policy?.result])).toEqual([
      [AGENT_LOGS, `${AGENT_LOGS}-000001`, 'created'],
      [ACCESS_LOGS, `${ACCESS_LOGS}-000001`, 'created'],
    ]);
    const again = await ensurePlatLogIndices(client);
    expect(again.map((r) => [r.template, r.write_alias, r.policy?.result])).toEqual([
      ['unchanged', 'unchanged', 'unchanged'],
      ['unchanged', 'unchanged', 'unchanged'],
    ]);
    const manager = await lifecycleManager(client);
    expect(JSON.stringify((await manager.getPolicy(`${AGENT_LOGS}-lifecycle`))!.policy.states)).toContain(
      '"30d"',
    );
    expect(JSON.stringify((await manager.getPolicy(`${ACCESS_LOGS}-lifecycle`))!.policy.states)).toContain(
      '"14d"',
    );
  });

  it('ships the PRD agent’s log and reads it back through the API, for its owner only', async () => {
    const dataDir = newTestDataDir();
    const deps = await dataDirDeps(dataDir, { opensearch: { OPENSEARCH_URL: node.url } });
    gateway = await startTestGateway({
      client: env.client,
      taskQueue: 'plat-logs-test',
      dataDir,
      opensearchUrl: node.url,
    });
    const token = (await call('POST', '/auth/signup', { username: 'logs', password: 'logs password' })).body
      .id_token as string;
    const other = (await call('POST', '/auth/signup', { username: 'other', password: 'other password' })).body
      .id_token as string;
    const { host, port, user, password } = harness().mariadb;
    const created = await call(
      'POST',
      '/v1/projects',
      { jdbc_url: `jdbc:mysql://${host}:${port}/sakila`, username: user, password, description: 'logs' },
      token,
    );
    const projectId = created.body.project_id as string;
    const passwordRef = await deps.secrets.put(`projects/${projectId}/db-password-test`, password);
    // The real activity, as the worker runs it, with the worker's shipper.
    await new MockActivityEnvironment().run(createAnalysisActivities(deps).generatePrd, {
      project_id: projectId,
      description: 'logs',
      source: { jdbc_url: `jdbc:mysql://${host}:${port}/sakila`, username: user, password_ref: passwordRef },
    });
    await deps.agentLogs!.flush();
    await client.request('POST', `/${AGENT_LOGS}/_refresh`);

    const fromStore = await call('GET', `/v1/projects/${projectId}/agent-logs`, undefined, token);
    const fromSearch = await call(
      'GET',
      `/v1/projects/${projectId}/agent-logs?source=opensearch`,
      undefined,
      token,
    );
    expect(fromSearch.body.source).toBe('opensearch');
    const tools = (body: Record<string, unknown>) =>
      (body.entries as { log_key: string }[]).map((e) => e.log_key).sort();
    expect(tools(fromSearch.body).length).toBeGreaterThan(5);
    expect(tools(fromSearch.body)).toEqual(tools(fromStore.body));
    expect(
      (await call('GET', `/v1/projects/${projectId}/agent-logs?source=opensearch`, undefined, other)).status,
    ).toBe(404);

    // A retried activity re-sends the same entries: the log key keeps one document each.
    const before = await count(AGENT_LOGS, { term: { project_id: projectId } });
    for (const e of fromStore.body.entries as { log_key: string; timestamp: string }[])
      deps.agentLogs!.ship({ ...e, '@timestamp': e.timestamp }, e.log_key);
    await deps.agentLogs!.flush();
    await client.request('POST', `/${AGENT_LOGS}/_refresh`);
    expect(await count(AGENT_LOGS, { term: { project_id: projectId } })).toBe(before);

    // The gateway's own access log, path and status, no query string or body.
    expect(
      await eventually(async () => {
        await client.request('POST', `/${ACCESS_LOGS}/_refresh`);
        return (await count(ACCESS_LOGS, { term: { path: `/v1/projects/${projectId}/agent-logs` } })) >= 2;
      }),
    ).toBe(true);
    const logged = await client.request<{ hits: { hits: { _source: Record<string, unknown> }[] } }>(
      'POST',
      `/${ACCESS_LOGS}/_search`,
      { query: { term: { path: '/v1/projects' } } },
    );
    expect(logged.hits.hits[0]._source).toMatchObject({ method: 'POST', status: 201 });
    expect(JSON.stringify(logged.hits.hits)).not.toContain(password);
  });

  it('keeps documents while the cluster is away and sends them when it is back', async () => {
    let away = true;
    const errors: unknown[] = [];
    const shipper = new LogShipper(client, ACCESS_LOGS, {
      flushMs: 60_000,
      ensure: async () => {
        if (away) throw new Error('connect ECONNREFUSED');
      },
      onError: (e) => errors.push(e),
    });
    shipper.ship({
      '@timestamp': new Date().toISOString(),
      method: 'GET',
      path: '/kept-while-away',
      status: 200,
    });
    await shipper.flush();
    await shipper.flush();
    expect(errors).toHaveLength(1); // reported once per outage
    away = false;
    await shipper.close();
    await client.request('POST', `/${ACCESS_LOGS}/_refresh`);
    expect(await count(ACCESS_LOGS, { term: { path: '/kept-while-away' } })).toBe(1);
    expect(shipper).toMatchObject({ shipped: 1, dropped: 0 });
  });
});
