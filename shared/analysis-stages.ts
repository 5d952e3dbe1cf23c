/**
 * The stages of an analysis project, in the order they run (docs/architecture.md#the-stage-table):
 * each one's phase (the name in the project record, events and metrics), the label the pages show,
 * the activities that run it, and where they run. The phase list, the phase of each activity, the
 * worker's warehouse queue and the web pages' stage names all derive from this table.
 * Workflow-safe.
 */
import type { Duration } from '@temporalio/common';

/** Where a stage's activities run (docs/fleet.md). */
export type StageQueue =
  /** The agents queue: any worker with a model. */
  | 'agents'
  /** The project's host: it holds the project's files; with Athena the stage may run anywhere. */
  | 'host';

export interface AnalysisStage {
  phase: string;
  /** The stage's name on the web pages. */
  label: string;
  /** The activity types that run the stage (bookkeeping activities belong to none). */
  activities: readonly string[];
  queue: StageQueue;
  /**
   * With Athena nothing of the stage reads the host's disk: it runs on the shared warehouse queue
   * (docs/fleet.md#athena-stages-anywhere).
   */
  anywhereWithAthena: boolean;
  /** How the workflow calls the stage's activities: their time limits and retries. */
  options: StageActivityOptions;
  /** Other options for some of the stage's activities, by activity name. */
  activityOptions?: Readonly<Record<string, StageActivityOptions>>;
  /** The reports the stage keeps per project, each served read-only at `/v1/projects/{id}/{path}`. */
  reports: readonly StageReport[];
  /**
   * A warehouse stage's key on the project view's `warehouse`, where the workflow keeps what its
   * activity returns (`workflows/analysis/warehouse-stages.ts` checks the types match).
   */
  view?: string;
  /**
   * For a warehouse stage added while projects are running: the id of the patch that brought it
   * (`'data-freshness-stage'`). A project that passed the stage's place before it existed skips it,
   * in replay and after, so its history stays valid (docs/architecture.md#adding-a-stage).
   */
  since?: string;
}

/**
 * Temporal's activity options for a stage, as the workflow passes them (`ActivityOptions`). On a
 * host, where the stages heartbeat every 5 s, the workflow adds a heartbeat timeout of its own
 * (docs/fleet.md#task-queues).
 */
export interface StageActivityOptions {
  /** Longest one attempt may run. */
  startToCloseTimeout: Duration;
  /** Longest between two heartbeats before the attempt counts as lost. */
  heartbeatTimeout?: Duration;
  retry: {
    maximumAttempts: number;
    initialInterval: Duration;
    /** Failures retrying cannot mend: the stage fails at once. */
    nonRetryableErrorTypes: readonly string[];
  };
}

/** The warehouse stages' options: two hours an attempt, three attempts; a model that cannot be built is final. */
const WAREHOUSE_STAGE = {
  startToCloseTimeout: '2 hours',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['ModelBuildFailed'] },
} as const satisfies StageActivityOptions;

/** Reusing an earlier copy, or merging and checking the parts of a new one. */
const FINISH_OR_REUSE = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['RowCountMismatch'] },
} as const satisfies StageActivityOptions;

/** A report a stage writes: its route's path segment, the artifact kind it is stored as, and what it holds. */
export interface StageReport {
  path: string;
  kind: string;
  /** The route's summary in the OpenAPI document. */
  summary: string;
}

