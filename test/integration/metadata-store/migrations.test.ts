/**
 * Versioned migrations at start: several processes opening a fresh store at the same moment all
 * start, and each migration runs once; a file made before migrations were versioned adopts them.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import Database from 'libsql';
import { metadataDbPath, openMetadataDb } from '../../../domain/metadata-store/metadata-db';
import { metadataMigrations } from '../../../domain/metadata-store/metadata-migrations';
import { repoRoot } from '../../../shared/paths';
import { newTestDataDir } from '../../harness/platform-gateway';
import { BACKENDS } from './backends';

const run = promisify(execFile);
const opener = path.join(repoRoot, 'test', 'fixtures', 'open-metadata-store.ts');

describe.each(BACKENDS)('metadata migrations on $name', (backend) => {
  test('four processes starting at once on a fresh store: all open it, each migration runs once', async () => {
    const location = await backend.fresh('migrate-race');
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['--import', 'tsx', opener, location], { cwd: repoRoot }),
      ),
    );
    expect(outputs.map((o) => o.stdout.trim())).toEqual(Array(4).fill(`opened ${backend.name}`));
    const db = await openMetadataDb(location);
    try {
      const ran = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db.db);
      expect(ran.rows.map((r) => r.name)).toEqual(Object.keys(metadataMigrations(backend.name)));
    } finally {
      await db.close();
    }
  });
});

test('two processes migrating one SQLite file never interleave a look-then-alter migration', async () => {
  const file = path.join(newTestDataDir(), 'slow.db');
  const slow = path.join(repoRoot, 'test', 'fixtures', 'slow-sqlite-migration.ts');
  const outputs = await Promise.all(
    [0, 1].map(() => run(process.execPath, ['--import', 'tsx', slow, file], { cwd: repoRoot })),
  );
  expect(outputs.map((o) => o.stdout.trim())).toEqual(['migrated', 'migrated']);
  const db = new Database(file);
  try {
    const ran = db.prepare('SELECT name FROM slow_migration ORDER BY name').all() as { name: string }[];
    expect(ran.map((r) => r.name)).toEqual(['0001-table', '0002-column']);
  } finally {
    db.close();
  }
});

test('an embedded file made before versioned migrations keeps its rows and gains the new tables', async () => {
  const file = metadataDbPath(newTestDataDir());
  const { mkdirSync } = await import('node:fs');
  mkdirSync(path.dirname(file), { recursive: true });
  const old = new Database(file);
  // The schema as the unversioned code created it, with one user in it.
  old.exec(`CREATE TABLE users (user_id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL, created_at TEXT NOT NULL)`);
  old.exec(`INSERT INTO users VALUES ('user-1', 'grace', 'scrypt$x', '2026-01-01T00:00:00.000Z')`);
  old.close();
  const db = await openMetadataDb(file);
  try {
    const users = await db.db.selectFrom('users').select('username').execute();
    expect(users).toEqual([{ username: 'grace' }]);
    expect(await db.db.selectFrom('secrets').selectAll().execute()).toEqual([]);
  } finally {
    await db.close();
  }
});
