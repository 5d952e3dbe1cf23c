/** Connections to the harness's private MariaDB with the Sakila sample loaded. */
import mysql from 'mysql2/promise';
import { sourceConnector, type SourceConnector } from '../../domain/sources/mysql-connection';
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../domain/sources/source-explorer';
import {
  ingestOds,
  type OdsIngestionOptions,
  type OdsIngestionResult,
} from '../../domain/warehouse/ods-ingestion';
import type { Prd } from '../../shared/prd-schema';
import type { SourceSnapshot } from '../../shared/source-schema';
import { harness } from './harness-state';
import { newTestDataDir } from './platform-gateway';

export function sakilaConnection(): Promise<mysql.Connection> {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password, database: 'sakila' });
}

/** The body of `POST /v1/projects` for `database` on the harness's MariaDB, as the harness's user. */
export function harnessProjectRequest(database = 'sakila') {
  const { host, port, user, password } = harness().mariadb;
  return { jdbc_url: `jdbc:mysql://${host}:${port}/${database}`, username: user, password };
}

/** A source connector to `database` on the harness's MariaDB, as the harness's user unless given. */
export function harnessSource(database = 'sakila', user?: string, password?: string): SourceConnector {
  const h = harness().mariadb;
  return sourceConnector(
    { host: h.host, port: h.port, database, options: {} },
    user ?? h.user,
    password ?? h.password,
  );
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

/**
 * Sakila's ODS for `projectId` under `warehouseRoot`, copied as data integration does, with the
 * offline analyst's PRD (which the ODS follows); answers that PRD.
 */
export async function ingestSakilaOds(warehouseRoot: string, projectId: string): Promise<Prd> {
  const snapshot = await sakilaSnapshot();
  const prd = buildOfflinePrd(snapshot);
  await ingestFresh({ projectId, snapshot, warehouseRoot, prd });
  return prd;
}
