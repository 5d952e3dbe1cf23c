/**
 * A project's `/query` answered on the host that holds its files (docs/fleet.md#project-files): the
 * gateway of another host runs it here through this host's queue. Refusals come back as values, so
 * the gateway answers them exactly as it would a local query.
 */
import type { LayerName } from '../../shared/prd-schema';
import {
  WarehouseQueryError,
  type QueryRows,
  type WarehouseEngine,
  type WarehouseQueryFailure,
} from '../../domain/warehouse/warehouse-engine';

export interface HostQueryRequest {
  project_id: string;
  sql: string;
  max_rows: number;
  layer: LayerName;
  timeout_ms: number;
}

export type HostQueryAnswer =
  { rows: QueryRows } | { refused: { reason: WarehouseQueryFailure; message: string } };

/** Temporal refuses payloads over 2 MB: rows beyond this much JSON are cut and the answer marked truncated. */
const MAX_ANSWER_BYTES = 1_500_000;

export function createWarehouseQueryActivities({ engine }: { engine: WarehouseEngine }) {
  return {
    async queryProjectWarehouse(req: HostQueryRequest): Promise<HostQueryAnswer> {
      try {
        const out = await engine.query(req.project_id, req.sql, req.max_rows, req.layer, req.timeout_ms);
        return { rows: fitted(out) };
      } catch (err) {
        if (err instanceof WarehouseQueryError)
          return { refused: { reason: err.reason, message: err.message } };
        throw err;
      }
    },
  };
}

/** `out` with as many rows as fit in MAX_ANSWER_BYTES. */
function fitted(out: QueryRows): QueryRows {
  let bytes = Buffer.byteLength(JSON.stringify(out.columns));
  for (let i = 0; i < out.rows.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(out.rows[i])) + 1;
    if (bytes > MAX_ANSWER_BYTES) return { ...out, rows: out.rows.slice(0, i), truncated: true };
  }
  return out;
}

export type WarehouseQueryActivities = ReturnType<typeof createWarehouseQueryActivities>;