export const ANALYSIS_STAGES = [
  {
    phase: 'prd',
    label: 'PRD',
    activities: ['generatePrd'],
    queue: 'agents',
    anywhereWithAthena: false,
    options: {
      startToCloseTimeout: '15 minutes',
      heartbeatTimeout: '2 minutes',
      retry: {
        maximumAttempts: 3,
        initialInterval: '2 seconds',
        nonRetryableErrorTypes: ['SourceAccessDenied'],
      },
    },
    reports: [],
  },
  {
    phase: 'data_ingestion',
    label: 'Integration',
    activities: ['ingestOds', 'reuseEarlierOds', 'planOdsCopy', 'copyOdsPart', 'finishOds'],
    queue: 'host',
    anywhereWithAthena: false,
    // The copy heartbeats every 5 s: a dead worker is noticed within the timeout and the copy resumes.
    options: {
      startToCloseTimeout: '6 hours',
      heartbeatTimeout: '30 seconds',
      retry: {
        maximumAttempts: 5,
        initialInterval: '5 seconds',
        nonRetryableErrorTypes: ['SourceAccessDenied', 'RowCountMismatch'],
      },
    },
    activityOptions: {
      planOdsCopy: {
        startToCloseTimeout: '30 minutes',
        heartbeatTimeout: '30 seconds',
        retry: {
          maximumAttempts: 5,
          initialInterval: '5 seconds',
          nonRetryableErrorTypes: ['SourceAccessDenied'],
        },
      },
      reuseEarlierOds: FINISH_OR_REUSE,
      finishOds: FINISH_OR_REUSE,
    },
    reports: [],
  },
  {
    phase: 'data_modeling',
    label: 'Modeling',
    activities: ['buildWarehouseModel'],
    view: 'modeling',
    queue: 'host',
    anywhereWithAthena: true,
    options: WAREHOUSE_STAGE,
    reports: [
      {
        path: 'scripts',
        kind: 'model_scripts',
        summary: "Data-modeling SQL: per layer (dwd, dws, ads) the script and each table's SELECT",
      },
    ],
  },
  {
    phase: 'data_governance',
    label: 'Governance',
    activities: ['governWarehouse'],
    view: 'governance',
    queue: 'host',
    anywhereWithAthena: true,
    options: WAREHOUSE_STAGE,
    reports: [
      {
        path: 'quality',
        kind: 'quality_report',
        summary: 'Quality report: every PRD rule with status, violation count, sample rows and its SQL',
      },
      {
        path: 'catalog',
        kind: 'catalog',
        summary: 'Catalog: every table with schema, layer, row count, location and lineage',
      },
    ],
  },
  {
    phase: 'query_building',
    label: 'Query building',
    activities: ['validateMetricSql'],
    view: 'metrics',
    queue: 'host',
    anywhereWithAthena: true,
    options: WAREHOUSE_STAGE,
    reports: [
      {
        path: 'metrics',
        kind: 'metric_validation',
        summary: 'Metric validation: each ADS metric SQL, valid or not and why',
      },
    ],
  },
  {
    phase: 'visualization',
    label: 'Visualization',
    activities: ['buildDashboards'],
    view: 'visualization',
    queue: 'host',
    anywhereWithAthena: true,
    options: WAREHOUSE_STAGE,
    reports: [
      {
        path: 'dashboards',
        kind: 'dashboards',
        summary: 'Datasets and dashboards rendered at bi_dashboard_url',
      },
    ],
  },
  {
    phase: 'analytics_advisor',
    label: 'Advisor',
    activities: ['profileData'],
    view: 'profile',
    queue: 'host',
    anywhereWithAthena: true,
    options: WAREHOUSE_STAGE,
    reports: [
      {
        path: 'profile',
        kind: 'data_profile',
        summary: 'Data-profile report: score, six dimensions, insights, tables, relations, suggestions',
      },
    ],
  },
  {
    phase: 'production_pipeline',
    label: 'Pipeline',
    activities: ['generatePipeline'],
    view: 'pipeline',
    queue: 'host',
    anywhereWithAthena: true,
    options: WAREHOUSE_STAGE,
    reports: [
      {
        path: 'pipeline',
        kind: 'pipeline_templates',
        summary: 'Production pipeline templates: incremental-load workflow, schedule and SQL',
      },
    ],
  },
] as const satisfies readonly AnalysisStage[];

type Stage = (typeof ANALYSIS_STAGES)[number];
export type PhaseName = Stage['phase'];

/** The phases in the order they run. */
export const PHASES = ANALYSIS_STAGES.map((s) => s.phase) as unknown as readonly [PhaseName, ...PhaseName[]];

/** The phase each activity type runs (bookkeeping activities belong to none). */
export const PHASE_OF_ACTIVITY: Record<string, PhaseName> = Object.fromEntries(
  ANALYSIS_STAGES.flatMap((s) => s.activities.map((a) => [a, s.phase])),
);

/** The activities of the stages on the project's host (the copy and the warehouse stages). */
export const HOST_STAGE_ACTIVITIES = ANALYSIS_STAGES.filter((s) => s.queue === 'host').flatMap(
  (s) => s.activities,
) as Extract<Stage, { queue: 'host' }>['activities'][number][];

/** The activities of the stages on the agents queue (the PRD). */
export const AGENT_STAGE_ACTIVITIES = ANALYSIS_STAGES.filter((s) => s.queue === 'agents').flatMap(
  (s) => s.activities,
) as Extract<Stage, { queue: 'agents' }>['activities'][number][];

/** The activities of the stages that, with Athena, run on the shared warehouse queue. */
export const ANYWHERE_WITH_ATHENA = ANALYSIS_STAGES.filter((s) => s.anywhereWithAthena).flatMap(
  (s) => s.activities,
) as Extract<Stage, { anywhereWithAthena: true }>['activities'][number][];

/** A report's route segment (`/v1/projects/{id}/{path}`). */
export type ReportPath = Stage['reports'][number]['path'];

/** A report's stored artifact kind. */
export type ReportKind = Stage['reports'][number]['kind'];

/** Every stage's reports, in the order the stages run, each with the phase that writes it. */
export const STAGE_REPORTS: (StageReport & { kind: ReportKind; phase: PhaseName })[] =
  ANALYSIS_STAGES.flatMap((s) =>
    s.reports.map((r: StageReport) => ({ ...r, kind: r.kind as ReportKind, phase: s.phase })),
  );

/** The phases with the labels the web pages show (`GET /v1/ui-config`). */
export const PHASE_LABELS: { phase: PhaseName; label: string }[] = ANALYSIS_STAGES.map((s) => ({
  phase: s.phase,
  label: s.label,
}));
