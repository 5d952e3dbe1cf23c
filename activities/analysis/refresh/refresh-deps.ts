/**
 * What the refresh activities need (docs/refresh.md#the-refresh-workflow): the project store, the
 * source's credentials and policy, the warehouse files and engine, and this worker's host.
 */
import type { ProjectStore } from '../../../domain/metadata-store/project-store';
import type { ParameterStore } from '../../../domain/secrets/parameter-store';
import type { SourcePolicy } from '../../../domain/sources/source-policy';
import type { WarehouseEngine } from '../../../domain/warehouse/warehouse-engine';
import type { HostDeps } from '../../fleet/host-activities';
import type { RefreshRun } from '../../../shared/refresh-model';
import type { DayRange } from '../../../shared/day-range';
import type { ProjectEvent } from '../../../shared/project-model';

export interface RefreshDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  sources: SourcePolicy;
  warehouseRoot: string;
  engine: WarehouseEngine;
  host: HostDeps;
  /** PLAT_INGEST_MAX_ROWS_PER_SECOND: the most rows per second a refresh reads (0 or unset: no cap). */
  maxRowsPerSecond?: number;
  /** Counts what newly stored events say happened (the worker's metrics: a failed refresh). */
  onStoredEvents?: (events: ProjectEvent[]) => void;
}

/** A step of one refresh of one project. */
export interface RefreshRequest {
  project_id: string;
  refresh_id: string;
  /** A backfill's days (docs/refresh.md#backfill): every table read whole, these days recomputed. */
  range?: DayRange;
}

/** The refresh's run as it starts or ends, to record on the project. */
export interface RecordRefreshRequest {
  project_id: string;
  run: RefreshRun;
}
