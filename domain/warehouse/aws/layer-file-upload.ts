/**
 * ODS data into S3: each local `<table>.parquet` of a layer goes to its own folder
 * `s3://<bucket>/<prefix>/<project_id>/<layer>/<table>/<table>.parquet`, since an Athena table is
 * a folder, not a file. `<table>` is the source table's name as its file is named (encoded, see
 * docs/architecture.md#file-names-from-source-names), so any source name gives a key of its own.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LayerName } from '../../../shared/prd-schema';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { uploadFile } from './s3-objects';
import { isFileNameFor } from '../../../shared/safe-file-name';
import { s3Uri, tableFolderKey } from './warehouse-s3-layout';

/** The tag of every ODS object plat uploads: retention's S3 lifecycle rule expires objects by it. */
export const ODS_RETENTION_TAG = { 'plat-retention': 'ods' };

/** One uploaded table file. */
export interface UploadedTableFile {
  /** The file's name without `.parquet`: `fileNameFor(<source table>)`. */
  table: string;
  /** The s3:// folder to register as the table's location. */
  location: string;
  key: string;
  bytes: number;
}

/** Uploads every `*.parquet` directly in `localDir` (sorted by name); other files are left alone. */
export async function uploadLayerFiles(
  ctx: AwsWarehouseContext,
  localDir: string,
  projectId: string,
  layer: LayerName,
): Promise<UploadedTableFile[]> {
  const files = fs
    .readdirSync(localDir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.parquet'))
    .map((e) => e.name)
    .sort();
  // Every name checked before the first upload: a stray file leaves S3 as it was.
  const stray = files.find((file) => !isFileNameFor(file.slice(0, -'.parquet'.length)));
  if (stray) throw new Error(`${path.join(localDir, stray)}: not named as plat names a table's file`);
  const uploaded: UploadedTableFile[] = [];
  for (const file of files) {
    const table = file.slice(0, -'.parquet'.length);
    const folder = tableFolderKey(ctx.prefix, projectId, layer, table);
    const key = `${folder}${file}`;
    // Raw data carries the tag the 90-day lifecycle rule expires (docs/monitoring.md#retention).
    const tags = layer === 'ods' ? ODS_RETENTION_TAG : {};
    const bytes = await uploadFile(ctx.clients.s3, ctx.bucket, key, path.join(localDir, file), tags);
    uploaded.push({ table, location: s3Uri(ctx.bucket, folder), key, bytes });
  }
  return uploaded;
}
