/** Model price table (docs/requirements.md#alarms-and-constants) and cost arithmetic. Pure: safe in workflows. */

/** USD per million tokens, input / output, per model tier. */
export const PRICE_TABLE = {
  large: { input: 15, output: 75 },
  medium: { input: 3, output: 15 },
  small: { input: 0.8, output: 4 },
} as const;

export type ModelTier = keyof typeof PRICE_TABLE;

/** USD per DPU-hour of managed ETL (AWS Glue standard); 0 DPU-hours on the embedded engine. */
export const ETL_USD_PER_DPU_HOUR = 0.44;

/** Rounds USD to micro-dollars so sums stay stable. */
export const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

export function tokenCostUsd(tier: ModelTier, inputTokens: number, outputTokens: number): number {
  const price = PRICE_TABLE[tier];
  return roundUsd((inputTokens * price.input + outputTokens * price.output) / 1_000_000);
}
