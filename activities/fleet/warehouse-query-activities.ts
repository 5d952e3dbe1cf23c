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
import { fitAnswer } from '../../domain/warehouse/answer-size';

export interface HostQueryRequest {
  project_id: string;
  sql: string;
  max_rows: number;
  layer: LayerName;
  timeout_ms: number;
}

export type HostQueryAnswer =
  { rows: QueryRows } | { refused: { reason: WarehouseQueryFailure; message: string } };

export function createWarehouseQueryActivities({ engine }: { engine: WarehouseEngine }) {
  return {
    async queryProjectWarehouse(req: HostQueryRequest): Promise<HostQueryAnswer> {
      try {
        const out = await engine.query(req.project_id, req.sql, req.max_rows, req.layer, req.timeout_ms);
        return { rows: fitAnswer(out) };
      } catch (err) {
        if (err instanceof WarehouseQueryError)
          return { refused: { reason: err.reason, message: err.message } };
        throw err;
      }
    },
  };
}

export type WarehouseQueryActivities = ReturnType<typeof createWarehouseQueryActivities>;
