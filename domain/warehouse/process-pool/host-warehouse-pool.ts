/**
 * The host's warehouse processes: one pool per process of plat (gateway, worker) and its settings
 * (docs/security.md#warehouse-processes), shared by the engine and the advisor's profiling.
 */
import { DEFAULT_MEMORY_LIMIT, type DuckDbSessionLimits } from '../duckdb-warehouse';
import { WarehouseProcessPool } from './warehouse-process-pool';

/** The settings of a host's warehouse processes (PLAT_WAREHOUSE_* in the configuration). */
export interface WarehouseProcessSettings extends DuckDbSessionLimits {
  /** Children at once (PLAT_WAREHOUSE_PROCESSES, default 4): work beyond them waits its turn. */
  processes?: number;
  /** Children kept started and idle (PLAT_WAREHOUSE_WARM_PROCESSES, default 1). */
  warmProcesses?: number;
  /**
   * The OS limit on a child's memory (PLAT_WAREHOUSE_PROCESS_MEMORY; default the session memory limit
   * plus 1 GiB: DuckDB's buffers stay under its own limit, while constants, lists and strings it
   * builds, and the process itself, do not).
   */
  processMemory?: string;
  /**
   * How much lower a child's CPU priority is than its parent's (PLAT_WAREHOUSE_PROCESS_NICENESS,
   * default 0): above 0, a gateway or worker sharing a busy host keeps its CPU ahead of DuckDB's
   * work, which then waits behind everything else on the host.
   */
  niceness?: number;
}

const GIB = 1024 ** 3;
const DEFAULT_PROCESSES = 4;
const DEFAULT_WARM = 1;

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: GIB,
  tib: 1024 ** 4,
};

/** Bytes of a size as DuckDB and the configuration write it (`512MB`, `2GiB`; KB is 1000 bytes). */
export function sizeInBytes(size: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b)\s*$/i.exec(size);
  const unit = m && UNITS[m[2].toLowerCase()];
  if (!m || !unit) throw new Error(`not a size: ${size} (a size such as 512MB or 2GB)`);
  return Math.round(Number(m[1]) * unit);
}

const pools = new Map<string, WarehouseProcessPool>();
let lastConfigured: WarehouseProcessSettings | undefined;

/**
 * The host pool for `settings` (one per distinct settings, started on first use). Without settings,
 * the one this process configured last, or the defaults: the advisor's profiling reads through the
 * same pool as the engine the process was configured with.
 */
export function hostWarehousePool(settings?: WarehouseProcessSettings): WarehouseProcessPool {
  const s = settings ?? lastConfigured ?? {};
  if (settings) lastConfigured = settings;
  const key = JSON.stringify([s.memoryLimit, s.spillLimit, s.processes, s.warmProcesses, s.processMemory]);
  let pool = pools.get(key);
  if (!pool) {
    const memoryLimit = s.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
    pool = new WarehouseProcessPool({
      child: { limits: { memoryLimit, spillLimit: s.spillLimit } },
      memoryBytes: s.processMemory ? sizeInBytes(s.processMemory) : sizeInBytes(memoryLimit) + GIB,
      niceness: s.niceness ?? 0,
      max: Math.max(1, s.processes ?? DEFAULT_PROCESSES),
      warm: s.warmProcesses ?? DEFAULT_WARM,
    });
    pools.set(key, pool);
  }
  return pool;
}

/** Stops every child of this process's pools (at shutdown). */
export function closeHostWarehousePools(): void {
  for (const pool of pools.values()) pool.close();
  pools.clear();
}
