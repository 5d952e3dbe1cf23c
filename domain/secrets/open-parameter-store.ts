/**
 * The parameter store that goes with a metadata store: the shared database's when the metadata is
 * shared (every host reads what any host stored), else the data directory's encrypted files.
 */
import * as path from 'node:path';
import type { MetadataDb } from '../metadata-store/metadata-db';
import { DatabaseParameterStore } from './database-parameter-store';
import { LocalParameterStore } from './local-parameter-store';
import type { ParameterStore } from './parameter-store';

/**
 * `secretKey` (PLAT_SECRET_KEY) seals and opens; `previousKey` (PLAT_SECRET_KEY_PREVIOUS) only
 * opens, while a rotation moves the stored values to the new key.
 */
export async function openParameterStore(
  metadata: MetadataDb,
  dataDir: string,
  secretKey: string | undefined,
  previousKey?: string,
): Promise<ParameterStore> {
  return metadata.dialect === 'postgres'
    ? DatabaseParameterStore.open(metadata, secretKey, previousKey)
    : new LocalParameterStore(path.join(dataDir, 'secrets'), secretKey, previousKey);
}
