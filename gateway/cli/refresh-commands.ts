/**
 * `plat projects refresh ID [--wait]`, `plat projects backfill ID --from D --to D [--wait]` and
 * `plat projects freshness ID`: a project's warehouse brought up to date with its source, a range of
 * days rebuilt, and how fresh it is (docs/refresh.md#refresh-now, docs/refresh.md#backfill).
 */
import { needId, str, withApi } from './signed-in-action';
import type { Command } from 'commander';
import { ok, type PlatformClient } from './api-client';
import { usageError, type CommandResult, type Flags } from './command-kit';
import { table } from './render';
import type { paths } from '../../shared/generated/platform-api';
import { recomputedText } from '../../shared/refresh-model';

export const REFRESH_USAGE = `  projects refresh ID [--wait]            read what changed in the source, rebuild the warehouse
  projects backfill ID --from 2025-01-01 --to 2025-01-31 [--wait]
                                          read every table again, recompute those days
  projects freshness ID                   as of when the warehouse shows its source; the last refresh
  projects schedule ID [--every 6h | --cron '0 6 * * *' [--timezone Europe/Oslo]]
                       [--pause | --resume | --delete]
                                          refresh on a schedule (no flag: show it)`;

/** The flags of `plat projects schedule`. */
export const SCHEDULE_FLAGS = {
  from: { type: 'string' },
  to: { type: 'string' },
  every: { type: 'string' },
  cron: { type: 'string' },
  timezone: { type: 'string' },
  pause: { type: 'boolean' },
  resume: { type: 'boolean' },
  delete: { type: 'boolean' },
} as const;

type ScheduleBody = NonNullable<
  paths['/v1/projects/{project_id}/refresh-schedule']['put']['requestBody']
>['content']['application/json'];

/** Registers the two commands under `plat projects`. */
export function registerRefreshCommands(projects: Command): void {
  projects
    .command('refresh')
    .argument('[ID]')
    .action(
      withApi(async (api, [id], flags) => {
        const path = { project_id: needId(id) };
        const started = await ok(api.http.POST('/v1/projects/{project_id}/refresh', { params: { path } }));
        return ended(api, path.project_id, started, flags.wait === true);
      }),
    );
  projects
    .command('backfill')
    .argument('[ID]')
    .action(
      withApi(async (api, [id], flags) => {
        const path = { project_id: needId(id) };
        const from = str(flags.from);
        const to = str(flags.to);
        if (!from || !to) throw usageError('give the days to rebuild: --from YYYY-MM-DD --to YYYY-MM-DD');
        const started = await ok(
          api.http.POST('/v1/projects/{project_id}/backfill', { params: { path }, body: { from, to } }),
        );
        return ended(api, path.project_id, started, flags.wait === true);
      }),
    );
  projects
    .command('schedule')
    .argument('[ID]')
    .action(withApi(async (api, [id], flags) => schedule(api, needId(id), flags)));
  projects
    .command('freshness')
    .argument('[ID]')
    .action(
      withApi(async (api, [id]) => {
        const state = await freshness(api, needId(id));
        return { data: state, text: freshnessText(state) };
      }),
    );
}

type Freshness = Awaited<ReturnType<typeof freshness>>;

/** A started refresh said, or with `wait`, followed to its end (exit 1 when it failed). */
async function ended(
  api: PlatformClient,
  projectId: string,
  started: { refresh_id: string },
  wait: boolean,
): Promise<CommandResult> {
  if (!wait)
    return {
      data: started,
      text: `${started.refresh_id} started\nfollow it: plat projects freshness ${projectId}`,
    };
  const state = await untilEnded(api, projectId, started.refresh_id);
  return { data: state, text: freshnessText(state), exitCode: state.last?.status === 'completed' ? 0 : 1 };
}

const freshness = (api: PlatformClient, projectId: string) =>
  ok(api.http.GET('/v1/projects/{project_id}/refreshes', { params: { path: { project_id: projectId } } }));

