/**
 * plat's lifecycle engine on a real OpenSearch node without ISM: policies stored and validated,
 * attached to existing indices (add) and to new ones (ism_template), explain in ISM's shape, rollover
 * when any minimum is met, a failed action reported, retried after its backoff and restarted by
 * `retry`, and records of indices deleted by hand dropped. The engine's clock is passed in, as the
 * workflow does; days pass by moving it.
 */
import { applyPolicy, PolicyInvalid } from '../../../domain/search-ops/lifecycle/apply-policy';
import { lifecyclePass } from '../../../domain/search-ops/lifecycle/lifecycle-pass';
import type { LifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager';
import { lifecycleManager } from '../../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { retentionPolicy, tieredPolicy } from '../../../domain/search-ops/builtin-policies';
import { OpenSearchClient } from '../../../domain/search-ops/opensearch-client';
import { bootstrapRollingIndex } from '../../../domain/search-ops/rolling-index-bootstrap';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../../harness/opensearch-pool';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('lifecycle engine (real OpenSearch node, no ISM)', () => {
  let node: LeasedOpenSearch;
  let client: OpenSearchClient;
  let manager: LifecycleManager;

  beforeAll(async () => {
    node = await leaseTestOpenSearch();
    client = new OpenSearchClient({ url: node.url });
    manager = await lifecycleManager(client);
  }, 300_000);
  afterAll(async () => {
    await node?.release();
  });

  const explain = async (index: string) =>
    ((await manager.explain(index)) as Record<string, Record<string, unknown>>)[index];

  it('stores policies idempotently and refuses invalid ones before writing', async () => {
    expect(manager.engine).toBe('plat');
    const policy = retentionPolicy('pol-logs', { days: 30 });
    expect((await applyPolicy(manager, 'pol-retention', policy)).result).toBe('created');
    expect((await applyPolicy(manager, 'pol-retention', policy)).result).toBe('unchanged');
    const changed = await applyPolicy(manager, 'pol-retention', retentionPolicy('pol-logs', { days: 14 }));
    expect(changed.result).toBe('updated');
    expect(JSON.stringify(changed.policy.policy.states)).toContain('14d');

    // The managed-domain actions are refused on a self-managed cluster, naming what to use.
    const err = await applyPolicy(manager, 'pol-tiered', tieredPolicy('pol-logs')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyInvalid);
    expect((err as PolicyInvalid).problems.map((p) => p.message).join(' ')).toMatch(
      /warm_migration exists only on a managed domain.*read_only, allocation/,
    );
    expect(await manager.getPolicy('pol-tiered')).toBeUndefined();
  });

  it('attaches existing indices by add, new ones by ism_template, and rolls over on any minimum met', async () => {
    await bootstrapRollingIndex(client, 'eng-logs', { shards: 1, replicas: 0 }, false);
    // The policy comes after the first index: ISM's rule, and plat's, is that its template does not claim it.
    await applyPolicy(manager, 'eng-policy', {
      ...retentionPolicy('eng-logs', { days: 30, rollover: { min_index_age: '1d', min_doc_count: 3 } }),
    });
    const t0 = Date.now();
    await lifecyclePass(client, t0);
    expect(await explain('eng-logs-000001')).toMatchObject({
      'index.plugins.index_state_management.policy_id': null,
      enabled: null,
    });

    expect(await manager.addPolicy('eng-logs-*', 'eng-policy')).toEqual({
      updated_indices: 1,
      failures: false,
      failed_indices: [],
    });
    const again = await manager.addPolicy('eng-logs-*', 'eng-policy');
    expect(again.failed_indices[0].reason).toMatch(/already has a policy/);
    await expect(manager.addPolicy('eng-logs-*', 'no-such-policy')).rejects.toThrow(/Could not find policy/);

    // First pass: initialised into hot, rollover attempted, thresholds not met.
    const p1 = await lifecyclePass(client, t0 + HOUR);
    expect(p1.events.map((e) => e.kind)).toContain('initialized');
    expect(await explain('eng-logs-000001')).toMatchObject({
      policy_id: 'eng-policy',
      state: { name: 'hot' },
      action: { name: 'rollover', failed: false },
      step: { name: 'attempt_rollover', step_status: 'condition_not_met' },
      info: { message: 'Pending rollover of index [index=eng-logs-000001]' },
      enabled: true,
    });

    // A pass with nothing new to do writes nothing.
    const idle = await lifecyclePass(client, t0 + 2 * HOUR);
    expect(idle.events).toEqual([]);

    // min_doc_count met well before min_index_age: any minimum triggers the rollover.
    await client.request('POST', '/eng-logs/_doc?refresh=true', { message: 'a' });
    await client.request('POST', '/eng-logs/_doc?refresh=true', { message: 'b' });
    await client.request('POST', '/eng-logs/_doc?refresh=true', { message: 'c' });
    const p2 = await lifecyclePass(client, t0 + 3 * HOUR);
    expect(p2.events).toContainEqual(
      expect.objectContaining({ index: 'eng-logs-000001', kind: 'action_completed', action: 'rollover' }),
    );
    // The new index is attached at once by the policy's ism_template.
    expect(p2.attached).toEqual(['eng-logs-000002']);
    const aliases = await client.request<
      Record<string, { aliases: Record<string, { is_write_index?: boolean }> }>
    >('GET', '/_alias/eng-logs');
    expect(aliases['eng-logs-000002'].aliases['eng-logs'].is_write_index).toBe(true);
    expect(await explain('eng-logs-000001')).toMatchObject({
      rolled_over: true,
      'index.plugins.index_state_management.rollover_alias': 'eng-logs',
    });

    // 30 days later the old index is deleted; the write index, past 1d, rolls over in the same pass.
    const p3 = await lifecyclePass(client, t0 + 30 * DAY + 4 * HOUR);
    expect(p3.events.map((e) => `${e.index}:${e.kind}:${e.action ?? ''}`)).toEqual(
      expect.arrayContaining([
        'eng-logs-000001:transitioned:',
        'eng-logs-000001:deleted:delete',
        'eng-logs-000002:action_completed:rollover',
      ]),
    );
    expect(await client.getOrUndefined('/eng-logs-000001')).toBeUndefined();
    expect(await explain('eng-logs-000003')).toMatchObject({ policy_id: 'eng-policy' });
  });

  it('reports a failed action with its cause, retries it after its backoff, and restarts it on retry', async () => {
    // A policy that would delete a write index: the engine refuses, naming why.
    await bootstrapRollingIndex(client, 'bad-logs', { shards: 1, replicas: 0 }, false);
    await applyPolicy(manager, 'bad-policy', {
      description: 'deletes without rolling over',
      default_state: 'hot',
      states: [
        {
          name: 'hot',
          actions: [],
          transitions: [{ state_name: 'gone', conditions: { min_index_age: '1d' } }],
        },
        { name: 'gone', actions: [{ delete: {}, retry: { count: 2, backoff: 'constant', delay: '1h' } }] },
      ],
    });
    await manager.addPolicy('bad-logs-000001', 'bad-policy');
    const t0 = Date.now();
    await lifecyclePass(client, t0);
    const failed = await lifecyclePass(client, t0 + DAY + HOUR);
    expect(failed.failed).toEqual([
      expect.objectContaining({ index: 'bad-logs-000001', action: 'delete', retries_left: true }),
    ]);
    expect(await explain('bad-logs-000001')).toMatchObject({
      state: { name: 'gone' },
      action: { name: 'delete', failed: true },
      step: { step_status: 'failed' },
      info: { cause: expect.stringMatching(/still the write index of bad-logs.*roll the alias over first/) },
    });
    // Within the backoff nothing runs; after it, a retry; after two retries, it waits for `retry`.
    expect((await lifecyclePass(client, t0 + DAY + HOUR + 30 * 60_000)).events).toEqual([]);
    expect((await lifecyclePass(client, t0 + DAY + 2 * HOUR + 1)).events[0]).toMatchObject({
      kind: 'failed',
    });
    await lifecyclePass(client, t0 + DAY + 3 * HOUR + 2);
    const exhausted = await lifecyclePass(client, t0 + DAY + 9 * HOUR);
    expect(exhausted.failed).toEqual([
      expect.objectContaining({ index: 'bad-logs-000001', retries_left: false }),
    ]);
    expect(exhausted.events).toEqual([]);
    expect(await client.getOrUndefined('/bad-logs-000001')).toBeDefined();

    // The cause fixed (rolled over by hand), retry restarts the action and the pass deletes it.
    await client.request('POST', '/bad-logs/_rollover');
    expect(await manager.retry('bad-logs-000001')).toMatchObject({ updated_indices: 1, failures: false });
    const done = await lifecyclePass(client, t0 + DAY + 10 * HOUR);
    expect(done.events).toContainEqual(
      expect.objectContaining({ index: 'bad-logs-000001', kind: 'deleted' }),
    );
  });

  it('copies the other aliases on rollover (copy_alias), waits for shards to reach tagged nodes, and spreads many actions over passes', async () => {
    const manager = await lifecycleManager(client);
    await bootstrapRollingIndex(client, 'copy-logs', { shards: 1, replicas: 0 }, false);
    await client.request('POST', '/_aliases', {
      actions: [{ add: { index: 'copy-logs-000001', alias: 'copy-readers' } }],
    });
    await applyPolicy(manager, 'copy-policy', {
      default_state: 'hot',
      states: [
        {
          name: 'hot',
          actions: [{ rollover: { min_doc_count: 1, copy_alias: true } }],
          transitions: [{ state_name: 'warm', conditions: { min_index_age: '1d' } }],
        },
        // No node of this cluster carries node.attr.temp: the move waits, saying so.
        { name: 'warm', actions: [{ allocation: { require: { temp: 'warm' }, wait_for: true } }] },
      ],
    });
    await manager.addPolicy('copy-logs-000001', 'copy-policy');
    await client.request('POST', '/copy-logs/_doc?refresh=true', { message: 'one' });
    const t0 = Date.now();
    await lifecyclePass(client, t0);
    await lifecyclePass(client, t0 + HOUR);
    const aliases = await client.request<Record<string, { aliases: Record<string, unknown> }>>(
      'GET',
      '/_alias/copy-readers',
    );
    expect(Object.keys(aliases).sort()).toEqual(['copy-logs-000001', 'copy-logs-000002']);

    await lifecyclePass(client, t0 + DAY + HOUR);
    expect(await explain('copy-logs-000001')).toMatchObject({
      state: { name: 'warm' },
      action: { name: 'allocation', failed: false },
      step: { step_status: 'condition_not_met' },
      info: { message: expect.stringMatching(/1 of 1 shards not yet on nodes with temp=warm/) },
    });

    // Twelve indices due to act at once, with a budget of five actions a pass.
    for (let i = 1; i <= 12; i++)
      await client.request('PUT', `/many-${i}`, { settings: { number_of_replicas: 0 } });
    await applyPolicy(manager, 'many-policy', {
      default_state: 'ro',
      states: [{ name: 'ro', actions: [{ read_only: {} }] }],
    });
    await manager.addPolicy('many-*', 'many-policy');
    // Other tests' indices share the node and the budget: count every action of the pass.
    const acted = (p: { events: { kind: string }[] }) =>
      p.events.filter((e) => ['action_completed', 'failed', 'deleted'].includes(e.kind)).length;
    const first = await lifecyclePass(client, t0 + 2 * DAY, { maxActions: 5 });
    expect(acted(first)).toBeLessThanOrEqual(5);
    expect(first.deferred).toBeGreaterThan(0);
    let passes = 1;
    for (let p = first; p.deferred && passes < 10; passes++)
      p = await lifecyclePass(client, t0 + 2 * DAY, { maxActions: 5 });
    expect(passes).toBeGreaterThanOrEqual(3);
    const blocks = await client.request<
      Record<string, { settings: { index: { blocks?: { write?: string } } } }>
    >('GET', '/many-*/_settings?filter_path=*.settings.index.blocks');
    expect(Object.values(blocks).filter((b) => b.settings.index.blocks?.write === 'true')).toHaveLength(12);
  });

  it('drops the record of an index deleted by hand, and removes a policy on request', async () => {
    await bootstrapRollingIndex(client, 'hand-logs', { shards: 1, replicas: 0 }, false);
    await applyPolicy(manager, 'hand-policy', retentionPolicy('hand-logs'));
    await client.request('POST', '/hand-logs/_rollover');
    expect((await manager.addPolicy('hand-logs-*', 'hand-policy')).updated_indices).toBe(2);
    expect((await manager.removePolicy('hand-logs-000002')).updated_indices).toBe(1);
    expect(await explain('hand-logs-000002')).toMatchObject({ enabled: null });
    await client.request('DELETE', '/hand-logs-000001');
    const pass = await lifecyclePass(client, Date.now());
    expect(pass.events).toContainEqual(expect.objectContaining({ index: 'hand-logs-000001', kind: 'gone' }));
    expect(
      ((await manager.explain('hand-logs-*')) as { total_managed_indices: number }).total_managed_indices,
    ).toBe(0);
  });
});
