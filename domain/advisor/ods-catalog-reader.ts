/**
 * Read-only access to a project's ODS catalog for the advisor's profiling: a read session of the
 * embedded warehouse engine, so every statement goes through the same sandbox and checks as a
 * query (READ_ONLY attach, file access confined to the project's warehouse, one SELECT, row and time
 * caps; docs/architecture.md#one-warehouse-query-path). The ODS is read from local files: the
 * host's own, or with Athena a download of the published ODS (`WarehouseEngine.localOds`), which
 * spares Athena the hundreds of statements the advisor runs.
 */
import { hostWarehousePool } from '../warehouse/process-pool/host-warehouse-pool';
import { pooledReadSession } from '../warehouse/process-pool/pooled-duckdb-warehouse';
import { WarehouseQueryError } from '../warehouse/warehouse-engine';

/** Profiling reads aggregates; a statement that returns more rows than this is a bug, not a result. */
const PROFILE_MAX_ROWS = 100_000;

/** Longest one profiling statement may run; the stage as a whole has the activity's time limit. */
const PROFILE_STATEMENT_TIMEOUT_MS = 10 * 60_000;

/** One result row with every value as JSON (BIGINT and DECIMAL as strings, timestamps as text). */
export type JsonRow = Record<string, string | number | boolean | null>;

/** An open ODS catalog; `close()` must be called. */
export interface OdsCatalog {
  /** One SELECT; `singleThreaded` makes a `REPEATABLE` sample repeatable. */
  query(sql: string, options?: { singleThreaded?: boolean }): Promise<JsonRow[]>;
  /** Columns of every table and view, in declaration order. */
  columns(): Promise<Map<string, { name: string; type: string }[]>>;
  close(): void;
}

/** Opens `plat_<project_id>_ods` read-only; throws naming the layer when data integration has not run. */
export async function openOdsCatalog(warehouseRoot: string, projectId: string): Promise<OdsCatalog> {
  // In a child process of the host's warehouse pool, like every DuckDB session of a project.
  const session = await pooledReadSession(hostWarehousePool(), warehouseRoot, projectId, 'ods', {
    maxRows: PROFILE_MAX_ROWS,
    timeoutMs: PROFILE_STATEMENT_TIMEOUT_MS,
  });
  const query = async (sql: string, options?: { singleThreaded?: boolean }) => {
    const result = await session.query(sql, options);
    // A cut-off answer would profile the wrong data: fail loudly instead.
    if (result.truncated)
      throw new WarehouseQueryError(
        'failed',
        `a profiling statement returned more than ${PROFILE_MAX_ROWS} rows`,
      );
    return result.rows as JsonRow[];
  };
  return {
    query,
    async columns() {
      const rows = await query(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_catalog = current_database() ORDER BY table_name, ordinal_position`,
      );
      const byTable = new Map<string, { name: string; type: string }[]>();
      for (const r of rows) {
        const list = byTable.get(String(r.table_name)) ?? [];
        list.push({ name: String(r.column_name), type: String(r.data_type) });
        byTable.set(String(r.table_name), list);
      }
      return byTable;
    },
    close: () => session.close(),
  };
}
