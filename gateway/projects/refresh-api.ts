/**
 * A project's refreshes over HTTP (docs/refresh.md#refresh-now): start one now, and read how fresh
 * the warehouse is with the runs so far. The owner's or an operator's.
 */
import { z } from 'zod';
import { apiRoute, type ApiRoute } from '../api/api-route';
import { ONE, projectParams } from './project-api';
import { dateTime } from './project-responses';
import type { RefreshService } from './refresh-service';
import type { RefreshScheduleService } from './refresh-schedule-service';
import { CRON_PATTERN, EVERY_PATTERN, TIME_ZONES } from '../../shared/refresh-schedule-rules';
import { DAY_PATTERN, MAX_BACKFILL_DAYS } from '../../shared/day-range';

const tableRefresh = z.looseObject({
  table: z.string(),
  read: z.enum(['changes', 'whole']),
  detail: z.string(),
  rows_read: z.number().int(),
  rows_before: z.number().int(),
  rows_after: z.number().int(),
  rows_deleted: z.number().int(),
  watermark: z.string().optional(),
});
const day = z.string().regex(DAY_PATTERN, 'a calendar day, YYYY-MM-DD');
const dayRange = z.object({
  from: day.describe('the first day, included'),
  to: day.describe('the last day, included'),
});

const recomputedScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('kept') }).describe('nothing it reads changed: its files were kept'),
  z
    .object({ kind: z.literal('days'), column: z.string(), days: z.number().int() })
    .describe('only this many days of column were computed again'),
  z.object({ kind: z.literal('whole'), reason: z.string() }).describe('built whole, and why'),
]);

const refreshRun = z.looseObject({
  refresh_id: z.string(),
  trigger: z.enum(['manual', 'schedule', 'backfill']),
  range: dayRange.optional().describe("a backfill's days"),
  status: z.enum(['running', 'completed', 'failed']),
  started_at: dateTime,
  ended_at: dateTime.optional(),
  source_as_of: dateTime.optional().describe("when the source's snapshot was taken"),
  rows_read: z.number().int().optional(),
  tables: z.array(tableRefresh).optional().describe('what the run did to each table (the last run only)'),
  rebuilt: z.record(z.string(), z.number().int()).optional().describe('rows per modeled table, layer.table'),
  recomputed: z
    .record(z.string(), recomputedScope)
    .optional()
    .describe('how much of each modeled table the rebuild computed again, layer.table (the last run only)'),
  error: z.string().optional(),
});

export const refreshStateSchema = z.object({
  project_id: z.string(),
  as_of: dateTime
    .nullable()
    .describe('the source time the warehouse shows: the last successful refresh, else the first copy'),
  last: refreshRun.nullable(),
  history: z.array(refreshRun).describe('earlier runs, newest first'),
});

/** An interval, or a calendar in a time zone: the rules are the document's (docs/refresh.md#schedules). */
const scheduleBody = z.union(
  [
    z
      .object({
        every: z
          .string()
          .regex(EVERY_PATTERN, 'an interval is a whole number and a unit (30m, 6h, 1d), at least 5m apart')
          .describe('an interval: 30m, 6h, 1d (at least 5m)'),
      })
      .strict(),
    z
      .object({
        cron: z
          .string()
          .max(100)
          .regex(
            CRON_PATTERN,
            'a cron has five fields (minute hour day-of-month month day-of-week), the minute one number: at most hourly',
          )
          .describe(
            'a calendar: minute hour day-of-month month day-of-week, the minute one number (at most hourly)',
          ),
        timezone: z
          .enum(TIME_ZONES)
          .optional()
          .describe('the IANA time zone the cron is read in (default UTC)'),
      })
      .strict(),
  ],
  {
    error:
      'give every (30m, 6h, 1d: at least 5m apart) or cron (five fields, the minute one number: at most hourly) with an optional IANA timezone, not both',
  },
);

const scheduleSchema = z.object({
  project_id: z.string(),
  schedule_id: z.string().describe('the Temporal Schedule (visible in the Web UI)'),
  every: z.string().optional(),
  cron: z.string().optional(),
  timezone: z.string().optional(),
  paused: z.boolean(),
  updated_at: dateTime,
  next_runs: z.array(dateTime).describe('the next start times (up to five)'),
  recent_runs: z.array(z.object({ refresh_id: z.string(), scheduled_at: dateTime })),
  skipped_overlapping: z.number().int().describe('starts skipped because the previous refresh still ran'),
});

const scheduleStateSchema = z.object({
  project_id: z.string(),
  schedule: scheduleSchema.nullable().describe('null: the project is refreshed only when asked'),
});

const refreshStartedSchema = z.object({
  project_id: z.string(),
  refresh_id: z.string(),
  status: z.literal('started'),
});

export function refreshApi(service: RefreshService, schedules: RefreshScheduleService): ApiRoute[] {
  return [...refreshRoutes(service), ...scheduleRoutes(schedules)];
}

