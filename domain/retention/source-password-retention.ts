/**
 * Retention of projects' source passwords (docs/monitoring.md#retention): a project's password is
 * read while its workflow runs (the PRD and the copy; `reuse_ods` copies files, not the source) and
 * by its refreshes, so once the project has ended and not refreshed for the period, and refreshes
 * on no schedule, it is deleted from the parameter store, as is a password whose project the
 * metadata store no longer has. Items carry names, never values.
 */
import type { MetadataDb } from '../metadata-store/metadata-db';
import type { ParameterStore, StoredParameter } from '../secrets/parameter-store';
import { ageInDays, retentionCutoff, type RetentionItem } from './retention-periods';
import { ENDED_PROJECT_STATUSES, type ProjectStatus, type ProjectView } from '../../shared/project-model';

/** Statuses after which a project's workflow never runs again. */
/** `projects/<project id>/…`: the parameters the gateway stores for a project. */
const PROJECT_PARAMETER = /^projects\/([^/]+)\//;
/** The target of an item: the parameter's name, so a rerun or a report never holds the value. */
const TARGET_PREFIX = 'secret: ';

/** Source passwords past their period at `now`. */
export async function planSourcePasswords(
  secrets: ParameterStore,
  metadata: MetadataDb,
  now: Date,
): Promise<RetentionItem[]> {
  const cutoff = retentionCutoff('source_passwords', now).toISOString();
  const stored = (await secrets.list())
    .map((p) => ({ parameter: p, projectId: PROJECT_PARAMETER.exec(p.name)?.[1] }))
    .filter((p): p is { parameter: StoredParameter; projectId: string } => !!p.projectId);
  if (!stored.length) return [];
  const projects = new Map(
    (
      await metadata.db
        .selectFrom('projects')
        .select(['project_id', 'status', 'updated_at', 'view_json'])
        .where('project_id', 'in', [...new Set(stored.map((p) => p.projectId))])
        .execute()
    ).map((p) => [p.project_id, p]),
  );
  const items: RetentionItem[] = [];
  for (const { parameter, projectId } of stored) {
    const project = projects.get(projectId);
    // A project's row is written just after its password: a young orphan may be a creation in flight.
    const since = project ? idleSince(project) : parameter.updated_at;
    if (!since || since >= cutoff) continue;
    items.push({
      kind: 'source_passwords',
      target: TARGET_PREFIX + parameter.name,
      detail: `source password of ${projectId} (${project ? `project ${project.status}` : 'no such project'})`,
      bytes: 0,
      age_days: ageInDays(new Date(since), now),
    });
  }
  return items;
}

/**
 * When a project stopped needing its source: never while it runs or refreshes on a schedule; else
 * since it ended or last refreshed, whichever is later (docs/refresh.md#the-source-password).
 */
function idleSince(project: { status: string; updated_at: string; view_json: string }): string | undefined {
  if (!ENDED_PROJECT_STATUSES.includes(project.status as ProjectStatus)) return undefined;
  const { refresh } = JSON.parse(project.view_json) as Pick<ProjectView, 'refresh'>;
  if (refresh?.schedule) return undefined;
  const refreshed = refresh?.last?.started_at;
  return refreshed && refreshed > project.updated_at ? refreshed : project.updated_at;
}

/** Deletes the planned passwords; one deleted already (a rerun, another pass) is no error. */
export async function applySourcePasswords(secrets: ParameterStore, items: RetentionItem[]): Promise<void> {
  const refs = new Map((await secrets.list()).map((p) => [p.name, p.ref]));
  for (const item of items) {
    if (item.kind !== 'source_passwords') continue;
    const ref = refs.get(item.target.slice(TARGET_PREFIX.length));
    if (ref) await secrets.delete(ref);
  }
}
