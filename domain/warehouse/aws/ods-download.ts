/**
 * A local, read-only copy of a project's ODS as published to S3 and Glue, for the advisor's
 * profiling on any worker (docs/fleet.md#athena-stages-anywhere): every table's Parquet objects
 * downloaded into a scratch warehouse root, and the ODS catalog's views registered over them, in the
 * layout the embedded engine reads.
 */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { openDuckDb } from '../duckdb-module';
import { confineConnection } from '../duckdb-confinement';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { fileNameFor, pathInside } from '../../../shared/safe-file-name';
import { quoteIdent, quoteLiteral } from '../../../shared/sql-quoting';
import { layerDatabaseFile, layerDatabaseName, layerDir } from '../warehouse-layout';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { listTables } from './glue-catalog';
import { parseS3Uri } from './warehouse-s3-layout';

/** Downloads the ODS of `projectId` under `scratchRoot`; resolves with the tables and bytes fetched. */
export async function downloadOds(
  ctx: AwsWarehouseContext,
  projectId: string,
  scratchRoot: string,
): Promise<{ tables: number; bytes: number }> {
  const database = layerDatabaseName(projectId, 'ods');
  const tables = (await listTables(ctx.clients.glue, database)) ?? [];
  if (tables.length === 0) throw new Error(`${database} has no tables in Glue: the ODS was not published`);
  const dir = layerDir(scratchRoot, projectId, 'ods');
  fs.mkdirSync(dir, { recursive: true });
  const views: { name: string; files: string[] }[] = [];
  let bytes = 0;
  for (const table of tables) {
    const location = parseS3Uri(table.StorageDescriptor?.Location ?? '');
    if (!table.Name || !location) continue;
    const files: string[] = [];
    for (const key of await objectKeys(ctx, location.bucket, location.key.replace(/\/?$/, '/'))) {
      const file = pathInside(dir, fileNameFor(table.Name), `${files.length}.parquet`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const object = await ctx.clients.s3.send(new GetObjectCommand({ Bucket: location.bucket, Key: key }));
      await pipeline(object.Body as Readable, fs.createWriteStream(file));
      bytes += fs.statSync(file).size;
      files.push(file);
    }
    if (files.length) views.push({ name: table.Name, files });
  }
  await registerCatalog(layerDatabaseFile(scratchRoot, projectId, 'ods'), views);
  return { tables: views.length, bytes };
}

/** The Parquet objects under a table's folder (Athena's own files, such as `_SUCCESS`, are not data). */
async function objectKeys(ctx: AwsWarehouseContext, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await ctx.clients.s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }),
    );
    for (const o of page.Contents ?? []) if (o.Key && !path.basename(o.Key).startsWith('_')) keys.push(o.Key);
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return keys.sort();
}

async function registerCatalog(databaseFile: string, views: { name: string; files: string[] }[]) {
  const instance = await openDuckDb(databaseFile);
  const conn = await instance.connect().catch((err: unknown) => {
    instance.closeSync();
    throw err;
  });
  try {
    // Views over the files downloaded beside it, and nothing else (docs/security.md#the-warehouse-sandbox).
    await confineConnection(conn, [path.dirname(databaseFile)]);
    for (const v of views)
      await conn.run(
        `CREATE VIEW ${quoteIdent(v.name)} AS SELECT * FROM read_parquet([${v.files.map(quoteLiteral).join(', ')}])`,
      );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
