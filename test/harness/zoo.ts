/**
 * Loads generated databases (the schema zoo, the demo retailer) into the harness's private MariaDB,
 * once per database name and content: jest workers run test files in parallel, so check-and-load
 * runs under a MySQL named lock per database, and a database already holding the same content
 * (its COMMENT fingerprint) is kept. Use one configuration (seed, scale, date) per name in a run:
 * another one replaces the database under the feet of tests using the first.
 */
import mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import {
  DEMO_DATABASE_NAME,
  DEMO_DESCRIPTION,
  type DemoDatabaseOptions,
} from '../../scripts/demo-data/demo-database';
import { DEMO_STORE_TRUTH } from '../../scripts/demo-data/demo-store/demo-store-truth';
import type { GeneratedDatabase, SchemaTruth } from '../../scripts/demo-data/generated-database';
import {
  loadGeneratedDatabase,
  mysqlConnectionTarget,
  type LoadResult,
  type SqlTarget,
} from '../../scripts/demo-data/load-database';
import { loadDemoDatabase } from '../../scripts/demo-data/load-demo-database';
import { zooSchema, type ZooOptions } from '../../scripts/demo-data/zoo';
import { harness } from './harness-state';

/** A generated database loaded into the harness MariaDB, with how to reach it and its truth. */
export interface HarnessDatabase {
  name: string;
  description: string;
  truth: SchemaTruth;
  host: string;
  port: number;
  user: string;
  password: string;
  /** What a project's `jdbc_url` would be. */
  jdbcUrl: string;
  load: LoadResult;
  /**
   * A connection to the database in a UTC session (TIMESTAMPs were written in UTC, so the truth
   * SQL reads them as generated) returning DATE/DATETIME as strings. Close it with `end()`.
   */
  connect(): Promise<mysql.Connection>;
}

const LOCK_WAIT_SECONDS = 120;

/** Runs `load` while holding the named lock of `database` on a multi-statement connection. */
async function underLoadLock(
  database: string,
  load: (target: SqlTarget) => Promise<LoadResult>,
): Promise<LoadResult> {
  const { host, port, user, password } = harness().mariadb;
  const connection = await mysql.createConnection({ host, port, user, password, multipleStatements: true });
  const lock = `plat_load_${database}`.slice(0, 64);
  try {
    const [rows] = await connection.query<RowDataPacket[]>('SELECT GET_LOCK(?, ?) AS got', [
      lock,
      LOCK_WAIT_SECONDS,
    ]);
    if (rows[0].got !== 1) throw new Error(`could not take lock ${lock} within ${LOCK_WAIT_SECONDS} s`);
    try {
      return await load(mysqlConnectionTarget(connection));
    } finally {
      await connection.query('SELECT RELEASE_LOCK(?)', [lock]);
    }
  } finally {
    await connection.end();
  }
}

function harnessDatabase(
  name: string,
  description: string,
  truth: SchemaTruth,
  load: LoadResult,
): HarnessDatabase {
  const { host, port, user, password } = harness().mariadb;
  return {
    name,
    description,
    truth,
    host,
    port,
    user,
    password,
    jdbcUrl: `jdbc:mysql://${host}:${port}/${name}`,
    load,
    connect: async () => {
      const connection = await mysql.createConnection({
        host,
        port,
        user,
        password,
        database: name,
        dateStrings: true,
      });
      await connection.query("SET time_zone = '+00:00'");
      return connection;
    },
  };
}

/** Loads any generated database (unless already there with the same content). */
export async function loadIntoHarness(db: GeneratedDatabase): Promise<HarnessDatabase> {
  const load = await underLoadLock(db.name, (target) => loadGeneratedDatabase(target, db));
  return harnessDatabase(db.name, db.description, db.truth, load);
}

/** Loads the zoo database of that name (see scripts/demo-data/zoo/). */
export function loadZooDatabase(name: string, options?: ZooOptions): Promise<HarnessDatabase> {
  return loadIntoHarness(zooSchema(name).generate(options));
}

/** Loads the demo retailer (`demo_store`) the way `npm start -- --with-demo-db` does; scale 0.1 by default. */
export async function loadDemoIntoHarness(options: DemoDatabaseOptions = {}): Promise<HarnessDatabase> {
  const resolved = { scale: 0.1, ...options };
  const load = await underLoadLock(DEMO_DATABASE_NAME, (target) => loadDemoDatabase(target, resolved));
  return harnessDatabase(DEMO_DATABASE_NAME, DEMO_DESCRIPTION, DEMO_STORE_TRUTH, load);
}
