/**
 * The warehouse engine behind the modeling, governance and query stages. The embedded default is
 * DuckDB over Parquet (`duckdb-warehouse.ts`); in AWS the same interface is Glue + Athena + S3.
 *
 * SQL handed to an engine names tables by their fully qualified warehouse names,
 * `plat_<project_id>_<layer>.<table>`, so one script runs unchanged on DuckDB and on Athena.
 */
import type { LayerName, Prd } from '../../shared/prd-schema';
import type { DayRange } from '../../shared/day-range';

export type { DayRange };

/** One table of a layer, defined by a SELECT over earlier layers. */
export interface LayerTableSpec {
  name: string;
  /** The SELECT that produces the table (fully qualified names of upstream tables). */
  select: string;
  /** Partition columns; ADS tables are partitioned by `stat_date`. */
  partition_by: string[];
}

/** A table as the engine built it. */
export interface BuiltTable {
  layer: LayerName;
  name: string;
  /** Where its data lives: a directory or file path (embedded) or an s3:// URI (AWS). */
  location: string;
  row_count: number;
  columns: { name: string; type: string }[];
  partition_by: string[];
}

/**
 * What a refresh's rebuild did to one modeled table (docs/refresh.md#only-affected-days): nothing
 * below it changed (`kept`), only the rows of some days were computed again (`days`, by `column`;
 * `null_day`: the rows where it is NULL too), or it was built whole, and why.
 */
export type TableScope =
  | { kind: 'kept' }
  | { kind: 'days'; column: string; days: string[]; null_day: boolean }
  | { kind: 'whole'; reason: string };

/** A table as a refresh's rebuild left it, and how much of it was computed again. */
export interface RefreshedTable extends BuiltTable {
  scope: TableScope;
}

/** A statement of a layer script failed: which table, which statement, and the engine's reason. */
export class LayerBuildError extends Error {
  constructor(
    readonly layer: LayerName,
    readonly table: string,
    readonly statement: string,
    readonly reason: string,
  ) {
    super(`${layer}.${table} failed: ${reason}`);
    this.name = 'LayerBuildError';
  }
}

export interface QueryRows {
  columns: string[];
  rows: Record<string, unknown>[];
  /** More rows than `maxRows` existed; only the first `maxRows` are returned. */
  truncated: boolean;
}

/** `WarehouseEngine.query` of one project, inside `withQuerySession`. */
export type ProjectQuery = (
  sql: string,
  maxRows: number,
  defaultLayer?: LayerName,
  timeoutMs?: number,
) => Promise<QueryRows>;

/** Why a query was refused or failed: the gateway answers each reason with its own status. */
export type WarehouseQueryFailure =
  | 'invalid_sql'
  | 'read_only'
  /** One SELECT, but calling what a tenant may not (a table function that logs, a value past its bound). */
  | 'not_allowed'
  | 'timeout'
  | 'failed'
  | 'layer_not_built';

/** A warehouse query refused (not one read-only SELECT, another project's data) or failed. */
export class WarehouseQueryError extends Error {
  constructor(
    readonly reason: WarehouseQueryFailure,
    message: string,
    /**
     * For a query answered `timeout` at its deadline while the engine still works on it (DuckDB
     * folding constants notices no interrupt): settles when that work ends, so whoever counts what
     * runs at once keeps counting it until then (docs/security.md#cost-limits).
     */
    readonly stillRunning?: Promise<unknown>,
  ) {
    super(message);
    this.name = 'WarehouseQueryError';
  }
}

export interface WarehouseEngine {
  readonly kind: 'duckdb' | 'athena';
  /**
   * Builds every table of a layer, all or nothing: when one statement fails the layer is left as
   * it was before (nothing half-built stays registered) and a LayerBuildError names the statement.
   */
  buildLayer(projectId: string, layer: LayerName, tables: LayerTableSpec[]): Promise<BuiltTable[]>;
  /**
   * Builds a layer again after a refresh changed the ODS, computing only what changed: a table
   * whose inputs did not change is kept, one whose rows follow a day of its inputs has those days
   * computed again, any other is built whole. `below` says what the rebuild did to each table of
   * the layers under this one (`layer.table`); the ODS's changed rows are those the refresh left
   * beside it. `force` (a backfill) adds its days to those of every table rebuilt by day from the
   * ODS, changed or not. All or nothing, as `buildLayer`. Absent: the engine rebuilds whole.
   */
  refreshLayer?(
    projectId: string,
    layer: LayerName,
    tables: LayerTableSpec[],
    below: Record<string, TableScope>,
    force?: DayRange,
  ): Promise<RefreshedTable[]>;
  /**
   * Runs one read-only SELECT with every built layer of the project visible by its qualified name;
   * unqualified names resolve in `defaultLayer` when given. This is the one query path of the
   * gateway, the stages and the advisor, sandboxed inside the engine: nothing but a single SELECT
   * runs, only the project's own data is reachable, at most `maxRows` rows come back and a query
   * running past `timeoutMs` is stopped. Refusals and failures are `WarehouseQueryError`s.
   */
  query(
    projectId: string,
    sql: string,
    maxRows: number,
    defaultLayer?: LayerName,
    timeoutMs?: number,
  ): Promise<QueryRows>;
  /**
   * Runs `work` with a `ProjectQuery` for many statements on one project (the quality rules, the
   * metric checks): each is checked, capped and sandboxed as `query` does, and fails the same way,
   * but the warehouse is opened once for them all instead of once per statement.
   */
  withQuerySession<T>(projectId: string, work: (query: ProjectQuery) => Promise<T>): Promise<T>;
  /**
   * Makes the project's ODS (already written under the local warehouse root by data integration)
   * readable by this engine's later stages: nothing to do for the embedded engine; Athena uploads it
   * to S3 and registers it in Glue.
   */
  publishOds(projectId: string, prd: Prd): Promise<void>;
  /** The tables of a built layer (none when the layer is not built). */
  describeLayer(projectId: string, layer: LayerName): Promise<BuiltTable[]>;
  /**
   * The project's ODS as local files, for the advisor's profiling: the embedded engine's own files
   * (on the host that holds them); Athena downloads what was published to S3 into a scratch root, so
   * any worker can profile it. `release` removes what was fetched.
   */
  localOds(projectId: string): Promise<LocalOds>;
}

/** A warehouse root holding a project's ODS catalog and files (see `WarehouseEngine.localOds`). */
export interface LocalOds {
  warehouseRoot: string;
  release(): void;
}
