/** Reads and writes project records, events and agent logs in the metadata store. */
import type { MetadataDb } from './metadata-db';
import type { ProjectEvent, ProjectStatus, ProjectView } from '../../shared/project-model';
import { normalizeProjectView } from '../../shared/project-view-compat';
import type { ArtifactKind } from '../../shared/warehouse-model';

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

export class ProjectStore {
  constructor(private readonly db: MetadataDb) {}

  /**
   * Saves the latest view (an older snapshot never overwrites a newer one) and its events,
   * idempotently; returns the events stored now (not those a retry had stored already).
   * A view in the older phases shape (a workflow still run by a previous worker version) is
   * stored in today's shape.
   */
  saveProgress(given: ProjectView, events: ProjectEvent[]): ProjectEvent[] {
    const view = normalizeProjectView(given);
    const upsert = this.db.prepare(
      `INSERT INTO projects (project_id, owner_id, created_at, updated_at, status, view_json) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET updated_at = excluded.updated_at, status = excluded.status, view_json = excluded.view_json
       WHERE excluded.updated_at >= projects.updated_at`,
    );
    return this.db.transaction(() => {
      upsert.run(
        view.project_id,
        view.owner_id,
        view.created_at,
        view.updated_at,
        view.status,
        JSON.stringify(view),
      );
      return this.insertEvents(events);
    })();
  }

  /** Appends events; one already stored under the same event_key is not stored again. */
  addEvents(events: ProjectEvent[]): void {
    this.db.transaction(() => this.insertEvents(events))();
  }

  private insertEvents(events: ProjectEvent[]): ProjectEvent[] {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO events (project_id, event_key, event_type, phase, status, message, payload_json, timestamp)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const payload = (e: ProjectEvent) => JSON.stringify(e.payload ?? {});
    return events.filter(
      (e) =>
        insert.run(
          e.project_id,
          e.event_key,
          e.event_type,
          e.phase,
          e.status,
          e.message,
          payload(e),
          e.timestamp,
        ).changes > 0,
    );
  }

  addAgentLogs(entries: AgentLogEntry[]): void {
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO agent_logs (project_id, log_key, agent, phase, tool, params_json, summary, duration_ms, input_tokens, output_tokens, timestamp)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const e of entries) {
        insert.run(
          e.project_id,
          e.log_key,
          e.agent,
          e.phase,
          e.tool,
          JSON.stringify(e.params),
          e.summary,
          e.duration_ms,
          e.input_tokens ?? 0,
          e.output_tokens ?? 0,
          e.timestamp,
        );
      }
    })();
  }

  /** The project record; one stored in the older phases shape is read in today's (shared/project-view-compat.ts). */
  getProject(projectId: string): ProjectView | undefined {
    const row = this.db.prepare('SELECT view_json FROM projects WHERE project_id = ?').get(projectId) as
      { view_json: string } | undefined;
    return row ? normalizeProjectView(JSON.parse(row.view_json)) : undefined;
  }

  /** The owner's projects, newest first; only those in `statuses` when given. */
  listProjects(
    ownerId: string,
    limit: number,
    offset: number,
    statuses?: readonly ProjectStatus[],
  ): { total: number; projects: ProjectView[] } {
    const filter = statuses?.length ? ` AND status IN (${statuses.map(() => '?').join(', ')})` : '';
    const args = [ownerId, ...(statuses ?? [])];
    const total = (
      this.db.prepare(`SELECT COUNT(*) AS n FROM projects WHERE owner_id = ?${filter}`).get(...args) as {
        n: number;
      }
    ).n;
    const rows = this.db
      .prepare(
        `SELECT view_json FROM projects WHERE owner_id = ?${filter} ORDER BY created_at DESC, project_id DESC LIMIT ? OFFSET ?`,
      )
      .all(...args, limit, offset) as { view_json: string }[];
    return { total, projects: rows.map((r) => normalizeProjectView(JSON.parse(r.view_json))) };
  }

  /** Cost record of every project updated since `sinceIso` (the cost reporter's input). */
  costsUpdatedSince(sinceIso: string): { project_id: string; cost: ProjectView['cost'] }[] {
    const rows = this.db
      .prepare('SELECT project_id, view_json FROM projects WHERE updated_at >= ?')
      .all(sinceIso) as {
      project_id: string;
      view_json: string;
    }[];
    return rows.map((r) => ({
      project_id: r.project_id,
      cost: (JSON.parse(r.view_json) as ProjectView).cost,
    }));
  }

  eventsSince(projectId: string, afterEventId: number): StoredEvent[] {
    const rows = this.db
      .prepare('SELECT * FROM events WHERE project_id = ? AND event_id > ? ORDER BY event_id')
      .all(projectId, afterEventId) as (Omit<StoredEvent, 'payload'> & { payload_json: string })[];
    return rows.map(({ payload_json, ...e }) => ({
      ...e,
      payload: JSON.parse(payload_json) as Record<string, unknown>,
    }));
  }

  agentLogs(projectId: string): AgentLogEntry[] {
    const rows = this.db
      .prepare('SELECT * FROM agent_logs WHERE project_id = ? ORDER BY id')
      .all(projectId) as (Omit<AgentLogEntry, 'params'> & {
      params_json: string;
    })[];
    return rows.map(({ params_json, ...e }) => ({
      ...e,
      params: JSON.parse(params_json) as Record<string, unknown>,
    }));
  }

  /** Stores (replacing) one of the project's reports: scripts, quality report, profile, ... */
  putArtifact(projectId: string, kind: ArtifactKind, content: unknown): void {
    this.db
      .prepare(
        `INSERT INTO project_artifacts (project_id, kind, content_json, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (project_id, kind) DO UPDATE SET content_json = excluded.content_json, updated_at = excluded.updated_at`,
      )
      .run(projectId, kind, JSON.stringify(content), new Date().toISOString());
  }

  getArtifact<T = unknown>(projectId: string, kind: ArtifactKind): T | undefined {
    const row = this.db
      .prepare('SELECT content_json FROM project_artifacts WHERE project_id = ? AND kind = ?')
      .get(projectId, kind) as { content_json: string } | undefined;
    return row ? (JSON.parse(row.content_json) as T) : undefined;
  }
}
