/**
 * A project's refreshes as the project record keeps them (docs/refresh.md#on-the-project): the last
 * run with what it did to each table, a short history, and when the warehouse last matched its
 * source. Plain data: workflows, the gateway and the pages read it.
 */

/** What started a refresh. */
export type RefreshTrigger = 'manual' | 'schedule';

/** What a refresh did to one table of the ODS. */
export interface TableRefreshSummary {
  table: string;
  /** `changes`: only changed rows were read; `whole`: the table was read again. */
  read: 'changes' | 'whole';
  /** From which high-water mark the changes were read, or why the table was read whole. */
  detail: string;
  rows_read: number;
  rows_before: number;
  rows_after: number;
  rows_deleted: number;
  /** The greatest update time or key the ODS holds afterwards. */
  watermark?: string;
}

/** One refresh of a project's warehouse. */
export interface RefreshRun {
  /** The refresh workflow's id. */
  refresh_id: string;
  trigger: RefreshTrigger;
  status: 'running' | 'completed' | 'failed';
  started_at: string;
  ended_at?: string;
  /** When the source's snapshot was taken: what the refreshed warehouse shows. */
  source_as_of?: string;
  rows_read?: number;
  /** Per table (the last run only; older runs keep their totals). */
  tables?: TableRefreshSummary[];
  /** Rows per modeled table after the rebuild, `layer.table`. */
  rebuilt?: Record<string, number>;
  error?: string;
}

/**
 * When a project refreshes by itself (docs/refresh.md#schedules): every so long, or on a calendar
 * (five-field cron, its minute one number: at most hourly), in a time zone.
 */
export interface RefreshSchedule {
  /** `30m`, `6h`, `1d`: at least 5 minutes. */
  every?: string;
  /** `0 6 * * *`: minute hour day-of-month month day-of-week. */
  cron?: string;
  /** IANA time zone the calendar is read in (default UTC). */
  timezone?: string;
  paused: boolean;
  /** The Temporal Schedule that starts the refreshes (visible in the Web UI). */
  schedule_id: string;
  updated_at: string;
}

/** The refreshes of one project. */
export interface ProjectRefreshState {
  /** The latest refresh, running or ended. */
  last?: RefreshRun;
  /** The source time the warehouse shows: the last successful refresh's snapshot. */
  as_of?: string;
  /** Earlier runs, newest first, without their per-table detail. */
  history: RefreshRun[];
  /** The project's refresh schedule, when it has one. */
  schedule?: RefreshSchedule;
}

/** Runs kept in a project's history. */
export const REFRESH_HISTORY = 20;

/** `state` with `run` as its latest: a finished run replaces the same run's running entry. */
export function withRefreshRun(state: ProjectRefreshState | undefined, run: RefreshRun): ProjectRefreshState {
  const earlier = state?.last && state.last.refresh_id !== run.refresh_id ? [state.last] : [];
  const history = [...earlier, ...(state?.history ?? [])]
    .filter((r) => r.refresh_id !== run.refresh_id)
    .map(({ tables: _tables, ...r }) => r)
    .slice(0, REFRESH_HISTORY);
  return {
    ...state,
    last: run,
    as_of: run.status === 'completed' && run.source_as_of ? run.source_as_of : state?.as_of,
    history,
  };
}
