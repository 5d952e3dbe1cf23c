/** The workflow's bookkeeping activity: saves the project's latest view and new events. */
import type { ProjectStore } from '../../domain/metadata-store/project-store';
import type { ProjectEvent, ProjectView } from '../../shared/project-model';

export interface RecordProgressDeps {
  store: ProjectStore;
  /** Called with the events stored for the first time (metrics). */
  onStoredEvents?: (events: ProjectEvent[]) => void;
}

/** Persists the project's latest view and new events (idempotent by event key). */
export async function recordProgress(
  { store, onStoredEvents }: RecordProgressDeps,
  view: ProjectView,
  events: ProjectEvent[],
): Promise<void> {
  // Save first: `f?.(save())` would skip the save when there is no observer.
  const stored = await store.saveProgress(view, events);
  onStoredEvents?.(stored);
}
