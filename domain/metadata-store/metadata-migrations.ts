/**
 * The metadata store's schema as versioned migrations (Kysely's Migrator records which ran in
 * `kysely_migration`). Never change what a shipped migration does: add the next one. Every
 * migration is idempotent (IF NOT EXISTS): on SQLite, processes starting together on a fresh file
 * race, and the loser retries (metadata-db.ts); the first also lets a file made before migrations were
 * versioned adopt it unchanged.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';

export type MetadataDialect = 'sqlite' | 'postgres';

/** An auto-numbered primary key in each dialect (SQLite's rowid alias, PostgreSQL's bigserial). */
function serialKey(dialect: MetadataDialect) {
  return dialect === 'postgres'
    ? { type: 'bigserial' as const, build: (c: ColumnDefinitionBuilder) => c.primaryKey() }
    : { type: 'integer' as const, build: (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement() };
}

/** The migrations in order of their names. */
// A list of released schema steps, one per version, read top to bottom and never edited once
// released (docs/architecture.md#function-size): it and its first step stay whole.
/* eslint-disable max-lines-per-function */
export function metadataMigrations(dialect: MetadataDialect): Record<string, Migration> {
  const serial = serialKey(dialect);
  return {
    '0001-base': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration sees the schema of its day, not today's types
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('projects')
          .ifNotExists()
          .addColumn('project_id', 'text', (c) => c.primaryKey())
          .addColumn('owner_id', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('view_json', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('projects_owner')
          .ifNotExists()
          .on('projects')
          .columns(['owner_id', 'created_at'])
          .execute();
        await db.schema
          .createTable('events')
          .ifNotExists()
          .addColumn('event_id', serial.type, serial.build)
          .addColumn('project_id', 'text', (c) => c.notNull())
          .addColumn('event_key', 'text', (c) => c.notNull().unique())
          .addColumn('event_type', 'text', (c) => c.notNull())
          .addColumn('phase', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('payload_json', 'text', (c) => c.notNull())
          .addColumn('timestamp', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('events_project')
          .ifNotExists()
          .on('events')
          .columns(['project_id', 'event_id'])
          .execute();
        await db.schema
          .createTable('agent_logs')
          .ifNotExists()
          .addColumn('id', serial.type, serial.build)
          .addColumn('project_id', 'text', (c) => c.notNull())
          .addColumn('log_key', 'text', (c) => c.notNull().unique())
          .addColumn('agent', 'text', (c) => c.notNull())
          .addColumn('phase', 'text', (c) => c.notNull())
          .addColumn('tool', 'text', (c) => c.notNull())
          .addColumn('params_json', 'text', (c) => c.notNull())
          .addColumn('summary', 'text', (c) => c.notNull())
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addColumn('input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('timestamp', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('agent_logs_project')
          .ifNotExists()
          .on('agent_logs')
          .columns(['project_id', 'id'])
          .execute();
        await db.schema
          .createTable('users')
          .ifNotExists()
          .addColumn('user_id', 'text', (c) => c.primaryKey())
          .addColumn('username', 'text', (c) => c.notNull().unique())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('memory_pipeline_state')
          .ifNotExists()
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('project_artifacts')
          .ifNotExists()
          .addColumn('project_id', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('content_json', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('project_artifacts_pk', ['project_id', 'kind'])
          .execute();
        await db.schema
          .createTable('alarm_notifications')
          .ifNotExists()
          .addColumn('id', serial.type, serial.build)
          .addColumn('alarm', 'text', (c) => c.notNull())
          .addColumn('fingerprint', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('starts_at', 'text', (c) => c.notNull())
          .addColumn('ends_at', 'text')
          .addColumn('summary', 'text', (c) => c.notNull())
          .addColumn('labels_json', 'text', (c) => c.notNull())
          .addColumn('received_at', 'text', (c) => c.notNull())
          .addUniqueConstraint('alarm_notifications_once', ['fingerprint', 'status', 'starts_at'])
          .execute();
        await db.schema
          .createIndex('alarm_notifications_alarm')
          .ifNotExists()
          .on('alarm_notifications')
          .columns(['alarm', 'id'])
          .execute();
      },
    },
    '0002-secrets': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('secrets')
          .ifNotExists()
          .addColumn('name', 'text', (c) => c.primaryKey())
          .addColumn('iv', 'text', (c) => c.notNull())
          .addColumn('tag', 'text', (c) => c.notNull())
          .addColumn('ciphertext', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '0003-worker-hosts': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('worker_hosts')
          // Idempotent like the others (a race on SQLite re-runs it; added after 0003 shipped, same effect).
          .ifNotExists()
          .addColumn('host_id', 'text', (c) => c.primaryKey())
          .addColumn('hostname', 'text', (c) => c.notNull())
          .addColumn('workloads', 'text', (c) => c.notNull())
          .addColumn('started_at', 'text', (c) => c.notNull())
          .addColumn('last_seen_at', 'text', (c) => c.notNull())
          .addColumn('stopped_at', 'text')
          .execute();
      },
    },
    '0004-user-roles': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      async up(db: Kysely<any>) {
        if (await lacksColumn(db, dialect, 'users', 'role'))
          await db.schema
            .alterTable('users')
            .addColumn('role', 'text', (c) => c.notNull().defaultTo('tenant'))
            .execute();
        if (await lacksColumn(db, dialect, 'users', 'first_account'))
          await db.schema.alterTable('users').addColumn('first_account', 'integer').execute();
        await db.schema
          .createIndex('users_first_account')
          .ifNotExists()
          .unique()
          .on('users')
          .column('first_account')
          .execute();
        // Accounts made before roles existed: the earliest is the operator, as if made today.
        await sql`UPDATE users SET role = 'operator', first_account = 1
                  WHERE user_id = (SELECT user_id FROM users ORDER BY created_at, user_id LIMIT 1)
                    AND NOT EXISTS (SELECT 1 FROM users WHERE first_account = 1)`.execute(db);
      },
    },
    '0005-attempt-counters': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      async up(db: Kysely<any>) {
        // Counters of rate limits that hold across gateways (sign-in attempts): a key's current window.
        await db.schema
          .createTable('attempt_counters')
          .ifNotExists()
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('hits', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('attempt_counters_expiry')
          .ifNotExists()
          .on('attempt_counters')
          .column('expires_at')
          .execute();
      },
    },
    '0006-secret-key-ids': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      async up(db: Kysely<any>) {
        // Which key sealed a value (domain/secrets/sealed-value.ts); null on values sealed before.
        if (await lacksColumn(db, dialect, 'secrets', 'key_id'))
          await db.schema.alterTable('secrets').addColumn('key_id', 'text').execute();
      },
    },
    '0007-lease-slots': {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
      async up(db: Kysely<any>) {
        // Slots leased across gateways (a user's warehouse queries at once).
        await db.schema
          .createTable('lease_slots')
          .ifNotExists()
          .addColumn('key', 'text', (c) => c.notNull())
          .addColumn('slot', 'integer', (c) => c.notNull())
          .addColumn('lease', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint('lease_slots_pk', ['key', 'slot'])
          .execute();
      },
    },
  };
}
/* eslint-enable max-lines-per-function */

/**
 * Whether plat's `table` has no column `column` yet. ALTER TABLE ADD COLUMN has no IF NOT EXISTS in
 * SQLite, so a migration looks first (a racing process retries the migration). On PostgreSQL only
 * the schema plat's tables live in counts: a shared server may hold another `users` elsewhere.
 */
async function lacksColumn(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as the migrations
  db: Kysely<any>,
  dialect: MetadataDialect,
  table: string,
  column: string,
): Promise<boolean> {
  const found =
    dialect === 'postgres'
      ? sql`SELECT 1 FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${column}`
      : sql`SELECT 1 FROM pragma_table_info(${table}) WHERE name = ${column}`;
  return (await found.execute(db)).rows.length === 0;
}
