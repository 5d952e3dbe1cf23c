/**
 * A warehouse engine that reports each statement the engine failed to run (docs/monitoring.md#metrics):
 * a query that failed or timed out, a layer build, ODS publication or ODS download that failed. Refusals of the
 * caller's SQL (not a single SELECT, writes, a layer not built yet) are answers, not failures.
 */
import { Counter, type Registry } from 'prom-client';
import { WarehouseQueryError, type WarehouseEngine, type WarehouseQueryFailure } from './warehouse-engine';

export interface WarehouseFailure {
  engine: WarehouseEngine['kind'];
  operation: 'query' | 'build_layer' | 'publish_ods' | 'fetch_ods';
  reason: WarehouseQueryFailure;
}

const REFUSALS: ReadonlySet<WarehouseQueryFailure> = new Set(['invalid_sql', 'read_only', 'layer_not_built']);

export function countingFailures(
  engine: WarehouseEngine,
  onFailure: (failure: WarehouseFailure) => void,
): WarehouseEngine {
  const report = (operation: WarehouseFailure['operation'], err: unknown): never => {
    const reason = err instanceof WarehouseQueryError ? err.reason : 'failed';
    if (!REFUSALS.has(reason)) onFailure({ engine: engine.kind, operation, reason });
    throw err;
  };
  return {
    kind: engine.kind,
    buildLayer: (...args) => engine.buildLayer(...args).catch((err) => report('build_layer', err)),
    refreshLayer:
      engine.refreshLayer &&
      ((...args) => engine.refreshLayer!(...args).catch((err) => report('build_layer', err))),
    query: (...args) => engine.query(...args).catch((err) => report('query', err)),
    withQuerySession: (projectId, work) =>
      engine.withQuerySession(projectId, (query) =>
        work((...args) => query(...args).catch((err) => report('query', err))),
      ),
    publishOds: (...args) => engine.publishOds(...args).catch((err) => report('publish_ods', err)),
    describeLayer: (...args) => engine.describeLayer(...args),
    localOds: (...args) => engine.localOds(...args).catch((err) => report('fetch_ods', err)),
  };
}

/** Registers `plat_warehouse_query_failures_total` in `registry` and answers its counting callback. */
export function warehouseFailureCounter(registry: Registry): (failure: WarehouseFailure) => void {
  const failures = new Counter({
    name: 'plat_warehouse_query_failures_total',
    help: 'Warehouse statements the engine failed to run (Athena or DuckDB), by engine, operation and reason',
    labelNames: ['engine', 'operation', 'reason'] as const,
    registers: [registry],
  });
  return (failure) => failures.inc({ ...failure });
}
