/**
 * What the warehouse stages report back to the workflow and the project view (plain data,
 * workflow-safe). Full reports (scripts, quality samples, profile) live in the metadata store as
 * project artifacts; the view carries these summaries.
 */
import { STAGE_REPORTS, type ReportKind } from './analysis-stages';
import type { UsageRecord } from './cost-ledger';
import type { LayerName } from './prd-schema';

export interface BuiltTableSummary {
  name: string;
  row_count: number;
  columns: number;
  partition_by: string[];
}

/** Data modeling: the DWD, DWS and ADS databases built from the PRD. */
export interface ModelingSummary {
  layers: { layer: LayerName; database: string; tables: BuiltTableSummary[] }[];
  /** Statements the model repaired after the engine rejected them. */
  repairs: { layer: LayerName; table: string; reason: string }[];
  /** Model usage of the repairs (none offline). */
  usage: UsageRecord[];
}

/** Data governance: quality rules evaluated and tables registered in the catalog. */
export interface GovernanceSummary {
  rules_total: number;
  rules_passed: number;
  rules_failed: number;
  rules_errored: number;
  /** Names of failed rules whose severity is blocking: any of them stops the project. */
  blocking_failed: string[];
  catalog_tables: number;
}

/** Query building: ADS metric SQL validated. */
export interface MetricValidationSummary {
  metrics_total: number;
  valid: string[];
  invalid: { name: string; reason: string }[];
}

/** Visualization: the dashboards page and what it shows. */
export interface VisualizationSummary {
  url: string;
  dashboards: number;
  charts: number;
}

/** The analytics advisor's data-profile report, in short. */
export interface ProfileSummary {
  overall_score: number;
  insights: number;
}

/** The production-pipeline agent's templates. */
export interface PipelineSummary {
  files: string[];
}

/**
 * Artifact kinds kept per project in the metadata store: every stage's reports (the stage table,
 * each served by the API), and the source's tables, keys and counted rows as data integration
 * copied them (read by the later stages wherever they run; not served by a route of its own).
 */
export type ArtifactKind = ReportKind | 'source_schema';
export const ARTIFACT_KINDS: readonly ArtifactKind[] = [...STAGE_REPORTS.map((r) => r.kind), 'source_schema'];
