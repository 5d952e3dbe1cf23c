/** Connections to the harness's private MariaDB with the Sakila sample loaded. */
import mysql from 'mysql2/promise';
import { sourceConnector, type SourceConnector } from '../../domain/sources/mysql-connection';
import { buildOfflinePrd } from '../../domain/agents/offline-analyst/prd-builder';
import { exploreSource } from '../../domain/sources/source-explorer';
import { ingestOds } from '../../domain/warehouse/ods-ingestion';
import type { Prd } from '../../shared/prd-schema';
import { harness } from './harness-state';

export function sakilaConnection(): Promise<mysql.Connection> {
  const { host, port, user, password } = harness().mariadb;
  return mysql.createConnection({ host, port, user, password, database: 'sakila' });
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

/**
 * Sakila's ODS for `projectId` under `warehouseRoot`, copied as data integration does, with the
 * offline analyst's PRD (which the ODS follows); answers that PRD.
 */
export async function ingestSakilaOds(warehouseRoot: string, projectId: string): Promise<Prd> {
  const mysql = await sakilaConnection();
  try {
    const snapshot = await exploreSource(mysql, 'sakila', { sampleRows: 0 });
    const prd = buildOfflinePrd(snapshot);
    await ingestOds({
      source: harnessSource(),
      projectId,
      warehouseRoot,
      snapshot,
      prd,
      done: [],
      onTable: () => {},
    });
    return prd;
  } finally {
    await mysql.end();
  }
}
