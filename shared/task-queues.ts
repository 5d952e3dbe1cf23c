/**
 * Task queues by workload (docs/fleet.md#task-queues). Every queue's name derives from the base
 * queue (PLAT_TASK_QUEUE), the queue workflows run on, so a workflow finds the others from its own
 * `workflowInfo().taskQueue`. Workflow-safe.
 */

/** The workloads a worker can serve; `npm run worker -- --queues …` picks some. */
export const WORKLOADS = ['workflows', 'agents', 'ingestion', 'warehouse', 'operations'] as const;
export type Workload = (typeof WORKLOADS)[number];

/** What each workload runs (the `--help` text and the docs). */
export const WORKLOAD_HELP: Record<Workload, string> = {
  workflows: 'workflow tasks and short bookkeeping activities (saving progress, host checks)',
  agents: 'the agents (model calls: PRD writing)',
  ingestion: "claiming new projects for this host, and copying their sources (on the host's queue)",
  warehouse:
    "the stages after the copy (on the queue of the host holding the project's files; with Athena, on the shared warehouse queue)",
  operations: 'memory pipelines, the search lifecycle, retention, cost reports, health pings',
};

/** The queue of one workload: the base queue itself for workflows, `<base>-<workload>` otherwise. */
export function workloadQueue(base: string, workload: Workload): string {
  return workload === 'workflows' ? base : `${base}-${workload}`;
}

/**
 * The queue of one host (worker-specific task queue): the activities that read or write a project's
 * files on that host's disk.
 */
export function hostQueue(base: string, hostId: string): string {
  return `${base}-host-${hostId}`;
}

/**
 * The queue of one host's `/query` answers: apart from its stage queue, so a copy holding every stage
 * slot never keeps an interactive query waiting. (Host ids end in six hex digits: no host id ends in
 * `-queries`.)
 */
export function hostQueriesQueue(base: string, hostId: string): string {
  return `${hostQueue(base, hostId)}-queries`;
}

/** Parses a list such as `agents,ingestion` (or `all`); throws naming the unknown workload. */
export function parseWorkloads(list: string): Workload[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0 || names.includes('all')) return [...WORKLOADS];
  const unknown = names.filter((n) => !(WORKLOADS as readonly string[]).includes(n));
  if (unknown.length) {
    throw new Error(`workloads among ${WORKLOADS.join(', ')}, or all (not: ${unknown.join(', ')})`);
  }
  return WORKLOADS.filter((w) => names.includes(w));
}

/**
 * The queues a worker polls: the shared ones, and `host`, this host's queue, which serves the
 * `ingestion` and `warehouse` workloads' stages that read or write the project's files, with
 * `queries`, the same host's `/query` answers. With Athena
 * (`stagesAnywhere`: the stages after the copy read nothing from a host's disk) a `warehouse` worker
 * also polls the shared `warehouse` queue.
 */
export const WORKER_QUEUES = [
  'workflows',
  'agents',
  'ingestion',
  'host',
  'queries',
  'warehouse',
  'operations',
] as const;
export type WorkerQueue = (typeof WORKER_QUEUES)[number];

/** The queues that serve `workloads`. */
export function queuesServing(workloads: readonly Workload[], stagesAnywhere = false): WorkerQueue[] {
  const queues = new Set<WorkerQueue>();
  for (const w of workloads) {
    if (w !== 'warehouse' || stagesAnywhere) queues.add(w);
    if (w === 'ingestion' || w === 'warehouse') queues.add('host').add('queries');
  }
  return WORKER_QUEUES.filter((q) => queues.has(q));
}

/** Parses slot limits such as `agents=4,host=2`; throws naming what is wrong. */
export function parseSlots(list: string): Partial<Record<WorkerQueue, number>> {
  const slots: Partial<Record<WorkerQueue, number>> = {};
  for (const item of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [queue, value] = item.split('=').map((s) => s.trim());
    if (
      !(WORKER_QUEUES as readonly string[]).includes(queue) ||
      !/^\d+$/.test(value ?? '') ||
      Number(value) < 1 ||
      Number(value) > 1000
    )
      throw new Error(
        `<queue>=<slots>,… with queues among ${WORKER_QUEUES.join(', ')} and slots 1-1000 (not: ${item})`,
      );
    slots[queue as WorkerQueue] = Number(value);
  }
  return slots;
}
