/**
 * The worker's Prometheus metrics (docs/requirements.md#alarms-and-constants): project failures (plat/ProjectFailures), finished
 * projects by status and model tokens, counted from events as they are first stored (a retried
 * activity does not count twice). Served at /metrics on PLAT_WORKER_METRICS_PORT.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { CostGauges } from '../activities/cost/cost-report-activities';
import type { CostRecord } from '../shared/cost-ledger';
import type { ProjectEvent } from '../shared/project-model';

export interface WorkerMetrics extends CostGauges {
  registry: Registry;
  /** Counts what the newly stored events say happened. */
  observe(events: ProjectEvent[]): void;
}

export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'worker' });
  collectDefaultMetrics({ register: registry });
  const failures = new Counter({
    name: 'plat_project_failures_total',
    help: 'Projects that failed (a stage failed after its retries)',
    registers: [registry],
  });
  const finished = new Counter({
    name: 'plat_projects_finished_total',
    help: 'Projects that ended, by final status',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const refreshFailures = new Counter({
    name: 'plat_refresh_failures_total',
    help: 'Refreshes of a project warehouse that failed (docs/refresh.md)',
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'plat_model_tokens_total',
    help: 'Model tokens recorded, by direction',
    labelNames: ['direction'] as const,
    registers: [registry],
  });
  const lastTotals = new Map<string, { input: number; output: number }>();
  const ended: Record<string, string> = {
    project_failed: 'failed',
    project_completed: 'completed',
    project_terminated: 'terminated',
    project_cancelled: 'cancelled',
  };
  return {
    registry,
    setProjectCost: projectCostGauges(registry),
    observe(events) {
      for (const e of events) {
        if (e.event_type === 'project_failed') failures.inc();
        if (e.payload?.refresh_status === 'failed') refreshFailures.inc();
        if (ended[e.event_type]) finished.inc({ status: ended[e.event_type] });
        if (e.event_type === 'cost_update') {
          // The update's own tokens: each event is stored, so counted, by one replica only.
          const added = e.payload?.added as { input_tokens: number; output_tokens: number } | undefined;
          if (added) {
            tokens.inc({ direction: 'input' }, added.input_tokens);
            tokens.inc({ direction: 'output' }, added.output_tokens);
            continue;
          }
          // Older projects' updates carry running totals only: the growth since the last one seen here.
          const total = (e.payload?.cost as CostRecord | undefined)?.project_total;
          if (!total) continue;
          const before = lastTotals.get(e.project_id) ?? { input: 0, output: 0 };
          tokens.inc({ direction: 'input' }, Math.max(0, total.input_tokens - before.input));
          tokens.inc({ direction: 'output' }, Math.max(0, total.output_tokens - before.output));
          lastTotals.set(e.project_id, { input: total.input_tokens, output: total.output_tokens });
        }
      }
    },
  };
}

/** The cost reporter's gauges per project (tokens, model calls, USD), and their setter. */
function projectCostGauges(registry: Registry): CostGauges['setProjectCost'] {
  const costLabels = ['project_id'] as const;
  const projectTokens = new Gauge({
    name: 'plat_costs_tokens',
    help: 'Tokens per project (cost reporter)',
    labelNames: ['project_id', 'kind'] as const,
    registers: [registry],
  });
  const projectCalls = new Gauge({
    name: 'plat_costs_model_calls',
    help: 'Model calls per project (cost reporter)',
    labelNames: costLabels,
    registers: [registry],
  });
  const projectUsd = new Gauge({
    name: 'plat_costs_estimated_usd',
    help: 'Estimated USD per project (cost reporter)',
    labelNames: costLabels,
    registers: [registry],
  });
  return (projectId, t) => {
    projectTokens.set({ project_id: projectId, kind: 'input' }, t.input);
    projectTokens.set({ project_id: projectId, kind: 'output' }, t.output);
    projectTokens.set({ project_id: projectId, kind: 'total' }, t.total);
    projectCalls.set({ project_id: projectId }, t.calls);
    projectUsd.set({ project_id: projectId }, t.usd);
  };
}

/** Serves `registry` at GET /metrics, followed by `more` (the SDK's own metrics) when given. */
export function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
  more?: () => Promise<string>,
): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    const [ours, theirs] = await Promise.all([registry.metrics(), more?.() ?? '']);
    res.writeHead(200, { 'content-type': registry.contentType }).end(theirs ? `${ours}\n${theirs}` : ours);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
