/**
 * Where a project's warehouse data lives in S3: `s3://<bucket>/<prefix>/<project_id>/<layer>/<table>/`,
 * and below that one folder per build (`<run_id>/`) so a rebuild never writes over live data. A
 * table's folder is its name encoded as a file name (docs/architecture.md#file-names-from-source-names):
 * the same as the name for every identifier.
 */
import type { LayerName } from '../../../shared/prd-schema';
import { fileNameFor, isFileNameFor } from '../../../shared/safe-file-name';

/** `<prefix>/<project_id>/<layer>/` (an S3 key prefix, no bucket). */
export function layerKeyPrefix(prefix: string, projectId: string, layer: LayerName): string {
  return `${trimSlashes(prefix)}/${projectId}/${layer}/`;
}

/** `<prefix>/<project_id>/<layer>/<table>/`: every build of the table lives below this. */
export function tableKeyPrefix(prefix: string, projectId: string, layer: LayerName, table: string): string {
  return tableFolderKey(prefix, projectId, layer, fileNameFor(table));
}

/** The folder of a table whose name is already encoded (`fileName`, from {@link fileNameFor}). */
export function tableFolderKey(
  prefix: string,
  projectId: string,
  layer: LayerName,
  fileName: string,
): string {
  if (!isFileNameFor(fileName)) throw new Error(`${JSON.stringify(fileName)} is not an encoded table name`);
  return `${layerKeyPrefix(prefix, projectId, layer)}${fileName}/`;
}

export function s3Uri(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

/** Bucket and key of an `s3://` URI; undefined for anything else. */
export function parseS3Uri(uri: string): { bucket: string; key: string } | undefined {
  const m = /^s3a?:\/\/([^/]+)\/?(.*)$/.exec(uri);
  return m ? { bucket: m[1], key: m[2] } : undefined;
}

/** A fresh, sortable build id: `run-<utc time>-<random>`. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'z')
    .toLowerCase();
  return `run-${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}

function trimSlashes(s: string): string {
  return s.replace(/^\/+|\/+$/g, '');
}
