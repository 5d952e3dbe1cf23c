/**
 * A PRD's metric SQL is data a tenant wrote (docs/security.md#tenant-sql): a `modify` whose metric
 * is no SELECT the warehouse would run for a tenant is refused before it reaches a worker, naming
 * each metric and why.
 */
import type { Prd } from '../../shared/prd-schema';
import { tenantSqlRefusal } from '../../domain/warehouse/tenant-sql';
import { HttpError } from '../http-errors';

/** Throws 422 `invalid_prd` with a detail per refused metric (`metrics.3.sql`); returns when all may run. */
export async function refuseTenantMetrics(prd: Prd): Promise<void> {
  const details: { field: string; message: string }[] = [];
  for (const [i, metric] of prd.metrics.entries()) {
    const refusal = await tenantSqlRefusal(metric.sql);
    if (refusal) details.push({ field: `metrics.${i}.sql`, message: `${metric.name}: ${refusal.message}` });
  }
  if (details.length)
    throw new HttpError(
      422,
      'invalid_prd',
      details.map((d) => `${d.field}: ${d.message}`).join('; '),
      details,
    );
}
