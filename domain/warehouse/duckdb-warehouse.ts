/**
 * The embedded warehouse: DuckDB over Parquet. Each layer is a directory of Parquet files (ADS
 * partitioned Hive-style by stat_date) plus a DuckDB catalog file `plat_<id>_<layer>.duckdb` holding
 * one view per table, or for a partitioned table a copy of its rows. Other layers are ATTACHed
 * under their own names, so qualified names resolve.
 */
import { MAX_ANSWER_BYTES, MAX_SESSION_ANSWER_BYTES } from './answer-size';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDb, duckdb } from './duckdb-module';
import { oneAtATime } from './one-at-a-time';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { layerNames, type LayerName } from '../../shared/prd-schema';
import type { SourceSnapshot } from '../../shared/source-schema';
import {
  LayerBuildError,
  type BuiltTable,
  type LayerTableSpec,
  type LocalOds,
  type ProjectQuery,
  type QueryRows,
  type RefreshedTable,
  type TableScope,
  type DayRange,
  type WarehouseEngine,
  WarehouseQueryError,
} from './warehouse-engine';
import { ODS_ROWS_PER_ROW_GROUP } from './ods-table-copy';
import { layerDatabaseFile, layerDatabaseName, layerDir, sourceSchemaFile } from './warehouse-layout';
import { fileNameFor, pathInside } from '../../shared/safe-file-name';
import { quoteIdent as q, quoteLiteral as lit } from '../../shared/sql-quoting';
import { confineConnection } from './duckdb-confinement';
import {
  columnsOf,
  NEW_CATALOG,
  tableMeta,
  viewSelect,
  type TableParts,
  viewMeta,
  writeWholeTable,
  type TableWrite,
} from './layer-table-files';
import { LayerNames, refreshTable } from './refresh/layer-refresh';
import {
  assertTenantSql,
  selectInSandbox,
  withDeadline,
  type ReadSessionLimits,
  type WarehouseReadSession,
} from './duckdb-read-query';

/** What one DuckDB session of a project may use (docs/security.md#the-warehouse-sandbox). */
export interface DuckDbSessionLimits {
  /** DuckDB's `memory_limit` for each session (default 1GB); beyond it, DuckDB spills to disk. */
  memoryLimit?: string;
  /**
   * DuckDB's `max_temp_directory_size` for each session (default 10GB): what one session may spill
   * to disk. DuckDB's own default is 90% of the free space, which one query could take from every
   * project on the disk.
   */
  spillLimit?: string;
}

export class DuckDbWarehouse implements WarehouseEngine {
  readonly kind = 'duckdb' as const;

  constructor(
    private readonly warehouseRoot: string,
    private readonly limits: DuckDbSessionLimits = {},
  ) {}

  async buildLayer(projectId: string, layer: LayerName, tables: LayerTableSpec[]): Promise<BuiltTable[]> {
    return this.writeLayer(projectId, layer, tables, writeWholeTable);
  }

  async refreshLayer(
    projectId: string,
    layer: LayerName,
    tables: LayerTableSpec[],
    below: Record<string, TableScope>,
    force?: DayRange,
  ): Promise<RefreshedTable[]> {
    const scopes = new Map<string, TableScope>();
    const layers = new LayerNames(projectId);
    const built = await this.writeLayer(projectId, layer, tables, async (w) => {
      const refresh = { ...w, layer, layers, below, force };
      scopes.set(w.spec.name, await refreshTable(refresh));
      // A table left as parts: the view reads them.
      w.parts = refresh.parts;
    });
    return built.map((t) => ({ ...t, scope: scopes.get(t.name)! }));
  }

