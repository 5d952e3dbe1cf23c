/**
 * The ODS's changed rows, kept beside it until the layers above have taken them in
 * (docs/refresh.md#only-affected-days): for each table, every row a refresh replaced or dropped
 * (its old version) and every row it wrote (its new one), in `ods/pending-changes/<file>.parquet`.
 * A refresh adds to what an earlier one left when the rebuild after it did not finish; the rebuild
 * removes the folder once every layer is built. A table with no such file has changed in a way
 * not known (its ODS was read whole with nothing to compare), and the layers read it whole.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { quoteLiteral } from '../../../shared/sql-quoting';
import { PARQUET_OPTIONS } from '../ods-table-copy';
import { layerDir } from '../warehouse-layout';

const PENDING = 'pending-changes';

/** Where the changed rows of the ODS file `odsFile` wait for the layers. */
export function odsDeltaFile(odsFile: string): string {
  return path.join(path.dirname(odsFile), PENDING, path.basename(odsFile));
}

/** What one refresh does to the pending changes: whether it starts them (none were pending). */
export interface DeltaLog {
  /** No changes were pending: every table's are written, none added to. */
  fresh: boolean;
}

/** Opens the pending changes of a project's ODS for a refresh. */
export function openDeltaLog(odsDir: string): DeltaLog {
  const dir = path.join(odsDir, PENDING);
  const fresh = !fs.existsSync(dir);
  fs.mkdirSync(dir, { recursive: true });
  return { fresh };
}

/**
 * Adds the rows `select` returns (old and new versions of changed rows) to the table's pending
 * changes: written when none were pending, appended when some are, and left unknown when the table
 * has none while others do (an earlier refresh read it whole with nothing to compare).
 */
export async function recordDelta(
  duck: DuckDBConnection,
  log: DeltaLog,
  odsFile: string,
  select: string,
): Promise<void> {
  const file = odsDeltaFile(odsFile);
  const exists = fs.existsSync(file);
  if (!log.fresh && !exists) return;
  const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  const rows = exists
    ? `SELECT * FROM read_parquet(${quoteLiteral(file)}) UNION ALL BY NAME ${select}`
    : select;
  try {
    await duck.run(`COPY (${rows}) TO ${quoteLiteral(tmp)} (${PARQUET_OPTIONS})`);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Marks a table's changes as not known (it was read whole with no earlier copy to compare). */
export function forgetDelta(odsFile: string): void {
  fs.rmSync(odsDeltaFile(odsFile), { force: true });
}

/** The changed rows of a table read whole: what the new copy has that the old lacks, and back. */
export function wholeTableDelta(oldFile: string, newFile: string): string {
  const read = (f: string) => `SELECT * FROM read_parquet(${quoteLiteral(f)})`;
  return `(${read(newFile)} EXCEPT ALL ${read(oldFile)}) UNION ALL (${read(oldFile)} EXCEPT ALL ${read(newFile)})`;
}

/** Drops the pending changes once the layers above took them in (or when nothing will read them). */
export function clearDeltas(warehouseRoot: string, projectId: string): void {
  fs.rmSync(path.join(layerDir(warehouseRoot, projectId, 'ods'), PENDING), { recursive: true, force: true });
}