function refreshRoutes(service: RefreshService): ApiRoute[] {
  return [
    apiRoute({
      operationId: 'refreshProject',
      method: 'post',
      path: `${ONE}/refresh`,
      summary: "Refresh the project's warehouse from its source now (only what changed is read)",
      params: projectParams,
      body: z.object({}).strict(),
      bodyOptional: true,
      responses: {
        202: { description: 'the refresh, started', schema: refreshStartedSchema },
        409: { description: "the project's warehouse is not built, or a refresh of it is running" },
        429: { description: 'refreshes of as many projects of the owner as allowed are running' },
      },
      handle: ({ req, params }) => service.refreshNow(req.user!, params.project_id),
    }),
    apiRoute({
      operationId: 'backfillProject',
      method: 'post',
      path: `${ONE}/backfill`,
      summary: `Backfill a range of days: every table read again from the source, and the range's days of every table rebuilt by day recomputed (at most ${MAX_BACKFILL_DAYS} days)`,
      params: projectParams,
      body: dayRange.strict(),
      responses: {
        202: {
          description: 'the backfill, started (a refresh run with trigger backfill)',
          schema: refreshStartedSchema,
        },
        409: { description: "the project's warehouse is not built, or a refresh of it is running" },
        429: { description: 'refreshes of as many projects of the owner as allowed are running' },
        422: { description: 'the range is no range of calendar days, or is longer than allowed' },
      },
      handle: ({ req, params, body }) => service.backfill(req.user!, params.project_id, body),
    }),
    apiRoute({
      operationId: 'projectRefreshes',
      method: 'get',
      path: `${ONE}/refreshes`,
      summary:
        'How fresh the warehouse is: as of when, the last refresh with what it did to each table, and earlier runs',
      params: projectParams,
      responses: { 200: { description: "the project's refreshes", schema: refreshStateSchema } },
      handle: async ({ req, params }) => {
        const view = await service.project(req.user!, params.project_id);
        const state = view.refresh;
        return {
          project_id: view.project_id,
          as_of: state?.as_of ?? view.phase_details.data_ingestion?.ended_at ?? null,
          last: state?.last ?? null,
          history: state?.history ?? [],
        };
      },
    }),
  ];
}

const NO_SCHEDULE = { description: 'the project has no refresh schedule' };

function scheduleRoutes(schedules: RefreshScheduleService): ApiRoute[] {
  const SCHEDULE = `${ONE}/refresh-schedule`;
  const pauseRoute = (paused: boolean) =>
    apiRoute({
      operationId: paused ? 'pauseRefreshSchedule' : 'resumeRefreshSchedule',
      method: 'post',
      path: `${SCHEDULE}/${paused ? 'pause' : 'resume'}`,
      summary: paused
        ? 'Pause the refresh schedule (no refresh starts until resumed)'
        : 'Resume the refresh schedule',
      params: projectParams,
      body: z.object({}).strict(),
      bodyOptional: true,
      responses: { 200: { description: 'the schedule', schema: scheduleSchema }, 409: NO_SCHEDULE },
      handle: ({ req, params }) => schedules.pause(req.user!, params.project_id, paused),
    });
  return [
    apiRoute({
      operationId: 'setRefreshSchedule',
      method: 'put',
      path: SCHEDULE,
      summary:
        'Refresh the project on a schedule: every so long, or on a cron calendar (replaces any earlier one)',
      params: projectParams,
      body: scheduleBody,
      responses: {
        200: { description: 'the schedule, with its next start times', schema: scheduleSchema },
        409: { description: "the project's warehouse is not built" },
        422: { description: 'a cron the scheduler cannot read (a field out of its range: hour 25)' },
      },
      handle: ({ req, params, body }) => schedules.set(req.user!, params.project_id, body),
    }),
    apiRoute({
      operationId: 'getRefreshSchedule',
      method: 'get',
      path: SCHEDULE,
      summary:
        'The refresh schedule: its timing, whether it is paused, its next and recent starts (null when there is none)',
      params: projectParams,
      responses: { 200: { description: 'the schedule, or null', schema: scheduleStateSchema } },
      handle: ({ req, params }) => schedules.state(req.user!, params.project_id),
    }),
    pauseRoute(true),
    pauseRoute(false),
    apiRoute({
      operationId: 'deleteRefreshSchedule',
      method: 'delete',
      path: SCHEDULE,
      summary:
        'Stop refreshing the project on a schedule (its refreshes so far are kept; deleted is false when there was none)',
      params: projectParams,
      responses: {
        200: {
          description: 'deleted, or there was no schedule',
          schema: z.object({ project_id: z.string(), deleted: z.boolean() }),
        },
      },
      handle: ({ req, params }) => schedules.remove(req.user!, params.project_id),
    }),
  ];
}
