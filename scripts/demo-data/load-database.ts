/**
 * Loads a generated database into MariaDB, idempotently: the database's COMMENT (MariaDB ≥ 10.5)
 * records a fingerprint of what was loaded, so the same content is not loaded twice and different
 * content replaces it. The comment is written last, so a load that died half-way is redone.
 */
import { createHash } from 'node:crypto';
import type { Connection } from 'mysql2/promise';
import type { GeneratedDatabase } from './generated-database';
import { ident, quote } from './sql-literals';

/** Where SQL runs: the `mariadb` client of a private instance, or a mysql2 connection. */
export interface SqlTarget {
  /** Runs a script of `;`-separated statements in one session. */
  execute(script: string): Promise<void>;
  /** The first column of the first row as text; null when there is no row or it is NULL. */
  scalar(query: string): Promise<string | null>;
}

/** A target running scripts through a private instance's command-line client (see scripts/lib/mariadb-instance.ts). */
export function mariaDbClientTarget(db: { sql(script: string): Promise<string> }): SqlTarget {
  return {
    execute: async (script) => {
      await db.sql(script);
    },
    scalar: async (query) => {
      // --batch --skip-column-names: one line per row, tab-separated, NULL spelled out.
      const first = (await db.sql(query)).split('\n')[0].split('\t')[0];
      return first === '' || first === 'NULL' ? null : first;
    },
  };
}

/** A target on a mysql2 connection opened with `multipleStatements: true`. */
export function mysqlConnectionTarget(connection: Connection): SqlTarget {
  if (!connection.config.multipleStatements) {
    throw new Error('mysqlConnectionTarget needs a connection opened with multipleStatements: true');
  }
  return {
    execute: async (script) => {
      await connection.query(script);
    },
    scalar: async (query) => {
      const [rows] = await connection.query({ sql: query, rowsAsArray: true });
      const value = (rows as unknown[][])[0]?.[0];
      return value === undefined || value === null ? null : String(value);
    },
  };
}

/** What to load: a name, the fingerprint of its content, and how to generate it when needed. */
export interface LoadRequest {
  name: string;
  /** Identifies the content (≤ 1000 characters); an existing database with the same one is kept. */
  fingerprint: string;
  /** Called only when the database must be (re)loaded. */
  generate: () => GeneratedDatabase;
}

export interface LoadResult {
  name: string;
  /** `present`: an identical database was already there and was kept. */
  status: 'loaded' | 'present';
  fingerprint: string;
  durationMs: number;
}

/** Statements are sent in scripts of about this size: well under MariaDB's default 16 MB packet limit. */
const SCRIPT_BYTES = 4 * 1024 * 1024;

/** A fingerprint of a generated database's exact content (its name and statements). */
export function contentFingerprint(db: GeneratedDatabase): string {
  const hash = createHash('sha256').update(db.name);
  for (const statement of db.statements) hash.update('\0').update(statement);
  return `plat generated data, sha256 ${hash.digest('hex').slice(0, 20)}`;
}

/** Creates the database and runs its statements unless the same content is already loaded. */
export async function ensureDatabase(target: SqlTarget, request: LoadRequest): Promise<LoadResult> {
  const started = Date.now();
  const { name, fingerprint } = request;
  if (fingerprint.length > 1000) throw new Error('fingerprint longer than a database comment allows');
  const existing = await target.scalar(
    `SELECT SCHEMA_COMMENT FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ${quote(name)}`,
  );
  if (existing === fingerprint)
    return { name, status: 'present', fingerprint, durationMs: Date.now() - started };

  const db = request.generate();
  if (db.name !== name) throw new Error(`generated database is named ${db.name}, expected ${name}`);
  await target.execute(
    `DROP DATABASE IF EXISTS ${ident(name)};\n` +
      `CREATE DATABASE ${ident(name)} CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci COMMENT 'loading';`,
  );
  for (const script of scripts(name, db.statements)) await target.execute(script);
  await target.execute(`ALTER DATABASE ${ident(name)} COMMENT ${quote(fingerprint)};`);
  return { name, status: 'loaded', fingerprint, durationMs: Date.now() - started };
}

/**
 * Loads `db` (creating the database) unless a database of that name already holds exactly this
 * content; `fingerprint` defaults to a hash of the statements.
 */
export function loadGeneratedDatabase(
  target: SqlTarget,
  db: GeneratedDatabase,
  options: { fingerprint?: string } = {},
): Promise<LoadResult> {
  return ensureDatabase(target, {
    name: db.name,
    fingerprint: options.fingerprint ?? contentFingerprint(db),
    generate: () => db,
  });
}

/**
 * Groups statements into scripts of bounded size; each starts its own session settings, because a
 * client target opens a new session per script. TIMESTAMP values are written in UTC.
 */
function scripts(database: string, statements: readonly string[]): string[] {
  const head = `SET time_zone = '+00:00';\nUSE ${ident(database)};\n`;
  const out: string[] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const statement of statements) {
    if (bytes > 0 && bytes + statement.length > SCRIPT_BYTES) {
      out.push(head + current.join(';\n') + ';\n');
      current = [];
      bytes = 0;
    }
    current.push(statement);
    bytes += statement.length + 2;
  }
  if (current.length) out.push(head + current.join(';\n') + ';\n');
  return out;
}