  /**
   * Writes every table of a layer with `write` into a new data folder and catalog, all or nothing:
   * when one fails the layer is left as it was. Then swaps both in, with a view on each file.
   */
  private async writeLayer(
    projectId: string,
    layer: LayerName,
    tables: LayerTableSpec[],
    write: (w: TableWrite) => Promise<void>,
  ): Promise<BuiltTable[]> {
    const dir = layerDir(this.warehouseRoot, projectId, layer);
    fs.mkdirSync(dir, { recursive: true });
    const stamp = `${Date.now()}`;
    const building = path.join(dir, `.building-${stamp}`);
    const dataDir = path.join(dir, `data-${stamp}`);
    fs.mkdirSync(building);
    const catalog = layerDatabaseFile(this.warehouseRoot, projectId, layer);
    const tmp = `${catalog}.tmp`;
    fs.rmSync(tmp, { force: true });
    const built: BuiltTable[] = [];
    const selects = new Map(tables.map((t) => [t.name, t.select]));
    const parts = new Map<string, TableParts>();
    try {
      await this.withProject(projectId, layer, async (conn) => {
        // The new catalog is written by the same session: a partitioned table's rows go into it
        // straight from the build (docs/architecture.md#the-embedded-warehouse).
        await conn.run(`ATTACH ${lit(tmp)} AS ${NEW_CATALOG}`);
        for (const spec of tables) {
          // PRD names are identifiers, so encoding leaves them as they are; it guards the paths anyway.
          const file = spec.partition_by.length
            ? fileNameFor(spec.name)
            : `${fileNameFor(spec.name)}.parquet`;
          const out = pathInside(building, file);
          try {
            await assertOneSelect(conn, spec.select);
            const table: BuiltTable = {
              layer,
              name: spec.name,
              location: path.join(dataDir, file),
              row_count: 0,
              columns: await columnsOf(conn, spec.select),
              partition_by: spec.partition_by,
            };
            const w: TableWrite = { conn, spec, table, out, layerDir: dir };
            await write(w);
            if (w.parts) parts.set(spec.name, w.parts);
            built.push(table);
          } catch (err) {
            throw new LayerBuildError(layer, spec.name, spec.select, (err as Error).message.split('\n')[0]);
          }
        }
        await conn.run(`DETACH ${NEW_CATALOG}`);
      });
    } catch (err) {
      fs.rmSync(building, { recursive: true, force: true });
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    // Every table built: swap the new data in, then the catalog, with a view on each file.
    fs.renameSync(building, dataDir);
    const instance = await openDuckDb(tmp, { memory_limit: this.memoryLimit() });
    const conn = await instance.connect();
    try {
      await confine(conn, this.projectDir(projectId));
      for (const t of built.filter((b) => !b.partition_by.length)) {
        await conn.run(`CREATE VIEW ${q(t.name)} AS ${viewSelect(t.location, parts.get(t.name))}`);
        await conn.run(
          `COMMENT ON VIEW ${q(t.name)} IS ${lit(tableMeta(t, selects.get(t.name)!, parts.get(t.name)))}`,
        );
        const counted = await conn.runAndReadAll(`SELECT COUNT(*) AS n FROM ${q(t.name)}`);
        t.row_count = Number(counted.getRowObjectsJS()[0].n);
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    fs.renameSync(tmp, catalog);
    for (const old of fs.readdirSync(dir)) {
      if (/^(data-\d+|\.building-\d+)$/.test(old) && old !== path.basename(dataDir))
        fs.rmSync(path.join(dir, old), { recursive: true, force: true });
    }
    return built;
  }

  /**
   * One read-only SELECT in the sandbox (see `withProject` and `selectInSandbox`): only the layers
   * it names are attached, and the connection is closed afterwards.
   */
  async query(
    projectId: string,
    sql: string,
    maxRows: number,
    defaultLayer?: LayerName,
    timeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
  ): Promise<QueryRows> {
    const statement = sql.trim().replace(/;\s*$/, '');
    const run = this.withProject(
      projectId,
      defaultLayer,
      // `/query` and dashboards: a tenant's SQL, checked once the layer is known to be there (a
      // layer not built answers first). An answer is read no further than it may weigh
      // (docs/security.md#cost-limits).
      async (conn) => {
        await assertTenantSql(statement);
        return selectInSandbox(conn, statement, maxRows, timeoutMs, MAX_ANSWER_BYTES);
      },
      { sql: statement, sandboxed: true },
    );
    return withDeadline(run, timeoutMs);
  }

  /**
   * Many statements on one in-memory DuckDB with every built layer attached (the sandbox of
   * `query`): opening one costs about 14 ms of CPU, many times what a quality rule's COUNT takes.
   */
  async withQuerySession<T>(projectId: string, work: (query: ProjectQuery) => Promise<T>): Promise<T> {
    return this.withProject(
      projectId,
      undefined,
      async (conn) => {
        let current: LayerName | undefined;
        const inTurn = oneAtATime();
        return work((sql, maxRows, defaultLayer, timeoutMs = DEFAULT_QUERY_TIMEOUT_MS) =>
          inTurn(async () => {
            if (defaultLayer !== current) {
              await this.useLayer(conn, projectId, defaultLayer);
              current = defaultLayer;
            }
            // Metric checks and quality rules: a metric's SQL is a tenant's.
            const statement = sql.trim().replace(/;\s*$/, '');
            await assertTenantSql(statement);
            return selectInSandbox(conn, statement, maxRows, timeoutMs, MAX_SESSION_ANSWER_BYTES);
          }),
        );
      },
      { sandboxed: true },
    );
  }

  /**
   * A read session on one layer for a reader that runs many statements (the advisor's profiling):
   * the same sandbox and the same statement checks and caps as `query`, on one connection kept open
   * until `close()`.
   */
  async openReadSession(
    projectId: string,
    layer: LayerName,
    limits: ReadSessionLimits = {},
  ): Promise<WarehouseReadSession> {
    const file = layerDatabaseFile(this.warehouseRoot, projectId, layer);
    if (!fs.existsSync(file))
      throw new WarehouseQueryError(
        'layer_not_built',
        `${layerDatabaseName(projectId, layer)} is not built yet (${file} does not exist)`,
      );
    const maxRows = limits.maxRows ?? DEFAULT_SESSION_MAX_ROWS;
    const timeoutMs = limits.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    const open = async (threads?: '1') => {
      const session = await this.openSession(projectId, threads);
      try {
        await this.attach(session.conn, projectId, layer, { sandboxed: true });
        await confine(session.conn, this.projectDir(projectId));
        return session;
      } catch (err) {
        session.close();
        throw err;
      }
    };
    const main = await open();
    // A locked session cannot change its threads: a statement that needs one thread (a repeatable
    // sample) runs on a second, one-thread session of the same layer, opened when first needed.
    let extra: Promise<Session> | undefined;
    const oneThread = () => (main.threads === '1' ? Promise.resolve(main) : (extra ??= open('1')));
    const inTurn = oneAtATime();
    return {
      query(sql, { singleThreaded = false } = {}) {
        return inTurn(async () => {
          const statement = sql.trim().replace(/;\s*$/, '');
          const session = singleThreaded ? await oneThread() : main;
          return selectInSandbox(session.conn, statement, maxRows, timeoutMs, MAX_SESSION_ANSWER_BYTES);
        });
      },
      close() {
        main.close();
        void extra?.then(
          (s) => s.close(),
          () => undefined,
        );
      },
    };
  }

  /** ODS is written in place by data integration: nothing to publish. */
  async publishOds(): Promise<void> {}

  /** The ODS files are here already (on the host that copied them). */
  async localOds(): Promise<LocalOds> {
    return { warehouseRoot: this.warehouseRoot, release: () => {} };
  }

  async describeLayer(projectId: string, layer: LayerName): Promise<BuiltTable[]> {
    const file = layerDatabaseFile(this.warehouseRoot, projectId, layer);
    if (!fs.existsSync(file)) return [];
    const db = layerDatabaseName(projectId, layer);
    return this.withProject(projectId, undefined, async (conn) => {
      // Views over Parquet, and the partitioned tables the catalog holds (see buildLayer).
      const entries = await conn.runAndReadAll(
        `SELECT view_name AS name, sql, comment FROM duckdb_views() WHERE database_name = ${lit(db)} AND NOT internal
         UNION ALL SELECT table_name, sql, comment FROM duckdb_tables() WHERE database_name = ${lit(db)} AND NOT internal
         ORDER BY name`,
      );
      const tables: BuiltTable[] = [];
      for (const v of entries.getRowObjectsJS()) {
        const name = String(v.name);
        const cols = await conn.runAndReadAll(`DESCRIBE ${db}.${q(name)}`);
        const count = await conn.runAndReadAll(`SELECT COUNT(*) AS n FROM ${db}.${q(name)}`);
        tables.push({
          layer,
          name,
          ...(({ location, partition_by }) => ({ location, partition_by }))(
            viewMeta(v.comment, String(v.sql)),
          ),
          row_count: Number(count.getRowObjectsJS()[0].n),
          columns: cols
            .getRowObjectsJS()
            .map((r) => ({ name: String(r.column_name), type: String(r.column_type) })),
        });
      }
      return tables;
    });
  }

  /**
   * One thread for a project whose every source table fits one Parquet row group of its ODS, by the
   * row counts data integration saved: DuckDB splits a scan by row group, so a table that small is
   * read by one thread anyway, and the others only add scheduling and merging (a Sakila project's
   * model build, checks and profile took 10 to 25% less CPU on one, measured on 2 cores). Its later
   * layers are no larger: DWD has a row per fact row, DWS and ADS aggregate. Otherwise, and without
   * the saved counts, DuckDB's default (a thread per core).
   */
  private sessionSettings(projectId: string): Record<string, string> | undefined {
    return fitsOneRowGroup(sourceSchemaFile(this.warehouseRoot, projectId)) ? { threads: '1' } : undefined;
  }

  /**
   * An in-memory DuckDB with the project's built layers attached read-only under their warehouse
   * names; `defaultLayer`, when given, is the one unqualified names resolve in.
   */
  private async withProject<T>(
    projectId: string,
    defaultLayer: LayerName | undefined,
    fn: (conn: DuckDBConnection) => Promise<T>,
    opts: AttachOptions = {},
  ): Promise<T> {
    const session = await this.openSession(projectId);
    try {
      await this.attach(session.conn, projectId, defaultLayer, opts);
      await confine(session.conn, this.projectDir(projectId));
      return await fn(session.conn);
    } finally {
      session.close();
    }
  }

  /**
   * An in-memory DuckDB for one project's work, with the memory limit and a spill directory of its
   * own (removed on close), which DuckDB adds to what the session may read: only this session's
   * spilled rows, never another's.
   */
  private async openSession(projectId: string, threads?: '1'): Promise<Session> {
    const spillRoot = path.join(this.warehouseRoot, SPILL_DIR);
    fs.mkdirSync(spillRoot, { recursive: true, mode: 0o700 });
    const spill = fs.mkdtempSync(path.join(spillRoot, 'session-'));
    const settings = { ...this.sessionSettings(projectId), ...(threads ? { threads } : {}) };
    let instance;
    try {
      instance = await openDuckDb(':memory:', {
        ...settings,
        memory_limit: this.memoryLimit(),
        max_temp_directory_size: this.limits.spillLimit ?? DEFAULT_SPILL_LIMIT,
        temp_directory: spill,
      });
      const opened = instance;
      const conn = await opened.connect();
      return {
        conn,
        threads: settings.threads === '1' ? '1' : undefined,
        close() {
          conn.closeSync();
          opened.closeSync();
          fs.rmSync(spill, { recursive: true, force: true });
        },
      };
    } catch (err) {
      instance?.closeSync();
      fs.rmSync(spill, { recursive: true, force: true });
      throw err;
    }
  }

  private memoryLimit(): string {
    return this.limits.memoryLimit ?? DEFAULT_MEMORY_LIMIT;
  }

  private projectDir(projectId: string): string {
    return path.join(this.warehouseRoot, projectId);
  }

  /**
   * Attaches the built layers (with `sql` known, only those it names and the default: queries are
   * many). Sandboxed (a reader), the default layer must be built.
   */
  private async attach(
    conn: DuckDBConnection,
    projectId: string,
    defaultLayer: LayerName | undefined,
    { sql, sandboxed }: AttachOptions,
  ): Promise<void> {
    for (const layer of layerNames) {
      const file = layerDatabaseFile(this.warehouseRoot, projectId, layer);
      const needed = !sql || layer === defaultLayer || sql.includes(layerDatabaseName(projectId, layer));
      if (needed && fs.existsSync(file))
        await conn.run(`ATTACH ${lit(file)} AS ${layerDatabaseName(projectId, layer)} (READ_ONLY)`);
    }
    if (defaultLayer) {
      if (fs.existsSync(layerDatabaseFile(this.warehouseRoot, projectId, defaultLayer)))
        await conn.run(`USE ${layerDatabaseName(projectId, defaultLayer)}`);
      else if (sandboxed) throw notBuilt(projectId, defaultLayer);
    }
  }

  /**
   * Makes `layer` the one unqualified names resolve in, on a session's connection (every built
   * layer is attached; with no layer, the in-memory database, where nothing resolves).
   */
  private async useLayer(conn: DuckDBConnection, projectId: string, layer: LayerName | undefined) {
    if (!layer) return void (await conn.run('USE memory'));
    if (!fs.existsSync(layerDatabaseFile(this.warehouseRoot, projectId, layer)))
      throw notBuilt(projectId, layer);
    await conn.run(`USE ${layerDatabaseName(projectId, layer)}`);
  }
}

const notBuilt = (projectId: string, layer: LayerName) =>
  new WarehouseQueryError('layer_not_built', `${layerDatabaseName(projectId, layer)} is not built yet`);

interface AttachOptions {
  /** The statement to run, when known: only the layers it names are attached. */
  sql?: string;
  /** A reader: its default layer must be built. */
  sandboxed?: boolean;
}

/** An open in-memory DuckDB of one project; `close()` removes its spill directory too. */
interface Session {
  conn: DuckDBConnection;
  /** '1' when the session runs on one thread. */
  threads?: '1';
  close(): void;
}

/** Where sessions spill, beside the projects' directories and inside none of them. */
const SPILL_DIR = '.spill';

/** A session's spill space unless the deployment says otherwise (PLAT_WAREHOUSE_SPILL_LIMIT). */
const DEFAULT_SPILL_LIMIT = '10GB';

/** A session's memory unless the deployment says otherwise (PLAT_WAREHOUSE_MEMORY_LIMIT). */
export const DEFAULT_MEMORY_LIMIT = '1GB';

/**
 * The sandbox of every project session (docs/security.md#the-warehouse-sandbox): files only under
 * the project's own directory (and the session's spill directory, which DuckDB adds), nothing
 * outside the database, and the configuration locked so no statement can undo it or raise its memory.
 */
const confine = (conn: DuckDBConnection, projectDir: string) => confineConnection(conn, [projectDir]);

/**
 * Refuses a table's SELECT unless it is one SELECT statement: a build writes each table with
 * `COPY (<select>) TO …`, and a repaired statement comes from a model.
 */
async function assertOneSelect(conn: DuckDBConnection, select: string): Promise<void> {
  const prepared = await conn.prepare(select);
  if (prepared.statementType !== duckdb().StatementType.SELECT)
    throw new Error('a table is built from one SELECT statement');
}

/** Longest a query (or a read session's statement) runs unless the caller says otherwise. */
export const DEFAULT_QUERY_TIMEOUT_MS = 60_000;

/** Rows a read session's statement may return unless the caller says otherwise. */
const DEFAULT_SESSION_MAX_ROWS = 100_000;

/** Per saved source schema (path, then its version): whether its every table fits one row group. */
const smallSchemas = new Map<string, { version: string; small: boolean }>();

/**
 * Whether every table of the source schema saved at `file` fits one ODS row group; false without
 * one. Read once per version of the file: sessions open per query.
 */
function fitsOneRowGroup(file: string): boolean {
  let version: string;
  try {
    // Data integration renames a new file into place: a new inode, whatever the clock says.
    const stat = fs.statSync(file);
    version = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return false;
  }
  const known = smallSchemas.get(file);
  if (known?.version === version) return known.small;
  let small = false;
  try {
    const { tables } = JSON.parse(fs.readFileSync(file, 'utf8')) as SourceSnapshot;
    small = tables.length > 0 && tables.every((t) => t.row_count <= ODS_ROWS_PER_ROW_GROUP);
  } catch {
    // Unreadable: DuckDB's default, as without one.
  }
  // A long-running process sees many projects: forget them all now and then rather than grow.
  if (smallSchemas.size >= 1_000) smallSchemas.clear();
  smallSchemas.set(file, { version, small });
  return small;
}
