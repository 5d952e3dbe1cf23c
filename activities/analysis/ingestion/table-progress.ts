/**
 * The progress of a copy of tables, shared by both ODS copy activities: the heartbeat's checkpoint
 * (the tables done, so a retry resumes after them) and each table's log entry, written in order.
 */
import { activityInfo, heartbeat } from '@temporalio/activity';
import { OrderedWrites } from '../../../domain/metadata-store/ordered-writes';
import type { TableCopyResult } from '../../../domain/warehouse/ods-table-copy';
import type { ProjectEvent } from '../../../shared/project-model';
import type { IngestionDeps } from './ingestion-deps';

/** What a copy of tables reports as it goes (copy-ods-part.ts's part, and ingest-ods.ts's whole copy). */
export interface TableProgress {
  /** The tables an earlier attempt finished (the heartbeat's checkpoint): the copy resumes after them. */
  checkpoint: TableCopyResult[];
  /** One more table copied: `done` is the new checkpoint, `event` its log entry (written in order). */
  tableDone(done: TableCopyResult[], event: () => ProjectEvent): void;
}

/**
 * Runs `copy` heartbeating every 5 s with the tables done as the checkpoint, its events written in
 * order; on the way out it sends the last checkpoint at once, runs `close`, and waits for the events.
 */
export async function withTableProgress<T>(
  store: IngestionDeps['store'],
  copy: (progress: TableProgress) => Promise<T>,
  close?: () => Promise<void>,
): Promise<T> {
  const checkpoint = (activityInfo().heartbeatDetails as TableCopyResult[] | undefined) ?? [];
  let progress = checkpoint;
  const beat = setInterval(() => heartbeat(progress), 5_000);
  const writes = new OrderedWrites();
  try {
    return await copy({
      checkpoint,
      tableDone: (done, event) => {
        progress = done;
        heartbeat(done);
        writes.push(() => store.addEvents([event()]));
      },
    });
  } finally {
    clearInterval(beat);
    // The last checkpoint now, not at the next throttled beat: a draining worker stops right after.
    heartbeat(progress);
    await close?.();
    await writes.drain();
  }
}
