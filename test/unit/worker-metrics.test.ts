/**
 * The worker's token counter sums correctly across replicas: a project's cost updates are stored, so
 * counted, by whichever replica saved that step, and the replicas' counters add up to the project's
 * total, none counted twice.
 */
import type { ProjectEvent } from '../../shared/project-model';
import { createWorkerMetrics } from '../../workers/worker-metrics';

const update = (
  n: number,
  totalIn: number,
  totalOut: number,
  addedIn: number,
  addedOut: number,
): ProjectEvent => ({
  event_key: `p1:wf:${n}`,
  project_id: 'p1',
  event_type: 'cost_update',
  phase: 'prd',
  status: 'running',
  message: 'cost',
  timestamp: new Date().toISOString(),
  payload: {
    cost: { project_total: { input_tokens: totalIn, output_tokens: totalOut } },
    added: { input_tokens: addedIn, output_tokens: addedOut },
  },
});

async function tokens(metrics: ReturnType<typeof createWorkerMetrics>) {
  const { values } = await metrics.registry.getSingleMetric('plat_model_tokens_total')!.get();
  return Object.fromEntries(values.map((v) => [v.labels.direction, v.value]));
}

test('two replicas storing one project’s cost updates in turn count its tokens once', async () => {
  const [a, b] = [createWorkerMetrics(), createWorkerMetrics()];
  a.observe([update(1, 1000, 500, 1000, 500)]);
  b.observe([update(2, 1600, 900, 600, 400)]);
  a.observe([update(3, 1700, 950, 100, 50)]);
  const [onA, onB] = [await tokens(a), await tokens(b)];
  expect({ input: onA.input + onB.input, output: onA.output + onB.output }).toEqual({
    input: 1700,
    output: 950,
  });
});

test('a refresh that ended failed is counted; one that completed is not', async () => {
  const metrics = createWorkerMetrics();
  const end = (n: number, status: string): ProjectEvent => ({
    event_key: `r${n}:end`,
    project_id: 'p1',
    event_type: 'log_entry',
    phase: 'data_ingestion',
    status,
    message: `refresh r${n} ${status}`,
    timestamp: new Date().toISOString(),
    payload: { refresh_id: `r${n}`, refresh_status: status },
  });
  metrics.observe([end(1, 'failed'), end(2, 'completed'), end(3, 'failed')]);
  const { values } = await metrics.registry.getSingleMetric('plat_refresh_failures_total')!.get();
  expect(values.map((v) => v.value)).toEqual([2]);
});
