/**
 * DuckDB's native module, loaded when a process first opens a database rather than when it imports
 * warehouse code: loading it costs about 0.1 s of CPU, and the gateway, memory service and most test
 * files import warehouse code without ever opening a database.
 */
import type { DuckDBInstance } from '@duckdb/node-api';

/** The `@duckdb/node-api` package, loaded on first call. */
export function duckdb(): typeof import('@duckdb/node-api') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@duckdb/node-api');
}

/**
 * Opens (or creates) the DuckDB database at `path`; `:memory:` for an in-memory one. `options`:
 * DuckDB settings fixed at start (e.g. `threads`).
 */
export function openDuckDb(path: string, options?: Record<string, string>): Promise<DuckDBInstance> {
  return duckdb().DuckDBInstance.create(path, options);
}
