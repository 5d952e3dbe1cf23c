/**
 * The embedded warehouse: DuckDB over Parquet. Each layer is a directory of Parquet files (ADS
 * partitioned Hive-style by stat_date) plus a DuckDB catalog file `plat_<id>_<layer>.duckdb` holding
 * one view per table. Other layers are ATTACHed under their own names, so qualified names resolve.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { layerNames, type LayerName } from '../../shared/prd-schema';
import {
  LayerBuildError,
  type BuiltTable,
  type LayerTableSpec,
  type QueryRows,
  type WarehouseEngine,
} from './warehouse-engine';
import { layerDatabaseFile, layerDatabaseName, layerDir } from './warehouse-layout';

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

export class DuckDbWarehouse implements WarehouseEngine {
  readonly kind = 'duckdb' as const;

  constructor(private readonly warehouseRoot: string) {}

  async buildLayer(projectId: string, layer: LayerName, tables: LayerTableSpec[]): Promise<BuiltTable[]> {
    const dir = layerDir(this.warehouseRoot, projectId, layer);
    fs.mkdirSync(dir, { recursive: true });
    const stamp = `${Date.now()}`;
    const building = path.join(dir, `.building-${stamp}`);
    const dataDir = path.join(dir, `data-${stamp}`);
    fs.mkdirSync(building);
    const built: BuiltTable[] = [];
    try {
      await this.withProject(projectId, layer, async (conn) => {
        for (const t of tables) {
          const out = path.join(building, t.partition_by.length ? t.name : `${t.name}.parquet`);
          const statement = `COPY (${t.select}) TO ${lit(out)} (FORMAT parquet, COMPRESSION zstd${
            t.partition_by.length ? `, PARTITION_BY (${t.partition_by.map(q).join(', ')})` : ''
          })`;
          let columns: { name: string; type: string }[];
          try {
            const described = await conn.runAndReadAll(`DESCRIBE ${t.select}`);
            columns = described.getRowObjectsJS().map((r) => ({
              name: String(r.column_name),
              type: String(r.column_type),
            }));
            await conn.run(statement);
          } catch (err) {
            throw new LayerBuildError(layer, t.name, t.select, (err as Error).message.split('\n')[0]);
          }
          built.push({
            layer,
            name: t.name,
            location: path.join(dataDir, path.basename(out)),
            row_count: 0,
            columns,
            partition_by: t.partition_by,
          });
        }
      });
    } catch (err) {
      fs.rmSync(building, { recursive: true, force: true });
      throw err;
    }
    // Every table built: swap the new data in and rewrite the catalog whole.
    fs.renameSync(building, dataDir);
    const catalog = layerDatabaseFile(this.warehouseRoot, projectId, layer);
    const tmp = `${catalog}.tmp`;
    fs.rmSync(tmp, { force: true });
    const instance = await DuckDBInstance.create(tmp);
    const conn = await instance.connect();
    try {
      for (const t of built) {
        await conn.run(`CREATE VIEW ${q(t.name)} AS ${readExpression(t)}`);
        // Where the data lives and how it is partitioned, for describeLayer and the catalog.
        const meta = JSON.stringify({ location: t.location, partition_by: t.partition_by });
        await conn.run(`COMMENT ON VIEW ${q(t.name)} IS ${lit(meta)}`);
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

  async query(projectId: string, sql: string, maxRows: number, defaultLayer?: LayerName): Promise<QueryRows> {
    return this.withProject(
      projectId,
      defaultLayer,
      async (conn) => {
        const reader = await conn.runAndReadUntil(sql, maxRows);
        const rows = reader.getRowObjectsJson() as Record<string, unknown>[];
        return { columns: reader.columnNames(), rows: rows.slice(0, maxRows) };
      },
      sql,
    );
  }

  async describeLayer(projectId: string, layer: LayerName): Promise<BuiltTable[]> {
    const file = layerDatabaseFile(this.warehouseRoot, projectId, layer);
    if (!fs.existsSync(file)) return [];
    const db = layerDatabaseName(projectId, layer);
    return this.withProject(projectId, undefined, async (conn) => {
      const views = await conn.runAndReadAll(
        `SELECT view_name, sql, comment FROM duckdb_views() WHERE database_name = ${lit(db)} AND NOT internal ORDER BY view_name`,
      );
      const tables: BuiltTable[] = [];
      for (const v of views.getRowObjectsJS()) {
        const name = String(v.view_name);
        const cols = await conn.runAndReadAll(`DESCRIBE ${db}.${q(name)}`);
        const count = await conn.runAndReadAll(`SELECT COUNT(*) AS n FROM ${db}.${q(name)}`);
        tables.push({
          layer,
          name,
          ...viewMeta(v.comment, String(v.sql)),
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
   * An in-memory DuckDB with every built layer of the project attached read-only under its
   * warehouse name; `defaultLayer`, when given, is the one unqualified names resolve in.
   */
  private async withProject<T>(
    projectId: string,
    defaultLayer: LayerName | undefined,
    fn: (conn: DuckDBConnection) => Promise<T>,
    sql?: string,
  ): Promise<T> {
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      for (const layer of layerNames) {
        const file = layerDatabaseFile(this.warehouseRoot, projectId, layer);
        // With the SQL known, only the layers it names (and the default) are attached: queries are many.
        const needed = !sql || layer === defaultLayer || sql.includes(layerDatabaseName(projectId, layer));
        if (needed && fs.existsSync(file))
          await conn.run(`ATTACH ${lit(file)} AS ${layerDatabaseName(projectId, layer)} (READ_ONLY)`);
      }
      const useLayer = defaultLayer && layerDatabaseFile(this.warehouseRoot, projectId, defaultLayer);
      if (useLayer && fs.existsSync(useLayer))
        await conn.run(`USE ${layerDatabaseName(projectId, defaultLayer!)}`);
      return await fn(conn);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
}

/** Location and partitioning of a view: from its comment (modeled layers) or its SQL (ODS). */
function viewMeta(comment: unknown, sql: string): { location: string; partition_by: string[] } {
  if (typeof comment === 'string' && comment.startsWith('{')) {
    return JSON.parse(comment) as { location: string; partition_by: string[] };
  }
  const location = /read_parquet\('((?:[^']|'')*)'/.exec(sql)?.[1].replace(/''/g, "'") ?? '';
  return { location, partition_by: [] };
}

/** The view body reading a built table's Parquet (Hive partitions typed from the table's schema). */
function readExpression(t: BuiltTable): string {
  if (!t.partition_by.length) return `SELECT * FROM read_parquet(${lit(t.location)})`;
  const files = fs.existsSync(t.location) ? fs.readdirSync(t.location, { recursive: true }) : [];
  if (!files.some((f) => String(f).endsWith('.parquet'))) {
    // No rows, so no partition files: an empty table with the right columns.
    const cols = t.columns.map((c) => `CAST(NULL AS ${c.type}) AS ${q(c.name)}`).join(', ');
    return `SELECT ${cols} WHERE false`;
  }
  const types = t.partition_by
    .map((p) => `${lit(p)}: ${lit(t.columns.find((c) => c.name === p)?.type ?? 'VARCHAR')}`)
    .join(', ');
  const order = t.columns.map((c) => q(c.name)).join(', ');
  return `SELECT ${order} FROM read_parquet(${lit(`${t.location}/**/*.parquet`)}, hive_partitioning = true, hive_types = {${types}})`;
}
