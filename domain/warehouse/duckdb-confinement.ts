/**
 * The confinement every DuckDB instance of a project's work gets (docs/security.md#the-warehouse-sandbox):
 * files only under the directories named (and the instance's own spill directory, which DuckDB adds),
 * nothing outside the database (no URLs, no extensions), and the configuration locked so no statement
 * can undo it. The settings are the instance's, so every connection opened later is confined too.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import * as path from 'node:path';
import { quoteLiteral } from '../../shared/sql-quoting';

/** Confines the instance behind `conn` to `directories` and locks its configuration. */
export async function confineConnection(conn: DuckDBConnection, directories: string[]): Promise<void> {
  const allowed = directories.map((d) => quoteLiteral(path.resolve(d) + path.sep)).join(', ');
  await conn.run(`SET allowed_directories = [${allowed}]`);
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
}

/** Confines `instance` (through a connection of its own, closed afterwards). */
export async function confineInstance(instance: DuckDBInstance, directories: string[]): Promise<void> {
  const conn = await instance.connect();
  try {
    await confineConnection(conn, directories);
  } finally {
    conn.closeSync();
  }
}
