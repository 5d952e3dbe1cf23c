/**
 * The memory service's share of the fleet's PostgreSQL (PLAT_METADATA_URL): the metadata store's
 * connection pool and notifications, with the memory tables migrated.
 */
import type { Kysely } from 'kysely';
import { migrateSchema, openMetadataDb, type MetadataDb } from '../../metadata-store/metadata-db';
import { memoryMigrations, type MemoryTables } from '../store/memory-schema';

export interface SharedMemoryDb {
  metadata: MetadataDb;
  db: Kysely<MemoryTables>;
}

export async function openSharedMemoryDb(url: string): Promise<SharedMemoryDb> {
  const metadata = await openMetadataDb(url);
  if (metadata.dialect !== 'postgres')
    throw new Error('the shared memory store needs PostgreSQL (PLAT_METADATA_URL)');
  await migrateSchema(metadata.db, 'postgres', 'memory', memoryMigrations('postgres'));
  // The same pool, typed for the memory tables.
  return { metadata, db: metadata.db as unknown as Kysely<MemoryTables> };
}
