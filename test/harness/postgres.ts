/**
 * Fresh databases in the harness's PostgreSQL: each test file (or "fleet") gets its own, so tests
 * never see each other's rows and run in parallel.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { harness } from './harness-state';

/** Creates an empty database named after `purpose` and answers its URL. */
export async function freshPostgresDatabase(purpose: string): Promise<string> {
  const name = `${purpose
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 40)}_${randomBytes(4).toString('hex')}`;
  const admin = harness().postgres.adminUrl;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}
