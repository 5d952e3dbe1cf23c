/** Setup shared by the ODS tests: connections to MariaDB, a fresh ODS copy, rows read back from DuckDB. */
import { DuckDBInstance } from '@duckdb/node-api';
import mysql, { type Connection, type ConnectionOptions } from 'mysql2/promise';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../../domain/sources/source-explorer';
import {
  ingestOds,
  type OdsIngestionOptions,
  type OdsIngestionResult,
} from '../../../domain/warehouse/ods-ingestion';
import type { SourceSnapshot } from '../../../shared/source-schema';
import { harness } from '../../harness/harness-state';
import { newTestDataDir } from '../../harness/platform-gateway';
import { harnessSource, sakilaConnection } from '../../harness/sakila';

/** Where a MariaDB server listens and who logs in: the harness's, or a private one. */
export type MariaDbServer = { host: string; port: number; user: string; password: string };

/** A connection to `server` (the harness's MariaDB unless given), with `options` on top. */
export function connectMariaDb(
  options: ConnectionOptions = {},
  server: MariaDbServer = harness().mariadb,
): Promise<Connection> {
  const { host, port, user, password } = server;
  return mysql.createConnection({ host, port, user, password, ...options });
}

/** Sakila as explored without samples, over a connection of its own. */
export async function sakilaSnapshot(): Promise<SourceSnapshot> {
  const db = await sakilaConnection();
  try {
    return await exploreSource(db, 'sakila', { sampleRows: 0 });
  } finally {
    await db.end();
  }
}

/**
 * A fresh ODS copy of `snapshot`: into a new warehouse root, from the harness's Sakila, by the offline
 * PRD, with nothing done before; any of these given in `opts` instead.
 */
export function ingestFresh(
  opts: Pick<OdsIngestionOptions, 'projectId' | 'snapshot'> & Partial<OdsIngestionOptions>,
): Promise<OdsIngestionResult> {
  return ingestOds({
    source: harnessSource(),
    done: [],
    onTable: () => {},
    ...opts,
    warehouseRoot: opts.warehouseRoot ?? newTestDataDir(),
    prd: opts.prd ?? buildOfflinePrd(opts.snapshot),
  });
}

/** The rows `sql` answers on the DuckDB database `file`, opened read-only. */
export async function duckRows(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
