/**
 * What the projects API does, independent of HTTP: create (after checking the source), read,
 * decide, cancel. Ownership is enforced here: another user's project does not exist for you.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ParameterStore } from '../../domain/secrets/parameter-store';
import {
  SourceConnectionError,
  SourceNotAllowedError,
  sourceConnector,
} from '../../domain/sources/mysql-connection';
import type { SourcePolicy } from '../../domain/sources/source-policy';
import { emptySourceMessage, readableTableCount } from '../../domain/sources/source-explorer';
import { SourceMisbehavedError, withBoundedSource } from '../../domain/sources/bounded-source';
import { describeTarget, sourcePasswordName, sourceTarget } from '../../shared/mysql-source';
import { initialProjectView } from '../../shared/initial-project-view';
import { stageAttempts, type StageAttempts } from './stage-attempts';
import type { AnalysisProjectInput, Decision, ProjectStatus, ProjectView } from '../../shared/project-model';
import { PROJECT_PHASE_ATTR, PROJECT_STATUS_ATTR } from '../../shared/search-attributes';
import { analysisProject } from '../../workflows/analysis/analysis-project';
import { decideUpdate, type DecisionResult } from '../../workflows/analysis/analysis-project-messages';
import { HttpError } from '../http-errors';
import type { TokenSubject } from '../auth/id-tokens';
import type { CreateProjectRequest } from './create-project-request';
import { PROJECT_ID_PATTERN, newProjectId } from './project-id';
import { ENDED_PROJECT_STATUSES } from '../../shared/project-model';

export interface ProjectServiceDeps {
  client: Client;
  taskQueue: string;
  store: ProjectStore;
  secrets: ParameterStore;
  /** Checked before the probe: a refused source is never sent a packet. */
  sources: SourcePolicy;
}

export class ProjectService {
  constructor(private readonly deps: ProjectServiceDeps) {}

  async create(user: TokenSubject, req: CreateProjectRequest): Promise<ProjectView> {
    // Parsed at validation; the workflow and its activities carry the typed target.
    const { target } = req;
    await this.checkSource(req);
    const project_id = newProjectId();
    const password_ref = await this.deps.secrets.put(sourcePasswordName(project_id), req.password);
    const input: AnalysisProjectInput = {
      project_id,
      owner_id: user.user_id,
      created_at: new Date().toISOString(),
      description: req.description,
      reuse_ods: req.reuse_ods,
      ...(req.reuse_ods ? { reuse_ods_from: await this.reusableOds(user, req) } : {}),
      source: { jdbc_url: req.jdbc_url, username: req.username, password_ref, target },
    };
    const view = initialProjectView(input);
    await this.deps.store.saveProgress(view, []);
    await this.deps.client.workflow.start(analysisProject, {
      taskQueue: this.deps.taskQueue,
      workflowId: project_id,
      args: [input],
      typedSearchAttributes: [
        { key: PROJECT_STATUS_ATTR, value: 'running' },
        { key: PROJECT_PHASE_ATTR, value: 'prd' },
      ],
      staticSummary: `Analysis project on ${describeTarget(target)}`,
    });
    return view;
  }

  list(user: TokenSubject, limit: number, offset: number, statuses?: readonly ProjectStatus[]) {
    return this.deps.store.listProjects(user.user_id, limit, offset, statuses);
  }

  async get(user: TokenSubject, projectId: string): Promise<ProjectView> {
    const view = PROJECT_ID_PATTERN.test(projectId) ? await this.deps.store.getProject(projectId) : undefined;
    if (!view || view.owner_id !== user.user_id)
      throw new HttpError(404, 'not_found', `no project ${projectId}`);
    return view;
  }

  /** Attempts and failures of the project's stages, from its workflow. */
  async stages(user: TokenSubject, projectId: string): Promise<StageAttempts> {
    await this.get(user, projectId);
    return stageAttempts(this.deps.client, projectId);
  }

