/** Reads and writes project records, events and agent logs in the metadata store. */
import { sql, type Transaction } from 'kysely';
import type { MetadataDb } from './metadata-db';
import type { MetadataTables } from './metadata-tables';
import type { ProjectEvent, ProjectStatus, ProjectView } from '../../shared/project-model';
import { normalizeProjectView } from '../../shared/project-view-compat';
import type { ArtifactKind } from '../../shared/warehouse-model';
import type { ProjectRefreshState } from '../../shared/refresh-model';

export interface StoredEvent extends ProjectEvent {
  event_id: number;
}

export interface AgentLogEntry {
  log_key: string;
  project_id: string;
  agent: string;
  phase: string;
  tool: string;
  params: Record<string, unknown>;
  summary: string;
  duration_ms: number;
  input_tokens?: number;
  output_tokens?: number;
  timestamp: string;
}

/**
 * Events written by one INSERT at most: 8 parameters each stays far below SQLite's limit of
 * 32,766 bound parameters a statement.
 */
const EVENTS_PER_INSERT = 500;

/** The channel on which a shared store announces the projects that have new events. */
const EVENTS_CHANNEL = 'plat_events';

export class ProjectStore {
  constructor(private readonly metadata: MetadataDb) {}

  private get db() {
    return this.metadata.db;
  }

