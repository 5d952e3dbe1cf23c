/**
 * Activities of the memory pipelines (docs/requirements.md#pipelines): the 15-minute digest of
 * journals, the 01:00 sync of memory files and the 02:00 consolidation. They read the agents'
 * workspaces, keep offsets and hashes in the metadata store, and write through the memory
 * service's public API with idempotency keys, so a retried write never adds anything twice.
 */
import { consolidateJournal, listExpiredShortTerm, promoteShortTerm } from './consolidation';
import { commitJournalOffset, digestJournalChunk, listJournalDeltas } from './journal-digest';
import { listMemoryFiles, syncMemoryFile } from './memory-file-sync';
import { listWorkspaces, type MemoryPipelineDeps } from './pipeline-deps';
import { bindDeps } from '../bind-deps';

export type { DigestChunkRequest, JournalDelta } from './journal-digest';
export type { MemoryPipelineDeps } from './pipeline-deps';

/** The pipelines' activities, bound to their dependencies (each in the file of its pipeline). */
export function createMemoryPipelineActivities(deps: MemoryPipelineDeps) {
  return bindDeps(deps, {
    listWorkspaces,
    listJournalDeltas,
    digestJournalChunk,
    commitJournalOffset,
    listMemoryFiles,
    syncMemoryFile,
    consolidateJournal,
    listExpiredShortTerm,
    promoteShortTerm,
  });
}

export type MemoryPipelineActivities = ReturnType<typeof createMemoryPipelineActivities>;
