/**
 * The memory pipelines on Temporal Schedules (docs/requirements.md#pipelines; all times UTC):
 * - memoryDigestWorkflow, every 15 minutes: each journal's new bytes, once at least 2000, become
 *   short-term memories plus a task pass; the offset moves only after both writes succeeded.
 * - memorySyncWorkflow, 01:00: memory files whose content changed become long-term memory.
 * - memoryConsolidationWorkflow (auto_dream), 02:00: yesterday's journal becomes long-term memory,
 *   and short-term memories older than 7 days are re-added as long-term, then deleted.
 */
import { ApplicationFailure, log } from '@temporalio/workflow';
import type { MemoryPipelineActivities } from '../../activities/memory-pipelines/memory-pipeline-activities';
import { workloadActivities } from '../fleet/workload-activities';

/** The digest's extraction threshold (docs/requirements.md#pipelines). */
export const DIGEST_MIN_BYTES = 2000;
/** Short-term memories older than this many days are consolidated. */
export const SHORT_TERM_DAYS = 7;
const DAY_MS = 86_400_000;

const acts = workloadActivities<MemoryPipelineActivities>('operations', {
  startToCloseTimeout: '10 minutes',
  retry: {
    maximumAttempts: 3,
    initialInterval: '5 seconds',
    nonRetryableErrorTypes: ['MemoryRequestRejected'],
  },
});

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const reason = (err: unknown) =>
  err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);

export interface DigestSummary {
  digested: { workspace: string; file: string; bytes: number; short_term: number; tasks: number }[];
  waiting: { workspace: string; file: string; bytes: number }[];
  failed: { workspace: string; file: string; error: string }[];
}

export async function memoryDigestWorkflow(): Promise<DigestSummary> {
  const today = dayOf(Date.now());
  const summary: DigestSummary = { digested: [], waiting: [], failed: [] };
  for (const delta of await acts.listJournalDeltas()) {
    const bytes = delta.to - delta.from;
    const where = { workspace: delta.workspace, file: delta.file };
    if (bytes < DIGEST_MIN_BYTES) {
      summary.waiting.push({ ...where, bytes });
      continue;
    }
    try {
      const added = await acts.digestJournalChunk({ ...delta, run_id: today });
      await acts.commitJournalOffset({ ...where, offset: delta.to });
      summary.digested.push({ ...where, bytes, ...added });
    } catch (err) {
      // The offset stays: the next run starts at the same byte, and the keys make the retry a no-op.
      log.warn('digest of a journal failed; its offset is kept', { ...where, error: reason(err) });
      summary.failed.push({ ...where, error: reason(err) });
    }
  }
  return failIfAny(summary, summary.failed.length, 'journals');
}

export interface SyncSummary {
  synced: string[];
  unchanged: string[];
  failed: { file: string; error: string }[];
}

export async function memorySyncWorkflow(): Promise<SyncSummary> {
  const summary: SyncSummary = { synced: [], unchanged: [], failed: [] };
  for (const f of await acts.listMemoryFiles()) {
    try {
      const result = await acts.syncMemoryFile(f);
      (result === 'synced' ? summary.synced : summary.unchanged).push(f.file);
    } catch (err) {
      summary.failed.push({ file: f.file, error: reason(err) });
    }
  }
  return failIfAny(summary, summary.failed.length, 'memory files');
}

export interface ConsolidationSummary {
  day: string;
  journals: { workspace: string; added: number }[];
  promoted: string[];
  kept: { memory_id: string; error: string }[];
}

export async function memoryConsolidationWorkflow(): Promise<ConsolidationSummary> {
  const now = Date.now();
  const yesterday = dayOf(now - DAY_MS);
  const cutoff = dayOf(now - SHORT_TERM_DAYS * DAY_MS);
  const summary: ConsolidationSummary = { day: yesterday, journals: [], promoted: [], kept: [] };
  for (const workspace of await acts.listWorkspaces()) {
    summary.journals.push({ workspace, added: await acts.consolidateJournal({ workspace, day: yesterday }) });
    for (const memory_id of await acts.listExpiredShortTerm({ workspace, before: cutoff })) {
      try {
        if ((await acts.promoteShortTerm({ workspace, memory_id })) === 'promoted')
          summary.promoted.push(memory_id);
      } catch (err) {
        // The re-add failed: the original stays, and the next run tries again.
        summary.kept.push({ memory_id, error: reason(err) });
      }
    }
  }
  return failIfAny(summary, summary.kept.length, 'short-term memories');
}

/** A run with failures ends failed (visible in the Web UI and to the schedule), with its summary. */
function failIfAny<T>(summary: T, failures: number, what: string): T {
  if (!failures) return summary;
  throw ApplicationFailure.nonRetryable(
    `${failures} ${what} failed; see details`,
    'PipelineIncomplete',
    summary,
  );
}
