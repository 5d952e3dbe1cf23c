/** In-memory DuckDB connections for tests that run the SQL plat writes as DuckDB parses it. */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * An in-memory DuckDB connection opened before the enclosing `describe`'s tests (after `setup` has
 * run on it) and closed after them. Read `conn` inside tests and hooks only: it is unset before.
 */
export function memoryDuckDbPerSuite(setup?: (conn: DuckDBConnection) => Promise<void>): {
  readonly conn: DuckDBConnection;
} {
  let db: DuckDBInstance | undefined;
  let conn: DuckDBConnection | undefined;
  beforeAll(async () => {
    db = await DuckDBInstance.create(':memory:');
    conn = await db.connect();
    await setup?.(conn);
  });
  afterAll(() => {
    conn?.closeSync();
    db?.closeSync();
  });
  return {
    get conn(): DuckDBConnection {
      if (!conn) throw new Error('the DuckDB connection is opened in beforeAll');
      return conn;
    },
  };
}

/** Runs `body` on a fresh in-memory DuckDB connection, closed afterwards whatever `body` does. */
export async function withMemoryDuckDb<T>(body: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    return await body(conn);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
