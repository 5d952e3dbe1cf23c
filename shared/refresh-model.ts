/**
 * A project's refreshes as the project record keeps them (docs/refresh.md#on-the-project): the last
 * run with what it did to each table, a short history, and when the warehouse last matched its
 * source. Plain data: workflows, the gateway and the pages read it.
 */

import type { DayRange } from './day-range';

/** What started a refresh. */
export type RefreshTrigger = 'manual' | 'schedule' | 'backfill';

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

/** How much of one modeled table a refresh's rebuild computed again (docs/refresh.md#only-affected-days). */
export type RecomputedScope =
  /** Nothing it reads changed: its files were kept. */
  | { kind: 'kept' }
  /** Only `days` days of `column` were computed again. */
  | { kind: 'days'; column: string; days: number }
  /** Built whole, and why. */
  | { kind: 'whole'; reason: string };

/** A table's recomputed scope in words: the project log, the CLI and the pages say it alike. */
export function recomputedText(scope: RecomputedScope): string {
  if (scope.kind === 'kept') return 'unchanged';
  if (scope.kind === 'whole') return `built whole: ${scope.reason}`;
  return `${scope.days} ${scope.days === 1 ? 'day' : 'days'} of ${scope.column} computed again`;
}

/** What a refresh's rebuild gives back: rows and scope per modeled table, `layer.table`. */
export interface RebuildOutcome {
  rows: Record<string, number>;
  scopes: Record<string, RecomputedScope>;
}

/**
 * A rebuild's outcome, from a recorded history too: a refresh that ran before scopes were recorded
 * answered only its rows per table (whose keys are `layer.table`, never `rows`).
 */
export function rebuildOutcome(answer: RebuildOutcome | Record<string, number>): RebuildOutcome {
  return typeof answer.rows === 'object'
    ? (answer as RebuildOutcome)
    : { rows: answer as Record<string, number>, scopes: {} };
}

/** One refresh of a project's warehouse. */
export interface RefreshRun {
  /** The refresh workflow's id. */
  refresh_id: string;
  trigger: RefreshTrigger;
  /** A backfill's days: every table read whole, these days of every table rebuilt by day recomputed. */
  range?: DayRange;
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
  /** How much of each modeled table the rebuild computed again, `layer.table` (the last run only). */
  recomputed?: Record<string, RecomputedScope>;
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
    .map(({ tables: _tables, recomputed: _recomputed, ...r }) => r)
    .slice(0, REFRESH_HISTORY);
  return {
    ...state,
    last: run,
    as_of: run.status === 'completed' && run.source_as_of ? run.source_as_of : state?.as_of,
    history,
  };
}

/** How fresh a built warehouse is, as the project list shows it. */
export interface Freshness {
  /** The source time the warehouse shows (the last successful refresh, else the first copy). */
  as_of: string | null;
  stale: boolean;
  /** Why it is stale. */
  why?: string;
}

const HOUR_MS = 3_600_000;

/**
 * The longest a schedule should leave between two refreshes: its interval, or for a cron a day
 * (an hour when its hour field is `*`, the most often a cron may run).
 */
export function scheduleSpacingMs(schedule: Pick<RefreshSchedule, 'every' | 'cron'>): number {
  const every = schedule.every ? /^(\d+)(m|h|d)$/.exec(schedule.every) : null;
  if (every)
    return Number(every[1]) * { m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS }[every[2] as 'm' | 'h' | 'd'];
  return schedule.cron?.trim().split(/\s+/)[1] === '*' ? HOUR_MS : 24 * HOUR_MS;
}

/**
 * A built warehouse's freshness at `now` (docs/refresh.md#freshness): stale when its last refresh
 * failed, or when a running schedule has let more than two of its spacings pass since the data's
 * time (plus an hour for the refresh itself). Null for a project whose warehouse is not built.
 */
export function freshnessOf(
  view: {
    status: string;
    refresh?: ProjectRefreshState;
    phase_details: { data_ingestion?: { ended_at?: string } };
  },
  now: Date,
): Freshness | null {
  if (view.status !== 'completed') return null;
  const state = view.refresh;
  const as_of = state?.as_of ?? view.phase_details.data_ingestion?.ended_at ?? null;
  if (state?.last?.status === 'failed')
    return { as_of, stale: true, why: `the last refresh failed: ${state.last.error ?? 'no reason given'}` };
  const schedule = state?.schedule;
  if (schedule && !schedule.paused && as_of) {
    const late = now.getTime() - Date.parse(as_of) - 2 * scheduleSpacingMs(schedule) - HOUR_MS;
    if (late > 0) return { as_of, stale: true, why: `behind its schedule: the data is from ${as_of}` };
  }
  return { as_of, stale: false };
}
