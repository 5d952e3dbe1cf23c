/**
 * Refreshing a project's warehouse on request (docs/refresh.md#refresh-now): the owner, or an
 * operator, starts a refresh workflow of a completed project; one at a time per project.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ProjectView } from '../../shared/project-model';
import type { RefreshRun } from '../../shared/refresh-model';
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

export class RefreshService {
  constructor(private readonly deps: { client: Client; taskQueue: string; store: ProjectStore }) {}

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
    // The time to the millisecond and a random tail: two refreshes never share an id (a project's
    // runs are told apart by it).
    const kind = trigger === 'backfill' ? 'backfill' : 'refresh';
    const refreshId = `${projectId}-${kind}-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(2).toString('hex')}`;
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
      if (err instanceof WorkflowExecutionAlreadyStartedError)
        throw new HttpError(409, 'refresh_running', `a refresh of ${projectId} is running (${refreshId})`);
      throw err;
    }
    return { project_id: projectId, refresh_id: refreshId, status: 'started' };
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