  async decide(
    user: TokenSubject,
    projectId: string,
    decision: Decision,
    body: { prd?: unknown; reason?: string },
  ): Promise<DecisionResult> {
    await this.get(user, projectId);
    try {
      return await this.deps.client.workflow
        .getHandle(projectId)
        .executeUpdate(decideUpdate, { args: [{ decision, prd: body.prd, reason: body.reason }] });
    } catch (err) {
      throw this.decisionError(projectId, err) ?? err;
    }
  }

  async cancel(user: TokenSubject, projectId: string): Promise<{ project_id: string; status: string }> {
    const view = await this.get(user, projectId);
    if (ENDED_PROJECT_STATUSES.includes(view.status)) {
      throw new HttpError(409, 'not_running', `project ${projectId} is already ${view.status}`);
    }
    await this.deps.client.workflow.getHandle(projectId).cancel();
    return { project_id: projectId, status: 'cancelling' };
  }

  /**
   * The caller's newest completed project on the same database (host, port, name) read as the same
   * user, whose ODS a new project can reuse; undefined when there is none.
   */
  private async reusableOds(user: TokenSubject, req: CreateProjectRequest): Promise<string | undefined> {
    const same = (view: ProjectView) => {
      const target = sourceTarget(view.source);
      return (
        view.source.username === req.username &&
        target.host === req.target.host &&
        target.port === req.target.port &&
        target.database === req.target.database
      );
    };
    for (let offset = 0; ; offset += 100) {
      const page = await this.deps.store.listProjects(user.user_id, 100, offset);
      const found = page.projects.find((p) => p.status === 'completed' && p.warehouse?.ods && same(p));
      if (found) return found.project_id;
      if (offset + 100 >= page.total) return undefined;
    }
  }

  private async checkSource(req: CreateProjectRequest): Promise<void> {
    /** A count of tables is a few hundred bytes: the probe takes a megabyte at most, and 5 s of silence. */
    const PROBE_BOUNDS = { maxBytes: 1_000_000, idleMs: 5_000 };
    try {
      // A probe, not the ingestion: a user waiting on the create learns of an unreachable host in 5 s.
      const db = await sourceConnector(
        req.target,
        req.username,
        req.password,
        5_000,
        this.deps.sources,
      ).connect();
      try {
        // A server that stalls or floods holds no gateway request (docs/security.md#sources).
        const tables = await withBoundedSource(db, PROBE_BOUNDS, (c) =>
          readableTableCount(c, req.target.database),
        );
        if (tables === 0) throw new HttpError(422, 'source_empty', emptySourceMessage(req.target.database));
      } finally {
        await db.end().catch(() => undefined);
      }
    } catch (err) {
      if (err instanceof SourceMisbehavedError) throw new HttpError(422, 'source_misbehaved', err.message);
      // Said at once and the same for every refused address: the gateway is no port scanner.
      if (err instanceof SourceNotAllowedError) {
        throw new HttpError(422, 'source_not_allowed', err.message, [
          { field: 'jdbc_url', message: 'not allowed by the source policy' },
        ]);
      }
      if (err instanceof SourceConnectionError) {
        throw new HttpError(422, 'source_unreachable', err.message, { driver_code: err.code });
      }
      throw err;
    }
  }

  private decisionError(projectId: string, err: unknown): HttpError | undefined {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
      if (err.cause.type === 'InvalidPrd') {
        const issues = (err.cause.details?.[0] as { path: string; message: string }[] | undefined) ?? [];
        return new HttpError(
          400,
          'invalid_prd',
          `the edited PRD is invalid: ${issues
            .slice(0, 3)
            .map((i) => `${i.path || '(root)'}: ${i.message}`)
            .join('; ')}`,
          issues.map((i) => ({ field: `prd.${i.path}`.replace(/\.$/, ''), message: i.message })),
        );
      }
      if (err.cause.type === 'NoDecisionPending')
        return new HttpError(409, 'no_decision_pending', err.cause.message);
    }
    if (
      err instanceof WorkflowNotFoundError ||
      /already completed|not found/i.test(String((err as Error)?.message))
    ) {
      return new HttpError(
        409,
        'no_decision_pending',
        `project ${projectId} is no longer running: no PRD is waiting for a decision`,
      );
    }
    return undefined;
  }
}
