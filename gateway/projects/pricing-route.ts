/** `GET /v1/pricing`: the price table every cost figure is computed from, for the cost page. */
import { z } from 'zod';
import { ETL_USD_PER_DPU_HOUR, PRICE_TABLE } from '../../shared/pricing';
import { apiRoute, type ApiRoute } from '../api/api-route';

const tierPrice = z.object({ input: z.number(), output: z.number() });
const pricingSchema = z.object({
  currency: z.literal('USD'),
  token_unit: z.literal('per million tokens'),
  tiers: z.record(z.string(), tierPrice).describe('USD per million input and output tokens, per model tier'),
  etl_usd_per_dpu_hour: z.number(),
});

export function pricingRoute(): ApiRoute {
  return apiRoute({
    operationId: 'pricing',
    method: 'get',
    path: '/v1/pricing',
    summary: 'The price table: USD per million tokens per model tier, and per DPU-hour of managed ETL',
    secured: false,
    responses: { 200: { description: 'the price table', schema: pricingSchema } },
    handle: () => ({
      currency: 'USD' as const,
      token_unit: 'per million tokens' as const,
      tiers: PRICE_TABLE,
      etl_usd_per_dpu_hour: ETL_USD_PER_DPU_HOUR,
    }),
  });
}
