/**
 * Copies one MySQL table into a Parquet file through DuckDB, with exact types: values are read as
 * MySQL's own text (no float rounding of DECIMAL, no time-zone shifts of DATETIME, full unsigned
 * BIGINT), appended to a staging table, then cast once to the warehouse types and written as Parquet.
 * Zero dates become NULL and are counted as a warning.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import type { Connection as CallbackConnection } from 'mysql2';
import type { SourceColumn, SourceTable } from '../../shared/source-schema';
import { warehouseType } from '../agents/offline-analyst/warehouse-types';
import { quoteId } from '../sources/source-explorer';

const SPATIAL = new Set([
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
]);
const BINARY = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);

export interface TableCopyResult {
  table: string;
  source_rows: number;
  ods_rows: number;
  file: string;
  warnings: string[];
}

const dq = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The SELECT list: spatial as WKT, BIT as a number, everything else as stored. */
function selectList(columns: SourceColumn[]): string {
  return columns
    .map((c) => {
      const id = quoteId(c.name);
      if (SPATIAL.has(c.data_type)) return `ST_AsText(${id}) AS ${id}`;
      if (c.data_type === 'bit') return `CAST(${id} AS UNSIGNED) AS ${id}`;
      return id;
    })
    .join(', ');
}

export async function copyTableToParquet(
  mysql: Connection,
  duck: DuckDBConnection,
  table: SourceTable,
  outFile: string,
  onProgress: (rows: number) => void = () => {},
): Promise<TableCopyResult> {
  const staging = dq(`stg_${table.name}`);
  const stagingColumns = table.columns
    .map((c) => `${dq(c.name)} ${BINARY.has(c.data_type) ? 'BLOB' : 'VARCHAR'}`)
    .join(', ');
  await duck.run(`CREATE OR REPLACE TABLE ${staging} (${stagingColumns})`);
  const appender = await duck.createAppender(`stg_${table.name}`);
  const binary = table.columns.map((c) => BINARY.has(c.data_type));

  // A streamed, text-typed read: bounded memory, values exactly as MySQL prints them.
  const raw = (mysql as unknown as { connection: CallbackConnection }).connection;
  const stream = raw
    .query({
      sql: `SELECT ${selectList(table.columns)} FROM ${quoteId(table.name)}`,
      rowsAsArray: true,
      typeCast: (field, next) =>
        field.type === 'BLOB' ||
        field.type === 'TINY_BLOB' ||
        field.type === 'MEDIUM_BLOB' ||
        field.type === 'LONG_BLOB' ||
        field.type === 'GEOMETRY'
          ? next()
          : field.string(),
    })
    .stream({ highWaterMark: 1000 });
  let rows = 0;
  for await (const row of stream as AsyncIterable<unknown[]>) {
    row.forEach((value, i) => {
      if (value === null || value === undefined) appender.appendNull();
      else if (binary[i])
        appender.appendBlob(
          Buffer.isBuffer(value) ? new Uint8Array(value) : new TextEncoder().encode(String(value)),
        );
      else appender.appendVarchar(Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
    });
    appender.endRow();
    if (++rows % 10_000 === 0) {
      appender.flushSync();
      onProgress(rows);
    }
  }
  appender.closeSync();

  const warnings: string[] = [];
  const casts = table.columns.map((c) => {
    const type = warehouseType(c);
    if (TEMPORAL.has(c.data_type))
      return `TRY_CAST(NULLIF(${dq(c.name)}, '0000-00-00 00:00:00') AS ${type}) AS ${dq(c.name)}`;
    if (type === 'BOOLEAN') return `(${dq(c.name)} <> '0') AS ${dq(c.name)}`;
    if (type === 'VARCHAR' || type === 'BLOB') return dq(c.name);
    return `CAST(${dq(c.name)} AS ${type}) AS ${dq(c.name)}`;
  });
  for (const c of table.columns.filter((col) => TEMPORAL.has(col.data_type))) {
    const bad = await duck.runAndReadAll(
      `SELECT COUNT(*) AS n FROM ${staging} WHERE ${dq(c.name)} IS NOT NULL AND TRY_CAST(NULLIF(${dq(c.name)}, '0000-00-00 00:00:00') AS ${warehouseType(c)}) IS NULL`,
    );
    const n = Number(bad.getRowObjects()[0].n);
    if (n > 0) warnings.push(`${table.name}.${c.name}: ${n} zero or invalid dates stored as NULL`);
  }
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  const tmp = `${outFile}.tmp`;
  await duck.run(
    `COPY (SELECT ${casts.join(', ')} FROM ${staging}) TO '${tmp.replace(/'/g, "''")}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  fs.renameSync(tmp, outFile); // a retried copy replaces the file whole: never half a table
  const counted = await duck.runAndReadAll(
    `SELECT COUNT(*) AS n FROM read_parquet('${outFile.replace(/'/g, "''")}')`,
  );
  // Reconcile against the source inside the same consistent snapshot the rows were read from.
  const [countRows] = (await mysql.query({
    sql: `SELECT COUNT(*) FROM ${quoteId(table.name)}`,
    rowsAsArray: true,
  })) as unknown as [unknown[][]];
  const sourceCount = Number(countRows[0][0]);
  await duck.run(`DROP TABLE ${staging}`);
  onProgress(rows);
  if (sourceCount !== rows)
    warnings.push(`${table.name}: read ${rows} rows but the source counts ${sourceCount}`);
  return {
    table: table.name,
    source_rows: sourceCount,
    ods_rows: Number(counted.getRowObjects()[0].n),
    file: outFile,
    warnings,
  };
}