  /**
   * Saves the latest view (an older snapshot never overwrites a newer one) and its events,
   * idempotently; returns the events stored now (not those a retry had stored already).
   * A view in the older phases shape (a workflow still run by a previous worker version) is
   * stored in today's shape.
   */
  async saveProgress(given: ProjectView, events: ProjectEvent[]): Promise<ProjectEvent[]> {
    const view = normalizeProjectView(given);
    return this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('projects')
        .values({
          project_id: view.project_id,
          owner_id: view.owner_id,
          created_at: view.created_at,
          updated_at: view.updated_at,
          status: view.status,
          view_json: JSON.stringify(view),
        })
        .onConflict((oc) =>
          oc
            .column('project_id')
            .doUpdateSet((eb) => ({
              updated_at: eb.ref('excluded.updated_at'),
              status: eb.ref('excluded.status'),
              view_json: eb.ref('excluded.view_json'),
            }))
            .where(sql<boolean>`excluded.updated_at >= projects.updated_at`),
        )
        .execute();
      return this.insertEvents(tx, events);
    });
  }

  /**
   * Records a refresh run on a project that has ended its build (docs/refresh.md#on-the-project):
   * the record's `refresh` becomes `change(refresh)`, in one transaction. Answers the record as
   * saved, or undefined when there is no such project.
   */
  async saveRefresh(
    projectId: string,
    change: (state: ProjectRefreshState | undefined) => ProjectRefreshState,
  ): Promise<ProjectView | undefined> {
    return this.db.transaction().execute(async (tx) => {
      let read = tx.selectFrom('projects').select('view_json').where('project_id', '=', projectId);
      // Two refreshes' records never overwrite each other: on PostgreSQL the row is locked until the
      // write (SQLite's transaction holds the whole file).
      if (this.metadata.dialect === 'postgres') read = read.forUpdate();
      const row = await read.executeTakeFirst();
      if (!row) return undefined;
      const view = normalizeProjectView(JSON.parse(row.view_json));
      const saved: ProjectView = { ...view, refresh: change(view.refresh) };
      await tx
        .updateTable('projects')
        .set({ view_json: JSON.stringify(saved) })
        .where('project_id', '=', projectId)
        .execute();
      return saved;
    });
  }

  /**
   * Appends events; one already stored under the same event_key is not stored again. Answers the
   * events stored now (not those a retry had stored already).
   */
  async addEvents(events: ProjectEvent[]): Promise<ProjectEvent[]> {
    if (!events.length) return [];
    return this.db.transaction().execute((tx) => this.insertEvents(tx, events));
  }

  /**
   * On PostgreSQL, event ids come from a sequence, which hands them out before commit: two writers
   * of one project could commit out of id order, and a reader whose cursor passed the higher id
   * would never see the lower one. A per-project transaction lock makes each project's ids follow
   * commit order; the commit then announces the project to listening gateways.
   */
  private async insertEvents(
    tx: Transaction<MetadataTables>,
    events: ProjectEvent[],
  ): Promise<ProjectEvent[]> {
    const shared = this.metadata.dialect === 'postgres';
    const projects = [...new Set(events.map((e) => e.project_id))].sort();
    if (shared) {
      for (const id of projects)
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`plat-events:${id}`}))`.execute(tx);
    }
    // One statement a batch rather than a round trip an event: a save brings up to dozens.
    const fresh = new Set<string>();
    const keys = new Set<string>();
    const unique = events.filter((e) => !keys.has(e.event_key) && keys.add(e.event_key));
    for (let i = 0; i < unique.length; i += EVENTS_PER_INSERT) {
      const inserted = await tx
        .insertInto('events')
        .values(
          unique.slice(i, i + EVENTS_PER_INSERT).map((e) => ({
            project_id: e.project_id,
            event_key: e.event_key,
            event_type: e.event_type,
            phase: e.phase,
            status: e.status,
            message: e.message,
            payload_json: JSON.stringify(e.payload ?? {}),
            timestamp: e.timestamp,
          })),
        )
        .onConflict((oc) => oc.column('event_key').doNothing())
        .returning('event_key')
        .execute();
      for (const row of inserted) fresh.add(row.event_key);
    }
    const stored = unique.filter((e) => fresh.has(e.event_key));
    if (shared) {
      for (const id of new Set(stored.map((e) => e.project_id)))
        await sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${id})`.execute(tx);
    }
    return stored;
  }

  /**
   * Calls `listener` with a project's id whenever events of it are committed by any process; answers
   * the function that stops it, or undefined when the store cannot push (the caller polls).
   */
  async watchEvents(listener: (projectId: string) => void): Promise<(() => void) | undefined> {
    return this.metadata.notifications?.listen(EVENTS_CHANNEL, listener);
  }

  async addAgentLogs(entries: AgentLogEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.db
      .insertInto('agent_logs')
      .values(
        entries.map((e) => ({
          project_id: e.project_id,
          log_key: e.log_key,
          agent: e.agent,
          phase: e.phase,
          tool: e.tool,
          params_json: JSON.stringify(e.params),
          summary: e.summary,
          duration_ms: e.duration_ms,
          input_tokens: e.input_tokens ?? 0,
          output_tokens: e.output_tokens ?? 0,
          timestamp: e.timestamp,
        })),
      )
      .onConflict((oc) => oc.column('log_key').doNothing())
      .execute();
  }

  /** The project record; one stored in the older phases shape is read in today's (shared/project-view-compat.ts). */
  async getProject(projectId: string): Promise<ProjectView | undefined> {
    const row = await this.db
      .selectFrom('projects')
      .select('view_json')
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    return row ? normalizeProjectView(JSON.parse(row.view_json)) : undefined;
  }

  /**
   * Every completed project that refreshes on a schedule (docs/refresh.md#freshness). The record's
   * JSON is matched as text, the same on SQLite and PostgreSQL; a false match is read and dropped.
   */
  async scheduledProjects(): Promise<ProjectView[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select('view_json')
      .where('status', '=', 'completed')
      .where('view_json', 'like', '%"schedule":{%')
      .execute();
    return rows
      .map((r) => normalizeProjectView(JSON.parse(r.view_json)))
      .filter((v) => v.refresh?.schedule !== undefined);
  }

  /**
   * The owner's completed projects whose last refresh is recorded as running (docs/security.md#cost-limits).
   * Matched as text first, the same on SQLite and PostgreSQL; a false match is read and dropped.
   */
  async refreshingProjects(ownerId: string): Promise<ProjectView[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select('view_json')
      .where('owner_id', '=', ownerId)
      .where('status', '=', 'completed')
      .where('view_json', 'like', '%"status":"running"%')
      .execute();
    return rows
      .map((r) => normalizeProjectView(JSON.parse(r.view_json)))
      .filter((v) => v.refresh?.last?.status === 'running');
  }

  /** The owner's projects, newest first; only those in `statuses` when given. */
  async listProjects(
    ownerId: string,
    limit: number,
    offset: number,
    statuses?: readonly ProjectStatus[],
  ): Promise<{ total: number; projects: ProjectView[] }> {
    let query = this.db.selectFrom('projects').where('owner_id', '=', ownerId);
    if (statuses?.length) query = query.where('status', 'in', [...statuses]);
    const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await query
      .select('view_json')
      .orderBy('created_at', 'desc')
      .orderBy('project_id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), projects: rows.map((r) => normalizeProjectView(JSON.parse(r.view_json))) };
  }

  /** How many running projects each host holds (`warehouse.host`; docs/fleet.md#project-files). */
  async runningProjectsByHost(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('projects')
      .select('view_json')
      .where('status', '=', 'running')
      .execute();
    const counts = new Map<string, number>();
    for (const r of rows) {
      const host = (JSON.parse(r.view_json) as ProjectView).warehouse?.host;
      if (host) counts.set(host, (counts.get(host) ?? 0) + 1);
    }
    return counts;
  }

  /** Cost record of every project updated since `sinceIso` (the cost reporter's input). */
  async costsUpdatedSince(sinceIso: string): Promise<{ project_id: string; cost: ProjectView['cost'] }[]> {
    const rows = await this.db
      .selectFrom('projects')
      .select(['project_id', 'view_json'])
      .where('updated_at', '>=', sinceIso)
      .execute();
    return rows.map((r) => ({
      project_id: r.project_id,
      cost: (JSON.parse(r.view_json) as ProjectView).cost,
    }));
  }

  async eventsSince(projectId: string, afterEventId: number): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('event_id', '>', afterEventId)
      .orderBy('event_id')
      .execute();
    return rows.map(({ payload_json, ...e }) => ({
      ...e,
      payload: JSON.parse(payload_json) as Record<string, unknown>,
    })) as StoredEvent[];
  }

  async agentLogs(projectId: string): Promise<AgentLogEntry[]> {
    const rows = await this.db
      .selectFrom('agent_logs')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute();
    return rows.map(({ params_json, ...e }) => ({
      ...e,
      params: JSON.parse(params_json) as Record<string, unknown>,
    }));
  }

  /** Stores (replacing) one of the project's reports: scripts, quality report, profile, ... */
  async putArtifact(projectId: string, kind: ArtifactKind, content: unknown): Promise<void> {
    await this.db
      .insertInto('project_artifacts')
      .values({
        project_id: projectId,
        kind,
        content_json: JSON.stringify(content),
        updated_at: new Date().toISOString(),
      })
      .onConflict((oc) =>
        oc.columns(['project_id', 'kind']).doUpdateSet((eb) => ({
          content_json: eb.ref('excluded.content_json'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  async getArtifact<T = unknown>(projectId: string, kind: ArtifactKind): Promise<T | undefined> {
    const row = await this.db
      .selectFrom('project_artifacts')
      .select('content_json')
      .where('project_id', '=', projectId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row ? (JSON.parse(row.content_json) as T) : undefined;
  }
}
