/**
 * The two metadata backends the suites run against: the embedded SQLite file of a data directory
 * and a fresh database in the harness's PostgreSQL. `second()` opens the same store again as
 * another process would (its own connections), for tests of what one process sees of another's writes.
 */
import * as path from 'node:path';
import { metadataDbPath, openMetadataDb, type MetadataDb } from '../../../domain/metadata-store/metadata-db';
import { newTestDataDir } from '../../harness/platform-gateway';
import { freshPostgresDatabase } from '../../harness/postgres';

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** Where a fresh store lives (a file path or a URL). */
  fresh(purpose: string): Promise<string>;
  /** The same location as another process would name it: a distinct connection pool for a URL. */
  other(location: string): string;
}

export const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    fresh: async () => metadataDbPath(newTestDataDir()),
    // One host's processes share the file; in one test process the same handle stands in.
    other: (location) => location,
  },
  {
    name: 'postgres',
    fresh: (purpose) => freshPostgresDatabase(purpose),
    other: (location) => `${location}${location.includes('?') ? '&' : '?'}application_name=plat-other`,
  },
];

/** Opens a fresh store of `backend`; `close` closes every store opened through this helper. */
export function storeOpener(backend: Backend) {
  const opened: MetadataDb[] = [];
  const open = async (location: string) => {
    const db = await openMetadataDb(location);
    opened.push(db);
    return db;
  };
  return {
    async fresh(purpose: string) {
      return open(await backend.fresh(purpose));
    },
    open,
    async closeAll() {
      await Promise.all([...new Set(opened)].map((db) => db.close()));
    },
  };
}

export const dataDirOf = (file: string) => path.dirname(path.dirname(file));
