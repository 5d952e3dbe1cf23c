/**
 * What the warehouse's parent process and a warehouse child say to each other
 * (docs/security.md#warehouse-processes): requests carry an id, answers name it. A child serves one
 * lease at a time, so it holds at most one session (a query session or a read session).
 */
import type { LayerName } from '../../../shared/prd-schema';
import type { ReadSessionLimits } from '../duckdb-read-query';
import type { DuckDbSessionLimits } from '../duckdb-warehouse';
import {
  LayerBuildError,
  WarehouseQueryError,
  type LayerTableSpec,
  type TableScope,
  type DayRange,
  type WarehouseQueryFailure,
} from '../warehouse-engine';

/** What a child is started with (as its one argument, JSON). */
export interface WarehouseChildSettings {
  limits: DuckDbSessionLimits;
}

/** The operations a child runs, by name, with their arguments. */
export interface WarehouseChildOps {
  query: [projectId: string, sql: string, maxRows: number, defaultLayer?: LayerName, timeoutMs?: number];
  buildLayer: [projectId: string, layer: LayerName, tables: LayerTableSpec[]];
  refreshLayer: [
    projectId: string,
    layer: LayerName,
    tables: LayerTableSpec[],
    below: Record<string, TableScope>,
    force?: DayRange,
  ];
  describeLayer: [projectId: string, layer: LayerName];
  openQuerySession: [projectId: string];
  sessionQuery: [sql: string, maxRows: number, defaultLayer?: LayerName, timeoutMs?: number];
  openReadSession: [projectId: string, layer: LayerName, limits: ReadSessionLimits];
  readQuery: [sql: string, options: { singleThreaded?: boolean }];
  closeSession: [];
}

export type WarehouseChildOp = keyof WarehouseChildOps;

export interface WarehouseChildRequest<K extends WarehouseChildOp = WarehouseChildOp> {
  id: number;
  /** The warehouse root the work is on (the host's own, or a download of a published ODS). */
  root: string;
  op: K;
  args: WarehouseChildOps[K];
}

/** An error as it crosses the process boundary: enough to raise the same class on the other side. */
export type SerializedError =
  | { kind: 'query'; reason: WarehouseQueryFailure; message: string }
  | { kind: 'build'; layer: LayerName; table: string; statement: string; reason: string }
  | { kind: 'other'; name: string; message: string };

export type WarehouseChildAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError }
  /** Sent once when the child has loaded DuckDB and waits for work. */
  | { ready: true };

export function serializeError(err: unknown): SerializedError {
  if (err instanceof WarehouseQueryError) return { kind: 'query', reason: err.reason, message: err.message };
  if (err instanceof LayerBuildError)
    return {
      kind: 'build',
      layer: err.layer,
      table: err.table,
      statement: err.statement,
      reason: err.reason,
    };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'other', name: e.name, message: e.message };
}

/** The error a child reported, as the class the engine's callers expect. */
export function deserializeError(err: SerializedError | undefined): Error {
  if (!err || typeof err !== 'object')
    return new Error('the warehouse process answered an error it did not describe');
  if (err.kind === 'query') return new WarehouseQueryError(err.reason, err.message);
  if (err.kind === 'build') return new LayerBuildError(err.layer, err.table, err.statement, err.reason);
  const e = new Error(err.message);
  e.name = err.name;
  return e;
}
