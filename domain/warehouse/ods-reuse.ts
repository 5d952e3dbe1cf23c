/**
 * Data integration without reading the source again: a new project on the same source reuses a
 * completed project's ODS (the create request's `reuse_ods`). The Parquet files are copied (cloned
 * where the filesystem can) into the new project's ODS, so the two projects stay independent, and the
 * ODS catalog and source schema are written for the new PRD. The data is as of the earlier copy.
 */
import { openDuckDb } from './duckdb-module';
import { confineConnection } from './duckdb-confinement';
import * as fs from 'node:fs';
import type { Prd } from '../../shared/prd-schema';
import { quoteLiteral } from '../../shared/sql-quoting';
import { readSourceSchema, registerViews, writeSourceSchema, type OdsIngestionResult } from './ods-ingestion';
import type { TableCopyResult } from './ods-table-copy';
import { layerDatabaseFile, layerDir, odsTableFile, sourceSchemaFile } from './warehouse-layout';

export interface OdsReuseOptions {
  warehouseRoot: string;
  /** The completed project whose ODS is reused. */
  fromProjectId: string;
  projectId: string;
  prd: Prd;
}

/** The reused ODS, or why it cannot be reused (then the source is copied as usual). */
export type OdsReuse = { reused: OdsIngestionResult; copied_at: string } | { unusable: string };

export async function reuseOds(opts: OdsReuseOptions): Promise<OdsReuse> {
  const fromDir = layerDir(opts.warehouseRoot, opts.fromProjectId, 'ods');
  if (!fs.existsSync(sourceSchemaFile(opts.warehouseRoot, opts.fromProjectId)))
    return { unusable: `${opts.fromProjectId} has no ODS on this machine` };
  const schema = readSourceSchema(opts.warehouseRoot, opts.fromProjectId);
  const wanted = [...new Set(opts.prd.layers.ods.map((t) => t.source_tables[0]))];
  const missing = wanted.filter(
    (t) => !schema.tables.some((s) => s.name === t) || !fs.existsSync(odsTableFile(fromDir, t)),
  );
  if (missing.length)
    return { unusable: `the ODS of ${opts.fromProjectId} lacks ${missing.join(', ')}, which this PRD reads` };

  const dir = layerDir(opts.warehouseRoot, opts.projectId, 'ods');
  fs.mkdirSync(dir, { recursive: true });
  const done: TableCopyResult[] = [];
  const instance = await openDuckDb(':memory:');
  const conn = await instance.connect();
  try {
    await confineConnection(conn, [dir]);
    for (const table of wanted) {
      const file = odsTableFile(dir, table);
      // Beside its final name, then renamed: a retried reuse replaces each file whole.
      fs.copyFileSync(odsTableFile(fromDir, table), `${file}.tmp`, fs.constants.COPYFILE_FICLONE);
      fs.renameSync(`${file}.tmp`, file);
      const counted = await conn.runAndReadAll(
        `SELECT COUNT(*) AS n FROM read_parquet(${quoteLiteral(file)})`,
      );
      const ods_rows = Number(counted.getRowObjectsJS()[0].n);
      const source_rows = schema.tables.find((s) => s.name === table)!.row_count;
      done.push({ table, source_rows, ods_rows, file, warnings: [] });
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  const databaseFile = layerDatabaseFile(opts.warehouseRoot, opts.projectId, 'ods');
  await registerViews(databaseFile, opts.prd, done);
  writeSourceSchema(opts.warehouseRoot, opts.projectId, schema, done);
  const copiedAt = fs.statSync(sourceSchemaFile(opts.warehouseRoot, opts.fromProjectId)).mtime.toISOString();
  return {
    copied_at: copiedAt,
    reused: {
      database_file: databaseFile,
      tables: done,
      warnings: [],
      rows_copied: done.reduce((n, d) => n + d.ods_rows, 0),
      readers: 0,
    },
  };
}
