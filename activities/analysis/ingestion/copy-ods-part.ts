/**
 * One part of the copy (docs/fleet.md#ingestion-in-parts): its tables, resuming after the finished
 * ones, or its key range, heartbeating every 5 s with the tables done as the checkpoint. A source that
 * stops sending mid-copy fails the part for good after 10 minutes without a row.
 */
import { activityInfo, cancellationSignal } from '@temporalio/activity';
import type { OdsPartCopy } from '../../../domain/warehouse/ods-assembly';
import { copyOdsPart as copyPart } from '../../../domain/warehouse/ods-part-copy';
import { tableCopiedEvent } from '../ods-progress';
import { connectOrExplain, connectorOf, misbehavingSourceFailsForGood } from '../source-access';
import type { CopyOdsPartRequest, IngestionDeps } from './ingestion-deps';
import { storedSourceSchema } from './ods-summary';
import { withTableProgress } from './table-progress';

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
