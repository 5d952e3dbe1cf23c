/**
 * The ISM path: where the cluster lists the ISM plugin, plat writes policies to `_plugins/_ism`,
 * attaches them, reads ISM's explain, and its own engine stands aside. Tested against a wire-format
 * FAKE of `_plugins/_ism/*` in front of a real node (test/harness/fake-ism.ts; it says it is one),
 * and against a real cluster with ISM when OPENSEARCH_URL names one (skipped otherwise).
 */
import { retentionPolicy } from '../../../domain/search-ops/builtin-policies';
import { createLifecycleActivities } from '../../../activities/search-ops/lifecycle-activities';
import { applyPolicy } from '../../../domain/search-ops/lifecycle/apply-policy';
import type { LifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager';
import { lifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { bootstrapRollingIndex, ISM_PLUGIN } from '../../../domain/search-ops/rolling-index-bootstrap';
import { startFakeIsm, type FakeIsm } from '../../harness/fake-ism';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';

/** The same checks on any cluster whose ISM answers (the fake, or a real one). */
async function ismScenario(
  client: OpenSearchClient,
  prefix: string,
  ism: boolean,
): Promise<LifecycleManager> {
  const manager = await lifecycleManager(client);
  expect(manager.engine).toBe('ism');
  const name = `${prefix}-logs`;
  const policyId = `${prefix}-retention`;
  await manager.deletePolicy(policyId);
  // The first index before the policy: its ism_template claims only indices created after it.
  // With ISM the template carries the rollover_alias setting; the fake's node refuses that setting.
  await bootstrapRollingIndex(client, name, { shards: 1, replicas: 0 }, ism);
  const policy = retentionPolicy(name, { days: 30 });
  expect((await applyPolicy(manager, policyId, policy)).result).toBe('created');
  // ISM stores the policy with defaults spelt out (each action's retry): still the same policy.
  expect((await applyPolicy(manager, policyId, policy)).result).toBe('unchanged');
  const updated = await applyPolicy(manager, policyId, retentionPolicy(name, { days: 14 }));
  expect(updated.result).toBe('updated');

  expect(await manager.addPolicy(`${name}-*`, policyId)).toEqual({
    updated_indices: 1,
    failures: false,
    failed_indices: [],
  });
  const explain = (await manager.explain(`${name}-000001`)) as Record<string, Record<string, unknown>>;
  expect(explain[`${name}-000001`]).toMatchObject({ policy_id: policyId });
  expect(explain.total_managed_indices).toBe(1);
  expect((await manager.retry(`${name}-000001`)).failed_indices[0].reason).toMatch(/not in failed state/);
  expect((await manager.removePolicy(`${name}-000001`)).updated_indices).toBe(1);
  expect(await manager.deletePolicy(policyId)).toBe(true);
  return manager;
}

describe('lifecycle through ISM (wire-format fake of _plugins/_ism in front of a real node)', () => {
  let node: LeasedOpenSearch;
  let fake: FakeIsm;
  let client: OpenSearchClient;

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    fake = await startFakeIsm(node.url);
    client = new OpenSearchClient({ url: fake.url });
  }, 300_000);
  afterAll(async () => {
    await fake?.stop();
    await node?.release();
  });

  it('writes, attaches, explains, retries and removes through _plugins/_ism', async () => {
    await ismScenario(client, 'fake', false);
    expect(fake.calls).toEqual(
      expect.arrayContaining([
        'PUT /_plugins/_ism/policies/fake-retention',
        'POST /_plugins/_ism/add/fake-logs-*',
        'GET /_plugins/_ism/explain/fake-logs-000001',
      ]),
    );
    // plat's own store was never touched: ISM keeps the state.
    expect(
      await new OpenSearchClient({ url: node.url }).getOrUndefined('/plat-lifecycle-policies'),
    ).toBeUndefined();
  });

  it('sends an update with the revision it replaces, as ISM requires', async () => {
    const manager = await lifecycleManager(client);
    await applyPolicy(manager, 'versioned', retentionPolicy('v-logs'));
    await expect(
      manager.putPolicy('versioned', retentionPolicy('v-logs', { days: 7 }), {
        seq_no: 999,
        primary_term: 1,
      }),
    ).rejects.toMatchObject({ status: 409, type: 'version_conflict_engine_exception' });
    expect((await applyPolicy(manager, 'versioned', retentionPolicy('v-logs', { days: 7 }))).result).toBe(
      'updated',
    );
  });

  it('leaves the lifecycle pass to ISM', async () => {
    const result = await createLifecycleActivities({ search: client }).runLifecyclePass({ now: Date.now() });
    expect(result).toEqual({
      engine: 'ism',
      skipped: 'the cluster runs ISM, which applies the policies itself',
    });
  });
});

const ismUrl = process.env.OPENSEARCH_URL;
(ismUrl ? describe : describe.skip)(
  'lifecycle through a real cluster with ISM (set OPENSEARCH_URL to one to run)',
  () => {
    it('writes, attaches, explains, retries and removes through the real plugin', async () => {
      const client = new OpenSearchClient({ url: ismUrl! });
      if (!(await client.plugins()).includes(ISM_PLUGIN))
        throw new Error(
          `OPENSEARCH_URL=${ismUrl} has no ${ISM_PLUGIN} plugin: point it at a cluster with ISM, or unset it`,
        );
      await ismScenario(client, `plat-test-${Date.now()}`, true);
    });
  },
);
