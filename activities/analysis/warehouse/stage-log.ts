/** A warehouse stage's work-log entry, one per attempt and key (shown live on the project page). */
import { activityInfo } from '@temporalio/activity';
import type { ProjectStore } from '../../../domain/metadata-store/project-store';
import type { PhaseName, ProjectEvent } from '../../../shared/project-model';

export async function logStage(
  store: ProjectStore,
  projectId: string,
  phase: PhaseName,
  key: string,
  message: string,
  payload = {},
): Promise<void> {
  const event: ProjectEvent = {
    event_key: `${projectId}:${phase}:a${activityInfo().attempt}:${key}`,
    project_id: projectId,
    event_type: 'log_entry',
    phase,
    status: 'running',
    message,
    timestamp: new Date().toISOString(),
    payload,
  };
  await store.addEvents([event]);
}
