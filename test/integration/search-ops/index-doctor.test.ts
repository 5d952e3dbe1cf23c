/**
 * `doctor` on a real OpenSearch node: each of the four broken set-ups of the search-lifecycle
 * requirements is built for real, and doctor names its cause and the fix; a healthy rolling index
 * has no problem.
 */
import { diagnose, type DoctorReport } from '../../../domain/search-ops/index-doctor';
import { applyPolicy } from '../../../domain/search-ops/lifecycle/apply-policy';
import { lifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { lifecyclePass } from '../../../domain/search-ops/lifecycle/lifecycle-pass';
import { setUpRollingIndex } from '../../../domain/search-ops/lifecycle/rolling-index-setup';
import { retentionPolicy } from '../../../domain/search-ops/builtin-policies';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';

describe('index doctor (real OpenSearch node)', () => {
  let node: LeasedOpenSearch;
  let client: OpenSearchClient;
  const small = { shards: 1, replicas: 0 };

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    client = new OpenSearchClient({ url: node.url });
  }, 300_000);
  afterAll(async () => {
    await node?.release();
  });

  const problem = (report: DoctorReport, symptom: number) =>
    report.findings.find((f) => f.symptom === symptom && f.status === 'problem');

  it('finds nothing wrong with a rolling index bootstrapped by plat', async () => {
    await setUpRollingIndex(client, 'doc-ok', small);
    const report = await diagnose(client, 'doc-ok');
    expect(report).toMatchObject({ engine: 'plat', write_index: 'doc-ok-000001', problems: 0 });
    expect(report.findings.map((f) => f.symptom)).toEqual([1, 2, 3, 4]);
    expect(report.findings[3].detail).toContain('message → message.keyword');
  });

  it('1: the next index not matched by the rolling template, or another template winning', async () => {
    await setUpRollingIndex(client, 'doc-shadow', small);
    await client.request('PUT', '/_index_template/catch-all-docs', {
      index_patterns: ['doc-shadow-*'],
      priority: 500,
      template: { settings: { number_of_shards: 1 } },
    });
    expect(problem(await diagnose(client, 'doc-shadow'), 1)).toMatchObject({
      detail: expect.stringMatching(
        /template catch-all-docs \(priority 500\) wins over doc-shadow \(priority 100\)/,
      ),
      fix: expect.stringMatching(/raise the priority of doc-shadow/),
    });

    await setUpRollingIndex(client, 'doc-notpl', small);
    await client.request('DELETE', '/_index_template/doc-notpl');
    expect(problem(await diagnose(client, 'doc-notpl'), 1)?.detail).toMatch(
      /no index template matches doc-notpl-000002/,
    );
  });

  it('1: a managed index whose rollover has no alias to roll', async () => {
    await setUpRollingIndex(client, 'doc-orphan', small);
    await client.request('PUT', '/doc-orphan-000050');
    const manager = await lifecycleManager(client);
    await manager.addPolicy('doc-orphan-000050', 'doc-orphan-lifecycle');
    await lifecyclePass(client, Date.now());
    expect(problem(await diagnose(client, 'doc-orphan'), 1)).toMatchObject({
      detail: expect.stringMatching(/rollover of doc-orphan-000050 failed: Missing rollover alias/),
    });
  });

  it('2: no write index on the alias, writers on a concrete index name, an index named like the alias', async () => {
    for (const index of ['doc-nowrite-000001', 'doc-nowrite-000002'])
      await client.request('PUT', `/${index}`, { aliases: { 'doc-nowrite': {} } });
    expect(problem(await diagnose(client, 'doc-nowrite'), 2)?.detail).toMatch(/none is its write index/);

    await setUpRollingIndex(client, 'doc-stray', small);
    await client.request('POST', '/doc-stray/_rollover');
    // A writer still using the first index's name after the rollover.
    await client.request('POST', '/doc-stray-000001/_doc?refresh=true', {
      '@timestamp': new Date(Date.now() + 1000).toISOString(),
      message: 'late write',
    });
    expect(problem(await diagnose(client, 'doc-stray'), 2)).toMatchObject({
      detail: expect.stringMatching(
        /1 documents in doc-stray-000001 are newer than the rollover to doc-stray-000002: writers use a concrete index name/,
      ),
      fix: expect.stringMatching(/point every writer at the alias doc-stray/),
    });

    await client.request('PUT', '/doc-concrete');
    expect(problem(await diagnose(client, 'doc-concrete'), 2)?.detail).toMatch(
      /is a concrete index, not an alias/,
    );
  });

  it('3: the ism_template does not match, or the index predates the policy', async () => {
    const manager = await lifecycleManager(client);
    await setUpRollingIndex(client, 'doc-typo', small, { policy: 'none' });
    await applyPolicy(manager, 'typo-policy', { ...retentionPolicy('doctypo'), description: 'pattern typo' });
    expect(problem(await diagnose(client, 'doc-typo'), 3)).toMatchObject({
      detail: expect.stringMatching(
        /no policy's ism_template matches doc-typo-000001 \(patterns: .*doctypo-\* in typo-policy/,
      ),
    });

    await setUpRollingIndex(client, 'doc-late', small, { policy: 'none' });
    await applyPolicy(manager, 'late-policy', retentionPolicy('doc-late'));
    expect(problem(await diagnose(client, 'doc-late'), 3)).toMatchObject({
      detail: expect.stringMatching(/created before the ism_template of late-policy/),
      fix: "plat index attach 'doc-late-*' late-policy",
    });
  });

  it('4: an aggregation on a text field: its keyword sub-field, or the fix when it has none', async () => {
    expect(problem(await diagnose(client, 'doc-ok', { field: 'message' }), 4)?.fix).toBe(
      'aggregate on message.keyword instead',
    );
    await setUpRollingIndex(client, 'doc-body', { ...small, properties: { body: { type: 'text' } } });
    expect(problem(await diagnose(client, 'doc-body', { field: 'body' }), 4)?.detail).toMatch(
      /body is a text field without a keyword sub-field/,
    );
    expect((await diagnose(client, 'doc-ok', { field: '@timestamp' })).findings[3].status).toBe('ok');
  });
});
