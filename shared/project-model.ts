/** The analysis project as users see it (docs/requirements.md#project-record, #events). Workflow-safe. */
import type { PhaseName } from './analysis-stages';
import type { AccumulatedUsage, CostRecord } from './cost-ledger';
import type { ProjectSource } from './mysql-source';
import type { Prd } from './prd-schema';
import type { ProjectRefreshState } from './refresh-model';
import type {
  GovernanceSummary,
  MetricValidationSummary,
  ModelingSummary,
  PipelineSummary,
  ProfileSummary,
  VisualizationSummary,
} from './warehouse-model';

// The phases and the phase of each activity come from the stage table.
export { PHASES, PHASE_OF_ACTIVITY, type PhaseName } from './analysis-stages';

export const PROJECT_STATUSES = [
  'running',
  'waiting_approval',
  'completed',
  'failed',
  'terminated',
  'cancelled',
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
/** The statuses a project ends in: nothing runs for it any more. */
export const ENDED_PROJECT_STATUSES: readonly string[] = ['completed', 'failed', 'terminated', 'cancelled'];
export const PHASE_STATUSES = [
  'pending',
  'running',
  'waiting_approval',
  'completed',
  'failed',
  'skipped',
] as const;
export type PhaseStatus = (typeof PHASE_STATUSES)[number];

/** When a phase ran and what it last said; `phases` holds only its status. */
export interface PhaseDetail {
  started_at?: string;
  ended_at?: string;
  message?: string;
}

export type Decision = 'approve' | 'modify' | 'reject';

/** The project record returned by GET /projects/{id} and the workflow's `status` query. */
export interface ProjectView {
  project_id: string;
  owner_id: string;
  status: ProjectStatus;
  /** The current or last phase. */
  phase: PhaseName;
  message: string;
  created_at: string;
  updated_at: string;
  description: string;
  /** The source, without credentials. */
  source: { jdbc_url: string; username: string };
  /** Each phase's status, e.g. `{"prd": "completed", "data_ingestion": "running", ...}`. */
  phases: Record<PhaseName, PhaseStatus>;
  /** Each phase's timings and last message (`{}` while pending). */
  phase_details: Record<PhaseName, PhaseDetail>;
  prd?: Prd;
  decision?: { decision: Decision; reason?: string; decided_at: string };
  cost: CostRecord;
  accumulated_usage: AccumulatedUsage;
  cost_usd: number;
  duration_seconds: number;
  bi_dashboard_url: string | null;
  error?: { phase: PhaseName; message: string };
  /** What the warehouse stages built, stage by stage. */
  warehouse?: {
    /** The host holding the project's warehouse files (embedded engine; docs/fleet.md#project-files). */
    host?: string;
    ods?: OdsSummary;
    modeling?: ModelingSummary;
    governance?: GovernanceSummary;
    metrics?: MetricValidationSummary;
    visualization?: VisualizationSummary;
    profile?: ProfileSummary;
    pipeline?: PipelineSummary;
  };
  /** The warehouse's refreshes from its source (docs/refresh.md#on-the-project). */
  refresh?: ProjectRefreshState;
}

/** Result of data integration: per-table source and ODS row counts, reconciled. */
export interface OdsSummary {
  database: string;
  database_file: string;
  tables: { table: string; source_rows: number; ods_rows: number }[];
  rows_copied: number;
  warnings: string[];
  /** Set when the ODS was reused from an earlier project on the same source (`reuse_ods`). */
  reused_from?: { project_id: string; copied_at: string };
  /** Whether the copy is one point in time of the source (docs/fleet.md#one-snapshot-rule). */
  snapshot?: OdsSnapshotSummary;
  /** Copy activities the source was split into (1 when one activity copied it all). */
  parts?: number;
}

/**
 * How consistent a copy is. `one_snapshot`: every table was read in one snapshot. `unchanged`: in
 * several snapshots, but the source's write position was the same at each, so nothing was committed
 * in between. `changed`: the source committed writes between them (each part is consistent on its
 * own). `unknown`: several snapshots and no position to compare (no binary log, or not readable).
 */
export interface OdsSnapshotSummary {
  consistency: 'one_snapshot' | 'unchanged' | 'changed' | 'unknown';
  snapshots: number;
  /** The distinct write positions seen, first and last (compared as read, in no particular order). */
  positions: string[];
}

export type EventType =
  | 'phase_changed'
  | 'log_entry'
  | 'hitl_required'
  | 'project_completed'
  | 'cost_update'
  | 'project_failed'
  | 'project_terminated'
  | 'project_cancelled';

/** An event as persisted and pushed over WebSocket (event_id assigned by the store). */
export interface ProjectEvent {
  /** Idempotency key: a retried activity does not store an event twice. */
  event_key: string;
  project_id: string;
  event_type: EventType;
  phase: PhaseName;
  status: string;
  message: string;
  timestamp: string;
  payload?: Record<string, unknown>;
}

/** What the workflow needs to start (no secrets: the password is a parameter-store reference). */
export interface AnalysisProjectInput {
  project_id: string;
  owner_id: string;
  created_at: string;
  description: string;
  /** Reuse a completed project's ODS of the same source instead of copying it again. */
  reuse_ods: boolean;
  /** The caller's newest completed project on the same source, found by the gateway when `reuse_ods`. */
  reuse_ods_from?: string;
  source: ProjectSource;
}