/** Polls until the refresh `refreshId` has ended. */
async function untilEnded(api: PlatformClient, projectId: string, refreshId: string): Promise<Freshness> {
  for (;;) {
    const state = await freshness(api, projectId);
    if (state.last?.refresh_id === refreshId && state.last.status !== 'running') return state;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function freshnessText(state: Freshness): string {
  const lines = [`${state.project_id}: as of ${state.as_of ?? 'never built'}`];
  const last = state.last;
  if (!last) return [...lines, 'never refreshed'].join('\n');
  lines.push(
    `last refresh ${last.refresh_id} (${last.trigger}${last.range ? ` of ${last.range.from} to ${last.range.to}` : ''}): ${last.status}${last.error ? `: ${last.error}` : ''}` +
      (last.rows_read !== undefined ? `, ${last.rows_read} rows read` : ''),
  );
  if (last.tables?.length)
    lines.push(
      table(last.tables, [
        'table',
        'read',
        'rows_read',
        'rows_before',
        'rows_after',
        'rows_deleted',
        'detail',
      ]),
    );
  const recomputed = Object.entries(last.recomputed ?? {});
  if (recomputed.length)
    lines.push(
      table(
        recomputed.map(([name, scope]) => ({
          table: name,
          rows: last.rebuilt?.[name] ?? '',
          recomputed: recomputedText(scope),
        })),
        ['table', 'rows', 'recomputed'],
      ),
    );
  return lines.join('\n');
}

/** `plat projects schedule`: set, pause, resume, delete or show the refresh schedule. */
async function schedule(api: PlatformClient, projectId: string, flags: Flags): Promise<CommandResult> {
  const params = { params: { path: { project_id: projectId } } };
  if (flags.delete === true) {
    const res = await ok(api.http.DELETE('/v1/projects/{project_id}/refresh-schedule', params));
    return {
      data: res,
      text: `${projectId}: ${res.deleted ? 'refresh schedule deleted' : 'had no refresh schedule'}`,
    };
  }
  const every = str(flags.every);
  const cron = str(flags.cron);
  const timezone = str(flags.timezone);
  let shown;
  if (every !== undefined || cron !== undefined)
    shown = await ok(
      api.http.PUT('/v1/projects/{project_id}/refresh-schedule', {
        ...params,
        // As given: the gateway says which rule a timing breaks.
        body: { every, cron, timezone } as ScheduleBody,
      }),
    );
  if (flags.pause === true)
    shown = await ok(api.http.POST('/v1/projects/{project_id}/refresh-schedule/pause', params));
  if (flags.resume === true)
    shown = await ok(api.http.POST('/v1/projects/{project_id}/refresh-schedule/resume', params));
  if (shown) return described(projectId, shown, shown);
  // No flag: the API's own answer, a schedule or null.
  const state = await ok(api.http.GET('/v1/projects/{project_id}/refresh-schedule', params));
  if (!state.schedule)
    return { data: state, text: `${projectId}: no refresh schedule (refreshed only when asked)` };
  return described(projectId, state.schedule, state);
}

type ScheduleView = NonNullable<
  paths['/v1/projects/{project_id}/refresh-schedule']['get']['responses'][200]['content']['application/json']['schedule']
>;

/** A schedule's timing and next starts as text; `data` is the API's answer as it came. */
function described(projectId: string, shown: ScheduleView, data: unknown): CommandResult {
  const timing = shown.every ? `every ${shown.every}` : `cron '${shown.cron}' (${shown.timezone ?? 'UTC'})`;
  return {
    data,
    text: [
      `${projectId}: refresh ${timing}${shown.paused ? ', paused' : ''} (Temporal schedule ${shown.schedule_id})`,
      `next: ${shown.next_runs.map((at) => inZone(at, shown.timezone)).join(', ') || '(none while paused)'}`,
    ].join('\n'),
  };
}

/**
 * A start as the person who set the cron reads it: on the wall clock of its time zone, the instant
 * beside it (`2026-12-03 06:00 Europe/Oslo (05:00Z)`); without a zone, the instant alone.
 */
function inZone(at: string, timeZone: string | undefined): string {
  if (!timeZone) return at;
  try {
    // Swedish writes a date and time as ISO does.
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' });
    return `${local.format(new Date(at))} ${timeZone} (${at.slice(11, 16)}Z)`;
  } catch {
    // A zone the server knows and this Node's time-zone data does not: the instant alone.
    return at;
  }
}
