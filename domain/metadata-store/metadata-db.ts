/**
 * The metadata store (docs/fleet.md#shared-state): projects, events, agent logs, users, artifacts,
 * alarms, pipeline state and, when shared, secrets. Embedded default: a SQLite-format file under the
 * data directory, for the processes of one host. With `PLAT_METADATA_URL=postgres://…`: PostgreSQL,
 * shared by every gateway, worker and memory service of a fleet. Both are reached through one typed
 * query layer (Kysely); the schema is versioned migrations run at open.
 */
import * as path from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import { metadataMigrations, type MetadataDialect } from './metadata-migrations';
import type { MetadataTables } from './metadata-tables';
import { forgetSqliteFile, isLocked, openSqliteFile } from './sqlite-file';
import { PostgresNotifications } from './postgres-notifications';
import { redactUrl } from '../../shared/redact';

export type { MetadataDialect } from './metadata-migrations';

/** An open metadata store. */
export interface MetadataDb {
  readonly dialect: MetadataDialect;
  readonly db: Kysely<MetadataTables>;
  /** Where it lives, without credentials (for messages). */
  readonly location: string;
  /**
   * LISTEN/NOTIFY: what any process sends on a channel reaches this one's listeners once the
   * sender's transaction commits. Undefined when the store cannot push (SQLite: readers poll).
   */
  readonly notifications?: PostgresNotifications;
  close(): Promise<void>;
}

/** The embedded metadata file of a data directory. */
export function metadataDbPath(dataDir: string): string {
  return path.join(dataDir, 'metadata', 'plat.db');
}

/** What `openMetadataDb` opens: the shared PostgreSQL when a URL is configured, else the data directory's file. */
export function metadataLocation(dataDir: string, url?: string): string {
  return url ?? metadataDbPath(dataDir);
}

/** Whether a location names a PostgreSQL database. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export { redactUrl } from '../../shared/redact';

const opened = new Map<string, Promise<MetadataDb>>();

/**
 * Opens (once per process and location) and migrates the metadata store at `location`: a
 * `postgres://` URL or a file path. Migrations are safe when several processes open a fresh store
 * at once.
 */
export function openMetadataDb(location: string): Promise<MetadataDb> {
  let db = opened.get(location);
  if (!db) {
    db = (isPostgresUrl(location) ? openPostgres(location) : openSqlite(location)).catch((err) => {
      opened.delete(location);
      throw err;
    });
    opened.set(location, db);
  }
  return db;
}

async function openSqlite(file: string): Promise<MetadataDb> {
  const database = openSqliteFile(file);
  const db = new Kysely<MetadataTables>({ dialect: new SqliteDialect({ database }) });
  await migrateSqlite(db, 'metadata', metadataMigrations('sqlite'));
  return {
    dialect: 'sqlite',
    db,
    location: file,
    async close() {
      opened.delete(file);
      forgetSqliteFile(file);
      await db.destroy();
    },
  };
}

// int8 (bigserial ids, COUNT(*)) as numbers: ids stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Connections per process: the worker's activities and the gateway's requests are short. */
const POOL_SIZE = 10;

async function openPostgres(url: string): Promise<MetadataDb> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, application_name: 'plat' });
  // A pool error (the server restarted) is reported on the next query; do not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<MetadataTables>({ dialect: new PostgresDialect({ pool }) });
  const location = redactUrl(url);
  try {
    await migrateSchema(db, 'postgres', 'metadata', metadataMigrations('postgres'));
  } catch (err) {
    await db.destroy();
    throw new Error(`metadata store ${location}: ${(err as Error).message}`, { cause: err });
  }
  const notifications = new PostgresNotifications(url);
  return {
    dialect: 'postgres',
    db,
    location,
    notifications,
    async close() {
      opened.delete(url);
      await notifications.close();
      await db.destroy();
    },
  };
}

/**
 * A SQLite file's migrations, run by whichever process gets there first. Two processes migrating one
 * fresh file: the loser's write transaction waits, or is refused as busy, and it tries again; by then
 * it finds nothing left to run.
 */
export async function migrateSqlite(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
  db: Kysely<any>,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateSchema(db, 'sqlite', schema, migrations);
    } catch (err) {
      const raced = isLocked(err) || /UNIQUE constraint failed: \w*migration/.test(String(err));
      if (attempt >= 50 || !raced) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    }
  }
}

/**
 * Runs a schema's migrations to the latest, recorded in its own table (`kysely_migration` for the
 * metadata, `<schema>_migration` for others). Several processes starting at once on a fresh
 * store: one migrates while the others wait (on a session advisory lock on PostgreSQL, on the
 * migration's write transaction on SQLite), then find nothing to do.
 */
export async function migrateSchema(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their day
  db: Kysely<any>,
  dialect: MetadataDialect,
  schema: string,
  migrations: Record<string, Migration>,
): Promise<void> {
  const tables =
    schema === 'metadata'
      ? {}
      : { migrationTableName: `${schema}_migration`, migrationLockTableName: `${schema}_migration_lock` };
  const run = async (conn: typeof db) => {
    const migrator = new Migrator({
      db: conn,
      provider: { getMigrations: async () => migrations },
      ...tables,
    });
    const { error, results } = await migrator.migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      throw new Error(
        `migration ${failed ?? '(setup)'} failed: ${(error as Error).message ?? String(error)}`,
        {
          cause: error,
        },
      );
    }
  };
  if (dialect === 'sqlite')
    // SQLite runs DDL in transactions, but Kysely's migrator opens none for it: the whole run is one
    // IMMEDIATE transaction, so a second process waits (or is refused as busy and retries) instead of
    // interleaving its ALTERs with ours, and a run cut short leaves nothing half-applied.
    return db.connection().execute(async (conn) => {
      await sql`BEGIN IMMEDIATE`.execute(conn);
      try {
        await run(conn);
        await sql`COMMIT`.execute(conn);
      } catch (err) {
        await sql`ROLLBACK`.execute(conn).catch(() => {});
        throw err;
      }
    });
  const lock = `plat-${schema}-migrations`;
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtext(${lock}))`.execute(conn);
    try {
      await run(conn);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${lock}))`.execute(conn);
    }
  });
}
