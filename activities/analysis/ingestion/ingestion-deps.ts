/**
 * What the data-integration activities need (docs/fleet.md#ingestion-in-parts): the project store,
 * the source's credentials and policy, the warehouse files and, with Athena, where the ODS is
 * published.
 */
import type { ProjectStore } from '../../../domain/metadata-store/project-store';
import type { ParameterStore } from '../../../domain/secrets/parameter-store';
import type { SourcePolicy } from '../../../domain/sources/source-policy';
import type { WarehouseEngine } from '../../../domain/warehouse/warehouse-engine';
import type { OdsPart } from '../../../domain/warehouse/ods-copy-plan';
import type { OdsPartCopy } from '../../../domain/warehouse/ods-assembly';
import type { AnalysisProjectInput } from '../../../shared/project-model';
import type { ProjectSource } from '../../../shared/mysql-source';
import type { Prd } from '../../../shared/prd-schema';

export interface IngestionDeps {
  store: ProjectStore;
  secrets: ParameterStore;
  /** Which sources the copy may connect to (checked before every connection). */
  sources: SourcePolicy;
  /** Root of the embedded warehouse (Parquet and DuckDB files). */
  warehouseRoot: string;
  /** Where the later stages run; with Athena the ODS is published there. */
  engine?: WarehouseEngine;
  /** PLAT_INGEST_PART_ROWS: about how many rows one part copies (default 1,000,000). */
  partRows?: number;
  /** PLAT_INGEST_MAX_ROWS_PER_SECOND: the most rows per second one copy reads (0 or unset: no cap). */
  maxRowsPerSecond?: number;
}

/** The one-activity copy, for the recorded histories of projects started before the parts path took every copy. */
export interface IngestOdsRequest {
  project_id: string;
  source: AnalysisProjectInput['source'];
  prd: Prd;
  /** `requested`: the create request's `reuse_ods`; `from`: the completed project to reuse, if any. */
  reuse_ods?: { requested: boolean; from?: string };
}

/** Reuse a completed project's ODS of the same source (`reuse_ods`), on the host that holds it. */
export interface ReuseEarlierOdsRequest {
  project_id: string;
  prd: Prd;
  /** The completed project whose ODS is reused. */
  from: string;
}

export interface PlanOdsCopyRequest {
  project_id: string;
  source: ProjectSource;
  prd: Prd;
}

export interface CopyOdsPartRequest {
  project_id: string;
  source: ProjectSource;
  part: OdsPart;
  /** How many parts the copy has (for the log). */
  parts: number;
}

export interface FinishOdsRequest {
  project_id: string;
  prd: Prd;
  copies: OdsPartCopy[];
  /** Notes for the summary's warnings (e.g. why `reuse_ods` did not apply). */
  notes: string[];
}

export const DEFAULT_PART_ROWS = 1_000_000;
