import type { GrainChoice } from '../../shared/chart-grain';
/**
 * The analytics advisor's data-profile report (docs/requirements.md#data-profile): an overall score from six dimensions,
 * key insights, per-table profiles, detected relations (confidence ≥ 0.5 only) and DWS/ADS modeling
 * suggestions. Plain JSON, served as is by `GET /v1/projects/{id}/profile`.
 */

/** Analyst label and version written into every report. */
export const PROFILE_ANALYST_VERSION = 'offline-profile-analyst/1';

/** Relations below this confidence are never reported (docs/requirements.md#data-profile). */
export const MIN_RELATION_CONFIDENCE = 0.5;

/** Outcome of the data-governance stage's quality rules, when that stage ran. */
export interface QualitySummary {
  rules_total: number;
  rules_passed: number;
  rules_failed: number;
  blocking_failed: number;
}

/** The six dimensions, in report order. */
export type ProfileDimensionName =
  'data_quality' | 'completeness' | 'dimension_richness' | 'time_span' | 'relational_integrity' | 'volume';

/** One of the six scored dimensions; `weight`s sum to 1. */
export interface ProfileDimension {
  name: ProfileDimensionName;
  /** 0–100, integer. */
  score: number;
  weight: number;
  /** The formula's inputs, with the measured numbers. */
  explanation: string;
}

/** A value and how many rows hold it. */
export interface FrequentValue {
  /** Rendered as text, long strings truncated. */
  value: string;
  count: number;
}

/** One column of an ODS table. */
export interface ColumnProfile {
  name: string;
  /** Warehouse (DuckDB) type. */
  type: string;
  /** NULLs / rows, exact. */
  null_rate: number;
  null_count: number;
  /** Distinct non-NULL values: exact on small tables, HyperLogLog estimate on large ones; null for BLOBs. */
  distinct_count: number | null;
  /**
   * Up to five most frequent non-NULL values. Empty for BLOBs, credential-like columns (password,
   * token, hash…) and columns whose every value is distinct (a key: each count would be 1). Counts are scaled from a sample on large tables.
   */
  frequent_values: FrequentValue[];
}

/** Span of a table's business-event column. */
export interface TimeRange {
  column: string;
  /** As the warehouse prints it, e.g. `2005-05-24 22:53:30`. */
  min: string;
  max: string;
  /** Calendar days from min to max, both included. */
  days: number;
  /** Calendar days that have at least one row. */
  active_days: number;
  /** The grain its series is charted by (day, week or month), from rows per bucket. */
  grain?: GrainChoice;
  /** The longest run of calendar days without rows inside the span, when there is one. */
  longest_gap?: { from: string; to: string; days: number };
}

/** One profiled ODS table. */
export interface TableProfileReport {
  /** The ODS table (view) name users query, e.g. `ods_rental`. */
  table: string;
  /** The source table it copies, e.g. `rental`. */
  source_table: string;
  layer: 'ods';
  role: 'fact' | 'dimension' | 'other';
  row_count: number;
  field_count: number;
  /** NULL cells / all cells of the table. */
  null_rate: number;
  columns: ColumnProfile[];
  /** Span of the table's business-event column (audit columns such as last_update are ignored). */
  time_range?: TimeRange;
  /** Frequent values were counted on a sample of this many rows (large tables only). */
  sampled_rows?: number;
}

/** A relation between two ODS tables, with how well the data bears it out. */
export interface RelationReport {
  from_table: string;
  from_column: string;
  to_table: string;
  to_column: string;
  /** 0–1; only ≥ 0.5 is reported. */
  confidence: number;
  evidence: 'foreign_key' | 'name_match+containment';
  /** Non-NULL referencing rows whose value exists in the referenced column / all non-NULL referencing rows. */
  match_rate: number;
  /** Non-NULL referencing rows checked. */
  checked_rows: number;
}

/** A proposed DWS or ADS table and the measurements that motivate it. */
export interface ModelingSuggestion {
  layer: 'dws' | 'ads';
  title: string;
  rationale: string;
}

/** The report served by `GET /v1/projects/{id}/profile`. */
export interface DataProfileReport {
  version: 1;
  project_id: string;
  generated_at: string;
  analyst: { kind: 'offline_profile_analyst'; version: string };
  /** Weighted sum of the dimension scores, rounded. */
  overall_score: number;
  dimensions: ProfileDimension[];
  key_insights: string[];
  tables: TableProfileReport[];
  relations: RelationReport[];
  suggestions: ModelingSuggestion[];
}
