/**
 * The parameter store that goes with a metadata store: the shared database's when the metadata is
 * shared (every host reads what any host stored), else the data directory's encrypted files.
 */
import * as path from 'node:path';
import type { MetadataDb } from '../metadata-store/metadata-db';
import { DatabaseParameterStore } from './database-parameter-store';
import { LocalParameterStore } from './local-parameter-store';
import type { ParameterStore } from './parameter-store';

export async function openParameterStore(
  metadata: MetadataDb,
  dataDir: string,
  secretKey: string | undefined,
): Promise<ParameterStore> {
  return metadata.dialect === 'postgres'
    ? DatabaseParameterStore.open(metadata, secretKey)
    : new LocalParameterStore(path.join(dataDir, 'secrets'), secretKey);
}
