/**
 * Copies one part of a planned copy (ods-copy-plan.ts): whole tables into their Parquet files inside
 * one shared snapshot, resuming after the tables an earlier attempt finished; or one key range of a
 * big table into its own file, read in a snapshot of its own and copied again whole on a retry.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { openDuckDb } from './duckdb-module';
import { confineConnection } from './duckdb-confinement';
import { fifoRoot } from './ods-fifo';
import { randomUUID } from 'node:crypto';
import type { SourceSnapshot, SourceTable } from '../../shared/source-schema';
import { rangePartFile, type OdsPart, type OdsRangePart } from './ods-copy-plan';
import { copyOdsTables, maxAllowedPacket, type OdsTablesCopyOptions } from './ods-ingestion';
import { rowPacer } from './ods-row-pacer';
import { openSnapshotReaders } from './ods-snapshot';
import { copyTableToParquet, ODS_COPY_SETTINGS, type TableCopyResult } from './ods-table-copy';
import { layerDir } from './warehouse-layout';

export interface OdsPartCopyOptions extends Pick<
  OdsTablesCopyOptions,
  'source' | 'done' | 'onTable' | 'onProgress' | 'signal' | 'maxRowsPerSecond' | 'idleMs'
> {
  warehouseRoot: string;
  projectId: string;
  /** The source's tables as explored when the copy was planned. */
  schema: SourceSnapshot;
  part: OdsPart;
}

/** The part's finished tables (a range part: its one piece, named by its table). */
export async function copyOdsPart(opts: OdsPartCopyOptions): Promise<TableCopyResult[]> {
  const { part } = opts;
  const dir = layerDir(opts.warehouseRoot, opts.projectId, 'ods');
  if (part.kind === 'tables') {
    const { tables } = await copyOdsTables({
      ...opts,
      dir,
      tables: part.tables.map((name) => tableOf(opts.schema, name)),
    });
    return tables;
  }
  const piece = await copyRange(opts, part, dir);
  opts.onTable(piece, [piece]);
  return [piece];
}

async function copyRange(
  opts: OdsPartCopyOptions,
  part: OdsRangePart,
  dir: string,
): Promise<TableCopyResult> {
  const table = tableOf(opts.schema, part.table);
  const snapshot = await openSnapshotReaders({
    connect: () => opts.source.connect(),
    tables: [table.name],
    parallel: 1,
  });
  let instance: DuckDBInstance | undefined;
  let duck: DuckDBConnection | undefined;
  let failed = true;
  try {
    instance = await openDuckDb(':memory:', ODS_COPY_SETTINGS);
    duck = await instance.connect();
    // Reads only its pipes and writes only the project's ODS (docs/security.md#the-warehouse-sandbox).
    await confineConnection(duck, [dir, fifoRoot()]);
    const result = await copyTableToParquet({
      duck,
      table,
      outFile: rangePartFile(dir, part, randomUUID().slice(0, 8)),
      lanes: snapshot.readers,
      ranges: [part.range],
      maxRowBytes: await maxAllowedPacket(snapshot.readers[0]),
      onProgress: (rows) => opts.onProgress?.(table.name, rows),
      signal: opts.signal,
      pacer: rowPacer(opts.maxRowsPerSecond),
      idleMs: opts.idleMs,
    });
    failed = false;
    return { ...result, snapshot: { id: snapshot.id, position: snapshot.position } };
  } catch (err) {
    // The reason the copy stopped, rather than the broken connection it showed up as.
    opts.signal?.throwIfAborted();
    throw err;
  } finally {
    duck?.closeSync();
    instance?.closeSync();
    await snapshot.close(failed);
  }
}

function tableOf(schema: SourceSnapshot, name: string): SourceTable {
  const table = schema.tables.find((t) => t.name === name);
  if (!table) throw new Error(`source table ${name} is not in the schema the copy was planned with`);
  return table;
}
