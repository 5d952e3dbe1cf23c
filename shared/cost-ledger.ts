/**
 * The project's cost record (docs/requirements.md#cost-record): token usage of every model call, per agent and phase,
 * plus ETL DPU-hours. Pure functions over plain data, so the workflow owns the record.
 */
import { ETL_USD_PER_DPU_HOUR, roundUsd, tokenCostUsd, type ModelTier } from './pricing';

/** One model call's usage (or an agent run that made none: call_count 0). */
export interface UsageRecord {
  agent_name: string;
  phase: string;
  tier: ModelTier;
  model: string;
  input_tokens: number;
  output_tokens: number;
  call_count: number;
}

export interface AgentCost {
  agent_name: string;
  phase: string;
  /** The price tier and model of the agent's latest call (absent on records written before they were kept). */
  tier?: ModelTier;
  model?: string;
  input_tokens: number;
  output_tokens: number;
  call_count: number;
  estimated_usd: number;
}

export interface CostRecord {
  project_total: {
    input_tokens: number;
    output_tokens: number;
    total_tokens: number;
    etl_dpu_hours: number;
    estimated_usd: number;
  };
  by_agent: AgentCost[];
  updated_at: string;
}

/** Mirror of the agent runtime's raw usage counters (`accumulated_usage`, docs/requirements.md#cost-record). */
export interface AccumulatedUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export function emptyCost(now: string): CostRecord {
  return {
    project_total: { input_tokens: 0, output_tokens: 0, total_tokens: 0, etl_dpu_hours: 0, estimated_usd: 0 },
    by_agent: [],
    updated_at: now,
  };
}

/** Adds usage records; agents are keyed by (agent_name, phase). Returns a new record. */
export function addUsage(cost: CostRecord, records: UsageRecord[], now: string): CostRecord {
  const byAgent = cost.by_agent.map((a) => ({ ...a }));
  for (const r of records) {
    let entry = byAgent.find((a) => a.agent_name === r.agent_name && a.phase === r.phase);
    if (!entry) {
      entry = {
        agent_name: r.agent_name,
        phase: r.phase,
        input_tokens: 0,
        output_tokens: 0,
        call_count: 0,
        estimated_usd: 0,
      };
      byAgent.push(entry);
    }
    entry.tier = r.tier;
    entry.model = r.model;
    entry.input_tokens += r.input_tokens;
    entry.output_tokens += r.output_tokens;
    entry.call_count += r.call_count;
    entry.estimated_usd = roundUsd(
      entry.estimated_usd + tokenCostUsd(r.tier, r.input_tokens, r.output_tokens),
    );
  }
  return withTotals({ ...cost, by_agent: byAgent }, cost.project_total.etl_dpu_hours, now);
}

/** Adds DPU-hours of managed ETL to the record. */
export function addEtlDpuHours(cost: CostRecord, dpuHours: number, now: string): CostRecord {
  return withTotals(cost, cost.project_total.etl_dpu_hours + dpuHours, now);
}

function withTotals(cost: CostRecord, etlDpuHours: number, now: string): CostRecord {
  const input = cost.by_agent.reduce((n, a) => n + a.input_tokens, 0);
  const output = cost.by_agent.reduce((n, a) => n + a.output_tokens, 0);
  const tokenUsd = cost.by_agent.reduce((n, a) => n + a.estimated_usd, 0);
  return {
    by_agent: cost.by_agent,
    project_total: {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      etl_dpu_hours: etlDpuHours,
      estimated_usd: roundUsd(tokenUsd + etlDpuHours * ETL_USD_PER_DPU_HOUR),
    },
    updated_at: now,
  };
}

export function accumulatedUsage(cost: CostRecord): AccumulatedUsage {
  const t = cost.project_total;
  return { inputTokens: t.input_tokens, outputTokens: t.output_tokens, totalTokens: t.total_tokens };
}
