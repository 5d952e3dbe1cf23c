/**
 * Refreshing a project's warehouse on request (docs/refresh.md#refresh-now): the owner, or an
 * operator, starts a refresh workflow of a completed project; one at a time per project, and at most
 * `perUser` at once per owner (docs/security.md#cost-limits).
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ProjectView } from '../../shared/project-model';
import { withRefreshRun, type RefreshRun } from '../../shared/refresh-model';
import { dayRangeProblem, type DayRange } from '../../shared/day-range';
import { projectRefresh } from '../../workflows/analysis/project-refresh';
import type { TokenSubject } from '../auth/id-tokens';
import { HttpError } from '../http-errors';
import { PROJECT_ID_PATTERN } from './project-id';

export interface RefreshStarted {
  project_id: string;
  refresh_id: string;
  status: 'started';
}

/** Refreshes one owner may have running at once when not configured (PLAT_REFRESHES_PER_USER). */
export const DEFAULT_REFRESHES_PER_USER = 2;

export class RefreshService {
  constructor(
    private readonly deps: {
      client: Client;
      taskQueue: string;
      store: ProjectStore;
      /** Refreshes and backfills one owner's projects may have running at once (429 beyond). */
      perUser?: number;
    },
  ) {}

  /** The project, for its owner or an operator; anyone else is told there is no such project. */
  async project(user: TokenSubject, projectId: string): Promise<ProjectView> {
    const view = PROJECT_ID_PATTERN.test(projectId) ? await this.deps.store.getProject(projectId) : undefined;
    if (!view || (view.owner_id !== user.user_id && !user.roles.includes('operator')))
      throw new HttpError(404, 'not_found', `no project ${projectId}`);
    return view;
  }

  /** The project, when its warehouse was built (409 otherwise): what a refresh or a schedule needs. */
  async refreshable(user: TokenSubject, projectId: string): Promise<ProjectView> {
    const view = await this.project(user, projectId);
    if (view.status !== 'completed' || !view.warehouse?.modeling)
      throw new HttpError(
        409,
        'not_refreshable',
        `project ${projectId} is ${view.status}: only a project whose warehouse was built can be refreshed`,
      );
    return view;
  }

  async refreshNow(user: TokenSubject, projectId: string): Promise<RefreshStarted> {
    return this.start(user, projectId, 'manual');
  }

  /**
   * Backfills a range of days (docs/refresh.md#backfill): a refresh that reads every table whole and
   * recomputes the range's days; 422 for a range that is no range of calendar days or is too long.
   */
  async backfill(user: TokenSubject, projectId: string, range: DayRange): Promise<RefreshStarted> {
    const problem = dayRangeProblem(range);
    if (problem) {
      // "from: … is not a calendar day" names its field; a rule between the two is the end's.
      const [, field, message] = /^(from|to): (.*)$/.exec(problem) ?? [problem, 'to', problem];
      throw new HttpError(422, 'invalid_range', problem, [{ field, message }]);
    }
    return this.start(user, projectId, 'backfill', range);
  }

  private async start(
    user: TokenSubject,
    projectId: string,
    trigger: 'manual' | 'backfill',
    range?: DayRange,
  ): Promise<RefreshStarted> {
    const view = await this.refreshable(user, projectId);
    const running = await this.running(view.refresh?.last);
    if (running)
      throw new HttpError(409, 'refresh_running', `a refresh of ${projectId} is running (${running})`);
    await this.withinOwnersLimit(view.owner_id);
    // The time to the millisecond and a random tail: two refreshes never share an id (a project's
    // runs are told apart by it).
    const kind = trigger === 'backfill' ? 'backfill' : 'refresh';
    const refreshId = `${projectId}-${kind}-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
    // Recorded before the workflow starts, not when its first activity runs: a burst of requests
    // meets the owner's cap at once, however busy the workers are (the workflow records the same id).
    const run: RefreshRun = {
      refresh_id: refreshId,
      trigger,
      ...(range ? { range } : {}),
      status: 'running',
      started_at: new Date().toISOString(),
    };
    await this.deps.store.saveRefresh(projectId, (state) => withRefreshRun(state, run));
    try {
      await this.deps.client.workflow.start(projectRefresh, {
        taskQueue: this.deps.taskQueue,
        workflowId: refreshId,
        args: [{ project_id: projectId, trigger, ...(range ? { range } : {}) }],
        staticSummary: range
          ? `Backfill of ${projectId}, ${range.from} to ${range.to}`
          : `Refresh of ${projectId}`,
      });
    } catch (err) {
      const error = `not started: ${err instanceof Error ? err.message : String(err)}`;
      await this.deps.store.saveRefresh(projectId, (state) =>
        withRefreshRun(state, { ...run, status: 'failed', error, ended_at: new Date().toISOString() }),
      );
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        throw new HttpError(409, 'refresh_running', `a refresh of ${projectId} is running (${refreshId})`);
      throw err;
    }
    return { project_id: projectId, refresh_id: refreshId, status: 'started' };
  }

  /**
   * A refresh reads a source and rewrites a warehouse: one owner's many projects refreshed at once
   * would take the fleet's workers from everyone else. Counted across gateways from the project
   * records, each run confirmed by Temporal; two requests racing may both pass, and the cap then
   * holds from the next one on.
   */
  private async withinOwnersLimit(ownerId: string): Promise<void> {
    const limit = this.deps.perUser ?? DEFAULT_REFRESHES_PER_USER;
    let running = 0;
    for (const other of await this.deps.store.refreshingProjects(ownerId)) {
      if (await this.running(other.refresh?.last)) running += 1;
      if (running >= limit)
        throw new HttpError(
          429,
          'too_many_refreshes',
          `${limit} refreshes of this owner's projects are running; start another when one has ended`,
        );
    }
  }

  /** The id of the refresh still running, if the last one recorded as running still is. */
  private async running(last: RefreshRun | undefined): Promise<string | undefined> {
    if (last?.status !== 'running') return undefined;
    try {
      const { status } = await this.deps.client.workflow.getHandle(last.refresh_id).describe();
      return status.name === 'RUNNING' ? last.refresh_id : undefined;
    } catch {
      // Gone from the server (retention): not running.
      return undefined;
    }
  }
}
