/**
 * The cost reporter (docs/requirements.md#alarms-and-constants; every 5 minutes on a Temporal Schedule): publishes each recently
 * active project's token totals, model calls and estimated cost as metrics (plat/Costs with a
 * ProjectId dimension → Prometheus gauges labelled project_id). Totals, not deltas: a rerun is harmless.
 */
import type { ProjectStore } from '../../domain/metadata-store/project-store';

export interface CostGauges {
  setProjectCost(
    projectId: string,
    totals: { input: number; output: number; total: number; calls: number; usd: number },
  ): void;
}

export interface CostReport {
  projects: number;
  total_tokens: number;
  estimated_usd: number;
}

export function createCostReportActivities(deps: { store: ProjectStore; gauges?: CostGauges }) {
  return {
    async reportCosts(windowMinutes: number): Promise<CostReport> {
      const since = new Date(Date.now() - windowMinutes * 60_000).toISOString();
      const costs = await deps.store.costsUpdatedSince(since);
      let tokens = 0;
      let usd = 0;
      for (const { project_id, cost } of costs) {
        const t = cost.project_total;
        const calls = cost.by_agent.reduce((n, a) => n + a.call_count, 0);
        deps.gauges?.setProjectCost(project_id, {
          input: t.input_tokens,
          output: t.output_tokens,
          total: t.total_tokens,
          calls,
          usd: t.estimated_usd,
        });
        tokens += t.total_tokens;
        usd += t.estimated_usd;
      }
      return { projects: costs.length, total_tokens: tokens, estimated_usd: Math.round(usd * 1e6) / 1e6 };
    },
  };
}
