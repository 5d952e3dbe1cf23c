/** Task queues by workload (docs/fleet.md#task-queues): names, the queues a worker polls, slot settings. */
import {
  hostQueriesQueue,
  hostQueue,
  parseSlots,
  parseWorkloads,
  queuesServing,
  workloadQueue,
} from '../../shared/task-queues';

test('every queue is named after the base queue; workflows run on the base queue itself', () => {
  expect(workloadQueue('plat-platform', 'workflows')).toBe('plat-platform');
  expect(workloadQueue('plat-platform', 'agents')).toBe('plat-platform-agents');
  expect(hostQueue('plat-platform', 'db-7-3fa9c1')).toBe('plat-platform-host-db-7-3fa9c1');
  expect(hostQueriesQueue('plat-platform', 'db-7-3fa9c1')).toBe('plat-platform-host-db-7-3fa9c1-queries');
});

test('a worker serving ingestion or warehouse also polls its host queue', () => {
  expect(queuesServing(parseWorkloads('all'))).toEqual([
    'workflows',
    'agents',
    'ingestion',
    'host',
    'queries',
    'operations',
  ]);
  expect(queuesServing(parseWorkloads('agents'))).toEqual(['agents']);
  expect(queuesServing(parseWorkloads('warehouse'))).toEqual(['host', 'queries']);
  // With Athena the stages after the copy also come from the shared warehouse queue.
  expect(queuesServing(parseWorkloads('warehouse'), true)).toEqual(['host', 'queries', 'warehouse']);
  expect(queuesServing(parseWorkloads('agents,ingestion'), true)).toEqual([
    'agents',
    'ingestion',
    'host',
    'queries',
  ]);
  expect(queuesServing(parseWorkloads(' ingestion , workflows '))).toEqual([
    'workflows',
    'ingestion',
    'host',
    'queries',
  ]);
});

test('bad workloads and slots are refused, naming what is wrong', () => {
  expect(() => parseWorkloads('agents,gpu')).toThrow('(not: gpu)');
  expect(parseSlots('agents=8, host=2')).toEqual({ agents: 8, host: 2 });
  expect(parseSlots('')).toEqual({});
  expect(parseSlots('warehouse=2')).toEqual({ warehouse: 2 });
  for (const bad of ['agents', 'agents=0', 'agents=x', 'gpu=2', 'host=1001'])
    expect(() => parseSlots(bad)).toThrow(`(not: ${bad})`);
});
