/**
 * POST /v1/projects/{id}/query: read-only SQL against `plat_<id>_<layer>`. Every built layer's DuckDB
 * file is attached read-only under its warehouse name (so `plat_<id>_ods.ods_rental` works from any
 * layer), unqualified names resolve in the layer asked for, file access is confined to the project's
 * warehouse directory, only SELECT statements run, and rows and time are capped.
 */
import { DuckDBInstance, StatementType } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { layerDatabaseFile, layerDatabaseName } from '../../activities/warehouse/warehouse-layout';
import { layerNames } from '../../shared/prd-schema';
import { HttpError } from '../http-errors';
import type { WarehouseEngine } from '../../activities/warehouse/warehouse-engine';

export const warehouseQuerySchema = z
  .object({
    sql: z.string().min(1).max(100_000),
    layer: z.enum(layerNames).default('ods'),
    max_rows: z.number().int().min(1).max(10_000).default(1000),
    timeout_ms: z.number().int().min(100).max(60_000).default(15_000),
  })
  .strict();

export type WarehouseQuery = z.output<typeof warehouseQuerySchema>;

export interface WarehouseQueryResult {
  database: string;
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  duration_ms: number;
}

export async function queryWarehouse(
  warehouseRoot: string,
  projectId: string,
  q: WarehouseQuery,
): Promise<WarehouseQueryResult> {
  const file = layerDatabaseFile(warehouseRoot, projectId, q.layer);
  if (!fs.existsSync(file)) {
    throw new HttpError(409, 'layer_not_built', `${layerDatabaseName(projectId, q.layer)} is not built yet`);
  }
  const started = Date.now();
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    for (const layer of layerNames) {
      const layerFile = layerDatabaseFile(warehouseRoot, projectId, layer);
      if (fs.existsSync(layerFile))
        await conn.run(
          `ATTACH '${layerFile.replace(/'/g, "''")}' AS ${layerDatabaseName(projectId, layer)} (READ_ONLY)`,
        );
    }
    await conn.run(`USE ${layerDatabaseName(projectId, q.layer)}`);
    await conn.run(
      `SET allowed_directories = ['${path.join(warehouseRoot, projectId).replace(/'/g, "''")}/']`,
    );
    await conn.run('SET enable_external_access = false');
    let prepared;
    try {
      prepared = await conn.prepare(q.sql);
    } catch (err) {
      throw new HttpError(400, 'invalid_sql', (err as Error).message.split('\n')[0]);
    }
    if (prepared.statementType !== StatementType.SELECT) {
      throw new HttpError(400, 'read_only', 'only SELECT queries are allowed on the warehouse');
    }
    const timer = setTimeout(() => conn.interrupt(), q.timeout_ms);
    try {
      const reader = await conn.runAndReadUntil(
        `SELECT * FROM (${q.sql.replace(/;\s*$/, '')}) LIMIT ${q.max_rows + 1}`,
        q.max_rows + 1,
      );
      const rows = reader.getRowObjectsJson() as Record<string, unknown>[];
      return {
        database: layerDatabaseName(projectId, q.layer),
        columns: reader.columnNames(),
        rows: rows.slice(0, q.max_rows),
        row_count: Math.min(rows.length, q.max_rows),
        truncated: rows.length > q.max_rows,
        duration_ms: Date.now() - started,
      };
    } catch (err) {
      const message = (err as Error).message.split('\n')[0];
      if (/interrupt/i.test(message))
        throw new HttpError(408, 'query_timeout', `query exceeded ${q.timeout_ms} ms`);
      throw new HttpError(400, 'query_failed', message);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/**
 * The same query on a remote engine (Athena): the engine refuses anything but SELECT and other
 * projects' databases; rows are capped here, time by the engine's own limit.
 */
export async function queryEngine(
  engine: WarehouseEngine,
  projectId: string,
  q: WarehouseQuery,
): Promise<WarehouseQueryResult> {
  const started = Date.now();
  try {
    const out = await engine.query(projectId, q.sql.replace(/;\s*$/, ''), q.max_rows + 1, q.layer);
    return {
      database: layerDatabaseName(projectId, q.layer),
      columns: out.columns,
      rows: out.rows.slice(0, q.max_rows),
      row_count: Math.min(out.rows.length, q.max_rows),
      truncated: out.rows.length > q.max_rows,
      duration_ms: Date.now() - started,
    };
  } catch (err) {
    throw new HttpError(400, 'query_failed', (err as Error).message.split('\n')[0]);
  }
}
