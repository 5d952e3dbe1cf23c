/**
 * POST /v1/projects/{id}/query: read-only SQL against `plat_<id>_<layer>` through the project's
 * warehouse engine, whose `query` is the sandbox (one SELECT, the project's own data only, row and
 * time caps; docs/architecture.md#one-warehouse-query-path). This file is the HTTP side: the
 * request's limits and each refusal's status.
 */
import { z } from 'zod';
import { WarehouseQueryError, type WarehouseEngine } from '../../domain/warehouse/warehouse-engine';
import { layerDatabaseName } from '../../domain/warehouse/warehouse-layout';
import { fitAnswer } from '../../domain/warehouse/answer-size';
import { layerNames } from '../../shared/prd-schema';
import { HttpError } from '../http-errors';

export const warehouseQuerySchema = z
  .object({
    sql: z.string().min(1).max(100_000),
    layer: z.enum(layerNames).default('ods'),
    max_rows: z.number().int().min(1).max(10_000).default(1000),
    timeout_ms: z.number().int().min(100).max(60_000).default(15_000),
  })
  .strict();

export type WarehouseQuery = z.output<typeof warehouseQuerySchema>;

export interface WarehouseQueryResult {
  database: string;
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  duration_ms: number;
}

/** The status and code each refusal is answered with. */
const STATUS: Record<WarehouseQueryError['reason'], [number, string]> = {
  invalid_sql: [400, 'invalid_sql'],
  read_only: [400, 'read_only'],
  not_allowed: [400, 'not_allowed'],
  failed: [400, 'query_failed'],
  timeout: [408, 'query_timeout'],
  layer_not_built: [409, 'layer_not_built'],
};

export async function queryWarehouse(
  engine: Pick<WarehouseEngine, 'query'>,
  projectId: string,
  q: WarehouseQuery,
): Promise<WarehouseQueryResult> {
  const started = Date.now();
  try {
    const out = fitAnswer(await engine.query(projectId, q.sql, q.max_rows, q.layer, q.timeout_ms));
    return {
      database: layerDatabaseName(projectId, q.layer),
      columns: out.columns,
      rows: out.rows,
      row_count: out.rows.length,
      truncated: out.truncated,
      duration_ms: Date.now() - started,
    };
  } catch (err) {
    if (err instanceof WarehouseQueryError) {
      const [status, code] = STATUS[err.reason];
      throw new HttpError(status, code, err.message + otherLayerHint(err.message, q.layer));
    }
    throw err;
  }
}

/**
 * ` (the query ran on layer ods; ads_sales_kpi_daily is in layer ads: send "layer": "ads")` when a
 * table the query names is missing and its name starts with another layer's: plat names every
 * DWD/DWS/ADS table after its layer, and the layer a query reads defaults to ODS.
 */
function otherLayerHint(message: string, layer: (typeof layerNames)[number]): string {
  const table = /Table with name "?([A-Za-z0-9_]+)"? does not exist/.exec(message)?.[1];
  const other = layerNames.find((l) => l !== layer && table?.toLowerCase().startsWith(`${l}_`));
  return table && other
    ? ` (the query ran on layer ${layer}; ${table} is in layer ${other}: send "layer": "${other}")`
    : '';
}
