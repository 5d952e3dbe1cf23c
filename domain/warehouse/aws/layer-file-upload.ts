/**
 * ODS data into S3: each local `<table>.parquet` of a layer goes to its own folder
 * `s3://<bucket>/<prefix>/<project_id>/<layer>/<table>/<table>.parquet`, since an Athena table is
 * a folder, not a file.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LayerName } from '../../../shared/prd-schema';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { invalidNameReason } from './ctas-statement';
import { uploadFile } from './s3-objects';
import { s3Uri, tableKeyPrefix } from './warehouse-s3-layout';
import { ODS_RETENTION_TAG } from '../../retention/s3-lifecycle';

/** One uploaded table file. */
export interface UploadedTableFile {
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
  const uploaded: UploadedTableFile[] = [];
  for (const file of files) {
    const table = file.slice(0, -'.parquet'.length);
    const invalid = invalidNameReason(table);
    if (invalid) throw new Error(`${path.join(localDir, file)}: ${invalid}`);
    const folder = tableKeyPrefix(ctx.prefix, projectId, layer, table);
    const key = `${folder}${file}`;
    // Raw data carries the tag the 90-day lifecycle rule expires (docs/monitoring.md#retention).
    const tags = layer === 'ods' ? ODS_RETENTION_TAG : {};
    const bytes = await uploadFile(ctx.clients.s3, ctx.bucket, key, path.join(localDir, file), tags);
    uploaded.push({ table, location: s3Uri(ctx.bucket, folder), key, bytes });
  }
  return uploaded;
}
