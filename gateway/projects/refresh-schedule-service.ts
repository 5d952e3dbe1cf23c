/**
 * A project's refresh schedule (docs/refresh.md#schedules): set, read, paused, resumed and deleted
 * by the owner or an operator. Temporal's Schedule is the truth of when refreshes start; the project
 * record keeps a copy, so the pages and retention read it without asking Temporal.
 */
import { ScheduleAlreadyRunning, ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ProjectRefreshState, RefreshSchedule } from '../../shared/refresh-model';
import {
  refreshScheduleId,
  refreshScheduleOptions,
  type RefreshTiming,
} from '../../schedules/project-refresh-schedule';
import type { TokenSubject } from '../auth/id-tokens';
import { HttpError } from '../http-errors';
import type { RefreshService } from './refresh-service';

/** A schedule as the API answers it: the timing, whether it is paused, and when it runs next. */
export interface RefreshScheduleView extends RefreshSchedule {
  project_id: string;
  /** The next start times (up to five). */
  next_runs: string[];
  /** The refreshes it started most recently, newest first. */
  recent_runs: { refresh_id: string; scheduled_at: string }[];
  /** Starts skipped because the previous refresh still ran. */
  skipped_overlapping: number;
}

/** What `GET …/refresh-schedule` answers: the schedule, or null for a project refreshed by hand only. */
export interface RefreshScheduleState {
  project_id: string;
  schedule: RefreshScheduleView | null;
}

export class RefreshScheduleService {
  constructor(
    private readonly deps: {
      client: Client;
      taskQueue: string;
      store: ProjectStore;
      refreshes: RefreshService;
    },
  ) {}

  async set(user: TokenSubject, projectId: string, timing: RefreshTiming): Promise<RefreshScheduleView> {
    const view = await this.deps.refreshes.refreshable(user, projectId);
    const options = refreshScheduleOptions(projectId, this.deps.taskQueue, timing);
    let paused = false;
    try {
      try {
        await this.deps.client.schedule.create(options);
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
        // A new timing keeps a pause: resuming is its own decision.
        await this.handle(projectId).update((previous) => {
          paused = previous.state.paused;
          return { ...previous, spec: options.spec, action: options.action, policies: options.policies };
        });
      }
    } catch (err) {
      throw unreadableTiming(err) ?? err;
    }
    await this.record(view.project_id, {
      ...timing,
      ...(timing.cron ? { timezone: timing.timezone ?? 'UTC' } : {}),
      paused,
      schedule_id: options.scheduleId,
      updated_at: new Date().toISOString(),
    });
    return this.get(user, projectId);
  }

  /**
   * The project's schedule, `schedule: null` when it has none: a project without one is no missing
   * resource, only one refreshed by hand (docs/refresh.md#schedules).
   */
  async state(user: TokenSubject, projectId: string): Promise<RefreshScheduleState> {
    const view = await this.deps.refreshes.project(user, projectId);
    return {
      project_id: view.project_id,
      schedule: await this.current(view.project_id, view.refresh?.schedule),
    };
  }

  private async get(user: TokenSubject, projectId: string): Promise<RefreshScheduleView> {
    const { schedule } = await this.state(user, projectId);
    if (!schedule) throw noSchedule(projectId);
    return schedule;
  }

  /** The recorded schedule as Temporal runs it, or null when there is none (in the record or in Temporal). */
  private async current(
    projectId: string,
    recorded: RefreshSchedule | undefined,
  ): Promise<RefreshScheduleView | null> {
    if (!recorded) return null;
    let described;
    try {
      described = await this.handle(projectId).describe();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
      // Deleted in Temporal (an operator, a reset): the record follows.
      await this.record(projectId, undefined);
      return null;
    }
    return {
      project_id: projectId,
      ...recorded,
      paused: described.state.paused,
      next_runs: described.info.nextActionTimes.slice(0, 5).map((d) => d.toISOString()),
      recent_runs: described.info.recentActions
        .map((a) => ({ refresh_id: a.action.workflow.workflowId, scheduled_at: a.scheduledAt.toISOString() }))
        .reverse(),
      skipped_overlapping: described.info.numActionsSkippedOverlap,
    };
  }

  async pause(user: TokenSubject, projectId: string, paused: boolean): Promise<RefreshScheduleView> {
    const view = await this.deps.refreshes.project(user, projectId);
    const recorded = view.refresh?.schedule;
    if (!recorded) throw noSchedule(projectId);
    const note = `${paused ? 'paused' : 'resumed'} by ${user.username}`;
    try {
      if (paused) await this.handle(projectId).pause(note);
      else await this.handle(projectId).unpause(note);
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) throw noSchedule(projectId);
      throw err;
    }
    await this.record(projectId, { ...recorded, paused, updated_at: new Date().toISOString() });
    return this.get(user, projectId);
  }

  /** Deletes the schedule; `deleted: false` when there was none (deleting twice is no error). */
  async remove(user: TokenSubject, projectId: string): Promise<{ project_id: string; deleted: boolean }> {
    const view = await this.deps.refreshes.project(user, projectId);
    if (!view.refresh?.schedule) return { project_id: view.project_id, deleted: false };
    await this.handle(projectId)
      .delete()
      .catch((err: unknown) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
    await this.record(projectId, undefined);
    return { project_id: projectId, deleted: true };
  }

  private handle(projectId: string) {
    return this.deps.client.schedule.getHandle(refreshScheduleId(projectId));
  }

  private async record(projectId: string, schedule: RefreshSchedule | undefined): Promise<void> {
    await this.deps.store.saveRefresh(projectId, (state) => {
      const next: ProjectRefreshState = { ...(state ?? { history: [] }), schedule };
      if (!schedule) delete next.schedule;
      return next;
    });
  }
}

/**
 * Temporal's refusal of a timing its parser cannot read (`Hour is not in range [0-23]`): the client
 * turns the server's INVALID_ARGUMENT into a TypeError. Answered 422, naming the cron.
 */
function unreadableTiming(err: unknown): HttpError | undefined {
  if (!(err instanceof TypeError)) return undefined;
  return new HttpError(422, 'invalid_schedule', `the scheduler cannot read this timing: ${err.message}`, [
    { field: 'cron', message: err.message },
  ]);
}

/** Pausing or resuming what is not there: the project exists, in a state that refuses it. */
const noSchedule = (projectId: string) =>
  new HttpError(409, 'no_schedule', `project ${projectId} has no refresh schedule`);
