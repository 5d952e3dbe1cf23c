/**
 * The AWS warehouse: Glue catalog + Athena + S3 behind the WarehouseEngine interface. A layer is
 * the Glue database `plat_<project_id>_<layer>`; its tables are Parquet written by Athena CTAS under
 * `s3://<bucket>/<prefix>/<project_id>/<layer>/<table>/<run_id>/`. Builds are staged and swapped in
 * only when every table succeeded (layer-staging.ts, layer-promotion.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { LayerName, Prd } from '../../../shared/prd-schema';
import {
  LayerBuildError,
  type BuiltTable,
  type LayerTableSpec,
  type LocalOds,
  type ProjectQuery,
  type QueryRows,
  type WarehouseEngine,
  WarehouseQueryError,
} from '../warehouse-engine';
import { layerDatabaseName } from '../warehouse-layout';
import { AthenaQueryError, AthenaQueryRunner } from './athena-query-runner';
import { assertReadOnlySelect } from './athena-read-only-sql';
import { toQueryRows } from './athena-result-rows';
import { countRows } from './athena-row-count';
import {
  createAwsWarehouseClients,
  defaultOutputLocation,
  defaultPolling,
  type AthenaWarehouseConfig,
  type AwsWarehouseClients,
} from './athena-warehouse-config';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { invalidNameReason, isStagingTableName } from './ctas-statement';
import { builtTableOf } from './glue-built-table';
import { ensureDatabase, listTables } from './glue-catalog';
import { uploadLayerFiles, type UploadedTableFile } from './layer-file-upload';
import { promoteStaged } from './layer-promotion';
import { discardStaged, stageTable, type LayerTarget, type StagedTable } from './layer-staging';
import { registerParquetTable, type ParquetTableDefinition } from './parquet-table-registration';
import { publishOds } from './ods-publish';
import { downloadOds } from './ods-download';
import { newRunId } from './warehouse-s3-layout';

export class AthenaWarehouse implements WarehouseEngine {
  readonly kind = 'athena' as const;
  private readonly ctx: AwsWarehouseContext;
  private readonly localWarehouseRoot?: string;

  /** `clients` replaces the SDK clients built from `config` (to share them, or add middleware). */
  constructor(config: AthenaWarehouseConfig, clients?: AwsWarehouseClients) {
    const prefix = (config.prefix ?? 'warehouse').replace(/^\/+|\/+$/g, '');
    const resolved = clients ?? createAwsWarehouseClients(config);
    this.localWarehouseRoot = config.localWarehouseRoot;
    this.ctx = {
      clients: resolved,
      bucket: config.bucket,
      prefix,
      runner: new AthenaQueryRunner(resolved.athena, {
        workgroup: config.workgroup ?? 'primary',
        outputLocation: config.outputLocation ?? defaultOutputLocation(config.bucket, prefix),
        polling: { ...defaultPolling, ...config.polling },
      }),
    };
  }

  /**
   * Stages every table (CTAS into `<name>__building`), then swaps them all in; on any failure the
   * staged tables and their data are dropped and the layer is as it was. Tables of an earlier build
   * that `tables` no longer lists are dropped. Athena's CTAS writes at most 100 partitions per
   * statement: a table with more fails with Athena's reason.
   */
  async buildLayer(projectId: string, layer: LayerName, tables: LayerTableSpec[]): Promise<BuiltTable[]> {
    for (const t of tables) {
      const invalid = [t.name, ...t.partition_by].map(invalidNameReason).find(Boolean);
      if (invalid) throw new LayerBuildError(layer, t.name, t.select, invalid);
      if (tables.filter((o) => o.name === t.name).length > 1)
        throw new LayerBuildError(layer, t.name, t.select, `table ${t.name} is defined twice`);
    }
    const database = layerDatabaseName(projectId, layer);
    await ensureDatabase(this.ctx.clients.glue, database, `plat ${layer} layer of project ${projectId}`);
    const target: LayerTarget = { projectId, layer, database, runId: newRunId() };
    const staged: StagedTable[] = [];
    try {
      for (const spec of tables) await stageTable(this.ctx, target, spec, staged);
    } catch (err) {
      await discardStaged(this.ctx, target, staged);
      throw err;
    }
    return promoteStaged(this.ctx, target, staged);
  }

  /** One read-only SELECT through Athena; unqualified names resolve in `defaultLayer`'s database. */
  async query(
    projectId: string,
    sql: string,
    maxRows: number,
    defaultLayer?: LayerName,
    timeoutMs?: number,
  ): Promise<QueryRows> {
    await assertReadOnlySelect(sql, projectId);
    const database = defaultLayer ? layerDatabaseName(projectId, defaultLayer) : undefined;
    try {
      const id = await this.ctx.runner.run(sql, database, timeoutMs);
      const { columns, rows } = await this.ctx.runner.results(id, maxRows + 1);
      const out = toQueryRows(columns, rows);
      return { ...out, rows: out.rows.slice(0, maxRows), truncated: out.rows.length > maxRows };
    } catch (err) {
      const message = (err as Error).message.split('\n')[0];
      if (err instanceof AthenaQueryError && err.state === 'TIMED_OUT')
        throw new WarehouseQueryError('timeout', message);
      throw new WarehouseQueryError('failed', message);
    }
  }

  /** Athena keeps nothing open between statements: each is its own `query`. */
  withQuerySession<T>(projectId: string, work: (query: ProjectQuery) => Promise<T>): Promise<T> {
    return work((sql, maxRows, defaultLayer, timeoutMs) =>
      this.query(projectId, sql, maxRows, defaultLayer, timeoutMs),
    );
  }

  /** Uploads the local ODS Parquet to S3 and registers each table in the ODS Glue database. */
  async publishOds(projectId: string, prd: Prd): Promise<void> {
    if (!this.localWarehouseRoot)
      throw new Error(
        'AthenaWarehouse needs localWarehouseRoot to publish the ODS written by data integration',
      );
    await publishOds(this, this.localWarehouseRoot, projectId, prd);
  }

  /** The published ODS downloaded into a fresh scratch root (removed by `release`). */
  async localOds(projectId: string): Promise<LocalOds> {
    const warehouseRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-ods-'));
    try {
      await downloadOds(this.ctx, projectId, warehouseRoot);
    } catch (err) {
      fs.rmSync(warehouseRoot, { recursive: true, force: true });
      throw err;
    }
    return { warehouseRoot, release: () => fs.rmSync(warehouseRoot, { recursive: true, force: true }) };
  }

  /** The layer's Glue tables; a table registered without a row count is counted through Athena. */
  async describeLayer(projectId: string, layer: LayerName): Promise<BuiltTable[]> {
    const database = layerDatabaseName(projectId, layer);
    const tables = (await listTables(this.ctx.clients.glue, database)) ?? [];
    const described: BuiltTable[] = [];
    for (const t of tables.filter((t) => t.Name && !isStagingTableName(t.Name))) {
      const built = builtTableOf(layer, t);
      described.push({
        ...built,
        row_count: built.row_count ?? (await countRows(this.ctx.runner, database, built.name)),
      });
    }
    return described.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Uploads a layer's local Parquet files (ODS), one S3 folder per table. */
  uploadLayerFiles(localDir: string, projectId: string, layer: LayerName): Promise<UploadedTableFile[]> {
    return uploadLayerFiles(this.ctx, localDir, projectId, layer);
  }

  /** Registers uploaded Parquet as a table of the layer (creating the layer's database if needed). */
  async registerParquetTable(
    projectId: string,
    layer: LayerName,
    def: ParquetTableDefinition,
  ): Promise<BuiltTable> {
    const database = layerDatabaseName(projectId, layer);
    await ensureDatabase(this.ctx.clients.glue, database, `plat ${layer} layer of project ${projectId}`);
    const input = await registerParquetTable(this.ctx, database, def);
    const built = builtTableOf(layer, input);
    return { ...built, row_count: built.row_count ?? (await countRows(this.ctx.runner, database, def.name)) };
  }
}
