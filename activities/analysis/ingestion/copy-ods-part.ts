/**
 * One part of the copy (docs/fleet.md#ingestion-in-parts): its tables, resuming after the finished
 * ones, or its key range, heartbeating every 5 s with the tables done as the checkpoint. A source that
 * stops sending mid-copy fails the part for good after 10 minutes without a row.
 */
import { activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import { OrderedWrites } from '../../../domain/metadata-store/ordered-writes';
import type { OdsPartCopy } from '../../../domain/warehouse/ods-assembly';
import { copyOdsPart as copyPart } from '../../../domain/warehouse/ods-part-copy';
import type { TableCopyResult } from '../../../domain/warehouse/ods-table-copy';
import type { ProjectEvent } from '../../../shared/project-model';
import { tableCopiedEvent } from '../ods-progress';
import { connectOrExplain, connectorOf, misbehavingSourceFailsForGood } from '../source-access';
import type { CopyOdsPartRequest, IngestionDeps } from './ingestion-deps';
import { storedSourceSchema } from './ods-summary';

export async function copyOdsPart(
  { secrets, sources, store, warehouseRoot, maxRowsPerSecond }: IngestionDeps,
  req: CopyOdsPartRequest,
): Promise<OdsPartCopy> {
  const source = await connectorOf(secrets, req.source, sources);
  // A refused login fails the part for good here, not as a retried copy error.
  await (await connectOrExplain(source)).end();
  const { attempt } = activityInfo();
  const { part } = req;
  const where = `part ${part.id.slice(1)} of ${req.parts}`;
  return withTableProgress(store, async ({ checkpoint, tableDone }) => {
    try {
      const tables = await copyPart({
        warehouseRoot,
        projectId: req.project_id,
        source,
        schema: await storedSourceSchema(store, req.project_id),
        part,
        done: checkpoint,
        maxRowsPerSecond,
        signal: cancellationSignal(),
        onTable: (copied, done) => {
          const what =
            part.kind === 'range' ? `${copied.table} key range ${part.index + 1}/${part.of}` : copied.table;
          tableDone(done, () =>
            tableCopiedEvent(
              req.project_id,
              `${part.id}:a${attempt}:${copied.table}`,
              `copied ${what}: ${copied.ods_rows} rows (${where})`,
              copied,
              { part: part.id, parts: req.parts },
            ),
          );
        },
      });
      return { part, tables };
    } catch (err) {
      throw misbehavingSourceFailsForGood(err);
    }
  });
}

/** What a copy of tables reports as it goes (this part's copy, and ingest-ods.ts's whole one). */
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
