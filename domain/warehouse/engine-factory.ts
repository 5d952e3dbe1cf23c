/** The warehouse engine the configuration asks for: embedded DuckDB, or Glue + Athena + S3. */
import type { PlatConfig } from '../../shared/config';
import type * as AthenaWarehouseModule from './aws/athena-warehouse';
import { hostWarehousePool } from './process-pool/host-warehouse-pool';
import { PooledDuckDbWarehouse } from './process-pool/pooled-duckdb-warehouse';
import type { WarehouseEngine } from './warehouse-engine';

export type WarehouseSettings = Pick<
  PlatConfig,
  | 'PLAT_WAREHOUSE_ENGINE'
  | 'AWS_REGION'
  | 'PLAT_WAREHOUSE_BUCKET'
  | 'PLAT_WAREHOUSE_PREFIX'
  | 'PLAT_ATHENA_WORKGROUP'
  | 'PLAT_ATHENA_OUTPUT_LOCATION'
  | 'AWS_ENDPOINT_URL'
> &
  Partial<
    Pick<
      PlatConfig,
      | 'PLAT_WAREHOUSE_MEMORY_LIMIT'
      | 'PLAT_WAREHOUSE_SPILL_LIMIT'
      | 'PLAT_WAREHOUSE_PROCESSES'
      | 'PLAT_WAREHOUSE_WARM_PROCESSES'
      | 'PLAT_WAREHOUSE_PROCESS_MEMORY'
      | 'PLAT_WAREHOUSE_PROCESS_NICENESS'
    >
  >;

export function warehouseEngine(
  settings: WarehouseSettings | undefined,
  warehouseRoot: string,
): WarehouseEngine {
  // DuckDB's work runs in the host's child processes (docs/security.md#warehouse-processes).
  const pool = hostWarehousePool({
    memoryLimit: settings?.PLAT_WAREHOUSE_MEMORY_LIMIT,
    spillLimit: settings?.PLAT_WAREHOUSE_SPILL_LIMIT,
    processes: settings?.PLAT_WAREHOUSE_PROCESSES,
    warmProcesses: settings?.PLAT_WAREHOUSE_WARM_PROCESSES,
    processMemory: settings?.PLAT_WAREHOUSE_PROCESS_MEMORY,
    niceness: settings?.PLAT_WAREHOUSE_PROCESS_NICENESS,
  });
  if (settings?.PLAT_WAREHOUSE_ENGINE !== 'athena') return new PooledDuckDbWarehouse(warehouseRoot, pool);
  if (!settings.AWS_REGION || !settings.PLAT_WAREHOUSE_BUCKET) {
    throw new Error('PLAT_WAREHOUSE_ENGINE=athena needs AWS_REGION and PLAT_WAREHOUSE_BUCKET');
  }
  // Loaded only here: the AWS SDK clients it brings cost a process about 0.25 s of CPU to load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AthenaWarehouse } = require('./aws/athena-warehouse') as typeof AthenaWarehouseModule;
  // Credentials come from the SDK's default provider chain (environment, profile, instance role).
  return new AthenaWarehouse({
    region: settings.AWS_REGION,
    bucket: settings.PLAT_WAREHOUSE_BUCKET,
    prefix: settings.PLAT_WAREHOUSE_PREFIX,
    workgroup: settings.PLAT_ATHENA_WORKGROUP,
    outputLocation: settings.PLAT_ATHENA_OUTPUT_LOCATION,
    endpoint: settings.AWS_ENDPOINT_URL,
    localWarehouseRoot: warehouseRoot,
  });
}
