/**
 * The last step of a copy in parts: each big table's key ranges merged into its one Parquet file (the
 * layout every later stage, `reuse_ods` and retention expect), the ODS catalog's views registered,
 * and the source schema saved with the counted rows.
 */
import { openDuckDb } from './duckdb-module';
import { confineConnection } from './duckdb-confinement';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Prd } from '../../shared/prd-schema';
import type { SourceSnapshot } from '../../shared/source-schema';
import { quoteLiteral } from '../../shared/sql-quoting';
import type { OdsPart } from './ods-copy-plan';
import { registerViews, writeSourceSchema, type OdsIngestionResult } from './ods-ingestion';
import { ODS_COPY_SETTINGS, PARQUET_OPTIONS, type TableCopyResult } from './ods-table-copy';
import { layerDatabaseFile, layerDir, odsTableFile } from './warehouse-layout';

/** What one part's activity returned. */
export interface OdsPartCopy {
  part: OdsPart;
  tables: TableCopyResult[];
}

export interface OdsAssemblyOptions {
  warehouseRoot: string;
  projectId: string;
  prd: Prd;
  schema: SourceSnapshot;
  copies: OdsPartCopy[];
}

export async function assembleOds(opts: OdsAssemblyOptions): Promise<OdsIngestionResult> {
  const dir = layerDir(opts.warehouseRoot, opts.projectId, 'ods');
  const tables: TableCopyResult[] = [];
  const ranges = new Map<string, { index: number; of: number; piece: TableCopyResult }[]>();
  for (const { part, tables: pieces } of opts.copies) {
    if (part.kind === 'tables') tables.push(...pieces);
    else
      for (const piece of pieces)
        ranges.set(part.table, [...(ranges.get(part.table) ?? []), { ...part, piece }]);
  }
  for (const [table, pieces] of ranges) tables.push(await mergeRanges(dir, table, pieces));
  fs.rmSync(path.join(dir, 'parts'), { recursive: true, force: true });
  const databaseFile = layerDatabaseFile(opts.warehouseRoot, opts.projectId, 'ods');
  await registerViews(databaseFile, opts.prd, tables);
  writeSourceSchema(opts.warehouseRoot, opts.projectId, opts.schema, tables);
  return {
    database_file: databaseFile,
    tables,
    warnings: tables.flatMap((t) => t.warnings),
    rows_copied: tables.reduce((n, t) => n + t.ods_rows, 0),
    readers: opts.copies.length,
  };
}

/**
 * One table's range files as its single file. A retry after the merge (its range files gone) finds the
 * merged file and counts it again; the counts then come from the pieces' reports.
 */
async function mergeRanges(
  dir: string,
  table: string,
  pieces: { index: number; of: number; piece: TableCopyResult }[],
): Promise<TableCopyResult> {
  const sorted = [...pieces].sort((a, b) => a.index - b.index);
  if (sorted.length !== sorted[0].of || sorted.some((p, i) => p.index !== i))
    throw new Error(`${table}: ${sorted.length} of its ${sorted[0].of} key ranges were copied`);
  const file = odsTableFile(dir, table);
  const files = sorted.map((p) => p.piece.file);
  const instance = await openDuckDb(':memory:', ODS_COPY_SETTINGS);
  const duck = await instance.connect().catch((err: unknown) => {
    instance.closeSync();
    throw err;
  });
  try {
    await confineConnection(duck, [dir]);
    if (files.every((f) => fs.existsSync(f))) {
      const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
      await duck.run(
        `COPY (SELECT * FROM read_parquet([${files.map(quoteLiteral).join(', ')}])) TO ${quoteLiteral(tmp)} (${PARQUET_OPTIONS})`,
      );
      fs.renameSync(tmp, file);
      for (const f of files) fs.rmSync(f, { force: true });
    } else if (!fs.existsSync(file)) {
      throw new Error(`${table}: a key range's file is missing (${files.find((f) => !fs.existsSync(f))})`);
    }
    const [row] = (
      await duck.runAndReadAll(`SELECT COUNT(*) AS n FROM read_parquet(${quoteLiteral(file)})`)
    ).getRowObjectsJS();
    return {
      table,
      source_rows: sorted.reduce((n, p) => n + p.piece.source_rows, 0),
      ods_rows: Number(row.n),
      file,
      warnings: sorted.flatMap((p) => p.piece.warnings),
      readers: sorted.length,
    };
  } finally {
    duck.closeSync();
    instance.closeSync();
  }
}
