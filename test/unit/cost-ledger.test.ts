import {
  accumulatedUsage,
  addEtlDpuHours,
  addUsage,
  emptyCost,
  type UsageRecord,
} from '../../shared/cost-ledger';
import { tokenCostUsd } from '../../shared/pricing';

const T0 = '2026-11-22T10:00:00.000Z';
const T1 = '2026-11-22T10:05:00.000Z';

const call = (over: Partial<UsageRecord>): UsageRecord => ({
  agent_name: 'product_manager',
  phase: 'prd',
  tier: 'large',
  model: 'claude-x',
  input_tokens: 0,
  output_tokens: 0,
  call_count: 1,
  ...over,
});

describe('price table and cost arithmetic', () => {
  it('prices tokens per million, input and output apart, by tier', () => {
    expect(tokenCostUsd('large', 1_000_000, 0)).toBe(15);
    expect(tokenCostUsd('large', 0, 1_000_000)).toBe(75);
    expect(tokenCostUsd('medium', 1_000_000, 1_000_000)).toBe(18);
    expect(tokenCostUsd('small', 1_000_000, 1_000_000)).toBe(4.8);
    // 12,345 in + 6,789 out on the large tier: 0.185175 + 0.509175
    expect(tokenCostUsd('large', 12_345, 6_789)).toBe(0.69435);
  });

  it('aggregates calls per agent and phase, and totals the project', () => {
    let cost = emptyCost(T0);
    cost = addUsage(
      cost,
      [
        call({ input_tokens: 10_000, output_tokens: 2_000 }),
        call({ input_tokens: 5_000, output_tokens: 1_000 }),
      ],
      T1,
    );
    cost = addUsage(
      cost,
      [
        call({
          agent_name: 'analytics_advisor',
          phase: 'analytics_advisor',
          tier: 'medium',
          input_tokens: 20_000,
          output_tokens: 4_000,
        }),
      ],
      T1,
    );
    expect(cost.by_agent).toEqual([
      {
        agent_name: 'product_manager',
        phase: 'prd',
        tier: 'large',
        model: 'claude-x',
        input_tokens: 15_000,
        output_tokens: 3_000,
        call_count: 2,
        estimated_usd: 0.45,
      },
      {
        agent_name: 'analytics_advisor',
        phase: 'analytics_advisor',
        tier: 'medium',
        model: 'claude-x',
        input_tokens: 20_000,
        output_tokens: 4_000,
        call_count: 1,
        estimated_usd: 0.12,
      },
    ]);
    expect(cost.project_total).toEqual({
      input_tokens: 35_000,
      output_tokens: 7_000,
      total_tokens: 42_000,
      etl_dpu_hours: 0,
      estimated_usd: 0.57,
    });
    expect(cost.updated_at).toBe(T1);
    expect(accumulatedUsage(cost)).toEqual({ inputTokens: 35_000, outputTokens: 7_000, totalTokens: 42_000 });
  });

  it('counts an offline agent run as zero tokens and zero calls', () => {
    const cost = addUsage(
      emptyCost(T0),
      [call({ tier: 'large', model: 'offline-schema-analyst/1', call_count: 0 })],
      T1,
    );
    expect(cost.by_agent[0]).toMatchObject({ call_count: 0, estimated_usd: 0 });
    expect(cost.project_total.estimated_usd).toBe(0);
  });

  it('adds managed-ETL DPU-hours at 0.44 USD each', () => {
    const cost = addEtlDpuHours(addUsage(emptyCost(T0), [call({ input_tokens: 1_000_000 })], T1), 2.5, T1);
    expect(cost.project_total).toMatchObject({ etl_dpu_hours: 2.5, estimated_usd: 16.1 });
  });
});
