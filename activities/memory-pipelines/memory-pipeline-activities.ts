/**
 * Activities of the memory pipelines (docs/requirements.md#pipelines): the 15-minute digest of
 * journals, the 01:00 sync of memory files and the 02:00 consolidation. They read the agents'
 * workspaces, keep offsets and hashes in the metadata store, and write through the memory
 * service's public API with idempotency keys, so a retried write never adds anything twice.
 */
import { consolidateJournal, listExpiredShortTerm, promoteShortTerm } from './consolidation';
import {
  commitJournalOffset,
  digestJournalChunk,
  listJournalDeltas,
  type DigestChunkRequest,
} from './journal-digest';
import { listMemoryFiles, syncMemoryFile } from './memory-file-sync';
import type { MemoryPipelineDeps } from './pipeline-deps';

export type { DigestChunkRequest, JournalDelta } from './journal-digest';
export type { MemoryPipelineDeps } from './pipeline-deps';

/** The pipelines' activities, bound to their dependencies (each in the file of its pipeline). */
export function createMemoryPipelineActivities(deps: MemoryPipelineDeps) {
  return {
    /** Names of the configured workspaces. */
    listWorkspaces: async (): Promise<string[]> => deps.workspaces.map((w) => w.name),
    listJournalDeltas: () => listJournalDeltas(deps),
    digestJournalChunk: (req: DigestChunkRequest) => digestJournalChunk(deps, req),
    commitJournalOffset: (req: Parameters<typeof commitJournalOffset>[1]) => commitJournalOffset(deps, req),
    listMemoryFiles: () => listMemoryFiles(deps),
    syncMemoryFile: (req: Parameters<typeof syncMemoryFile>[1]) => syncMemoryFile(deps, req),
    consolidateJournal: (req: Parameters<typeof consolidateJournal>[1]) => consolidateJournal(deps, req),
    listExpiredShortTerm: (req: Parameters<typeof listExpiredShortTerm>[1]) =>
      listExpiredShortTerm(deps, req),
    promoteShortTerm: (req: Parameters<typeof promoteShortTerm>[1]) => promoteShortTerm(deps, req),
  };
}

export type MemoryPipelineActivities = ReturnType<typeof createMemoryPipelineActivities>;
