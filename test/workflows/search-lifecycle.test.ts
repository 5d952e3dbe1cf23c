/**
 * The lifecycle engine's workflow on the time-skipping server against a real OpenSearch node: the
 * same pass the Schedule starts, run once a day of workflow time for 92 days, walks a rolling
 * index through the self-managed tiered policy (rollover daily, warm at 7 d: read-only, allocated,
 * no replicas; cold at 30 d; deleted at 90 d) in seconds. Index ages are counted on the workflow's
 * clock from each index's creation.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { selfManagedTieredPolicy } from '../../domain/search-ops/builtin-policies';
import {
  createLifecycleActivities,
  type LifecyclePassResult,
} from '../../activities/search-ops/lifecycle-activities';
import { applyPolicy } from '../../domain/search-ops/lifecycle/apply-policy';
import { lifecycleManager } from '../../domain/search-ops/lifecycle/lifecycle-manager-for';
import { OpenSearchClient } from '../../domain/search-ops/opensearch-client';
import { bootstrapRollingIndex } from '../../domain/search-ops/rolling-index-bootstrap';
import { lifecyclePassWorkflow } from '../../workflows/search-ops/search-lifecycle';
import { leaseTestOpenSearch, type LeasedOpenSearch } from '../harness/opensearch-pool';
import { timeSkippingEnv } from '../harness/temporal-envs';
import { workersOnEveryQueue, type QueueWorkers } from '../harness/queue-workers';
import { recordHistory } from '../harness/recorded-histories';

const TASK_QUEUE = 'search-lifecycle-test';
const DAY = 86_400_000;

describe('index lifecycle workflow (time skipping, real OpenSearch node)', () => {
  let env: TestWorkflowEnvironment;
  let node: LeasedOpenSearch;
  let client: OpenSearchClient;
  let worker: QueueWorkers;
  let running: Promise<void>;
  let seq = 0;

  beforeAll(async () => {
    [env, node] = await Promise.all([timeSkippingEnv(), leaseTestOpenSearch()]);
    client = new OpenSearchClient({ url: node.url });
    worker = await workersOnEveryQueue(env, TASK_QUEUE, createLifecycleActivities({ search: client }));
    running = worker.run();
  }, 300_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
    await node?.release();
  });

  const pass = (): Promise<LifecyclePassResult> =>
    env.client.workflow.execute(lifecyclePassWorkflow, {
      taskQueue: TASK_QUEUE,
      workflowId: `lifecycle-pass-${++seq}`,
      // As the Schedule starts it. The test server skips to a finished run's pending timers while the
      // result is awaited; a short timeout keeps that skip to a minute instead of the 10-year default.
      workflowExecutionTimeout: '1 minute',
    });

  it('walks a rolling index through 90 days of the tiered policy', async () => {
    const [{ name: nodeName }] = await client.request<{ name: string }[]>(
      'GET',
      '/_cat/nodes?format=json&h=name',
    );
    const manager = await lifecycleManager(client);
    // This one-node cluster has no warm or cold nodes: both tiers require the node itself, by name.
    await applyPolicy(
      manager,
      'ts-tiered',
      selfManagedTieredPolicy('ts-logs', {
        rollover: { min_index_age: '1d' },
        attribute: '_name',
        warmValue: nodeName,
        coldValue: nodeName,
      }),
    );
    await bootstrapRollingIndex(client, 'ts-logs', { shards: 1, replicas: 1 }, false);
    await client.request('POST', '/ts-logs/_doc?refresh=true', {
      '@timestamp': new Date().toISOString(),
      message: 'day 0',
    });

    const start = (await env.currentTimeMs()) as number;
    const history: { day: number; result: LifecyclePassResult }[] = [];
    for (let day = 0; day <= 92; day++) {
      history.push({ day, result: await pass() });
      await env.sleep('1 day');
    }
    // A pass that rolled over, moved and deleted indices, kept as a replay fixture.
    await recordHistory('lifecycle-pass', env.client.workflow.getHandle(`lifecycle-pass-${seq - 2}`));
    const elapsedDays = (((await env.currentTimeMs()) as number) - start) / DAY;
    expect(elapsedDays).toBeGreaterThanOrEqual(92);

    const events = history.flatMap(({ day, result }) =>
      result.engine === 'plat' ? result.events.map((e) => ({ day, ...e })) : [],
    );
    const first = (
      index: string,
      kind: string,
      match: (e: (typeof events)[number]) => boolean = () => true,
    ) => events.find((e) => e.index === index && e.kind === kind && match(e))?.day;
    // The first index: rolled over after a day, warm at 7, cold at 30, deleted at 90 (each within a pass).
    expect(first('ts-logs-000001', 'action_completed', (e) => e.action === 'rollover')).toBe(1);
    expect(first('ts-logs-000001', 'transitioned', (e) => e.message === 'hot → warm')).toBe(7);
    expect(first('ts-logs-000001', 'transitioned', (e) => e.message === 'warm → cold')).toBe(30);
    expect(first('ts-logs-000001', 'deleted')).toBe(90);
    // No index was deleted before its 90 days, and none failed.
    expect(events.filter((e) => e.kind === 'failed')).toEqual([]);
    for (const e of events.filter((x) => x.kind === 'deleted')) {
      const n = Number(e.index.slice(-6));
      expect(e.day).toBeGreaterThanOrEqual(90 + (n - 1));
    }

    // What is left: ~90 days of daily indices; each index's state matches its age.
    const explain = (await manager.explain('ts-logs-*')) as Record<string, Record<string, never>>;
    const indices = Object.keys(explain).filter((k) => k !== 'total_managed_indices');
    expect(indices.length).toBeGreaterThanOrEqual(89);
    expect(indices).not.toContain('ts-logs-000001');
    const stateOf = (n: number) =>
      (explain[`ts-logs-${String(n).padStart(6, '0')}`] as { state?: { name: string } })?.state?.name;
    const newest = Math.max(...indices.map((i) => Number(i.slice(-6))));
    // The write index, made by the last pass's rollover, is attached and starts at the next pass.
    expect(explain[`ts-logs-${String(newest).padStart(6, '0')}`]).toMatchObject({
      policy_id: 'ts-tiered',
      info: { message: 'Pending initialization of policy ts-tiered' },
    });
    expect(stateOf(newest - 1)).toBe('hot');
    expect(stateOf(newest - 10)).toBe('warm');
    expect(stateOf(newest - 40)).toBe('cold');
    // Warm did its work on the cluster: write block, allocation filter, no replicas.
    const warm = `ts-logs-${String(newest - 10).padStart(6, '0')}`;
    const settings = await client.request<Record<string, { settings: { index: Record<string, unknown> } }>>(
      'GET',
      `/${warm}/_settings`,
    );
    expect(settings[warm].settings.index).toMatchObject({
      blocks: { write: 'true' },
      number_of_replicas: '0',
      routing: { allocation: { require: { _name: nodeName } } },
    });
  }, 600_000);
});
