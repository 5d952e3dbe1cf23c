/**
 * With PLAT_WAREHOUSE_ENGINE=athena, data integration publishes ODS to AWS: Sakila's Parquet files
 * land in S3 and every ODS table is registered in Glue with Hive types and its row count. Real AWS
 * SDK clients against moto's server.
 */
import { GetTablesCommand, GlueClient } from '@aws-sdk/client-glue';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AthenaWarehouse } from '../../../domain/warehouse/aws/athena-warehouse';
import { hiveType, publishOds } from '../../../domain/warehouse/aws/ods-publish';
import { warehouseEngine, type WarehouseSettings } from '../../../domain/warehouse/engine-factory';
import { layerDatabaseName, layerDir } from '../../../domain/warehouse/warehouse-layout';
import type { Prd } from '../../../shared/prd-schema';
import { startTestMoto, type TestMoto } from '../../harness/moto';
import { newTestDataDir } from '../../harness/platform-gateway';
import { ingestSakilaOds } from '../../harness/sakila';
import { buildDataProfile } from '../../../domain/advisor/data-profile';
import { readSourceSchema } from '../../../domain/warehouse/ods-ingestion';

const projectId = 'proj-20261122-awsods01';
const bucket = 'plat-ods-test';

describe('ODS published to S3 and Glue', () => {
  let moto: TestMoto;
  let root: string;
  let prd: Prd;
  let settings: WarehouseSettings;

  beforeAll(async () => {
    moto = await startTestMoto();
    // The default credential chain, as in production (never explicit in code).
    process.env.AWS_ACCESS_KEY_ID = moto.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = moto.credentials.secretAccessKey;
    settings = {
      PLAT_WAREHOUSE_ENGINE: 'athena',
      AWS_REGION: moto.region,
      PLAT_WAREHOUSE_BUCKET: bucket,
      PLAT_WAREHOUSE_PREFIX: 'warehouse',
      PLAT_ATHENA_WORKGROUP: 'primary',
      PLAT_ATHENA_OUTPUT_LOCATION: undefined,
      AWS_ENDPOINT_URL: moto.url,
    };
    const s3 = new S3Client({ region: moto.region, endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    root = newTestDataDir();
    prd = await ingestSakilaOds(root, projectId);
  });
  afterAll(async () => {
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    await moto?.stop();
  });

  it('chooses the engine from the settings and says what is missing', () => {
    expect(warehouseEngine(undefined, root).kind).toBe('duckdb');
    expect(warehouseEngine(settings, root).kind).toBe('athena');
    expect(() => warehouseEngine({ ...settings, PLAT_WAREHOUSE_BUCKET: undefined }, root)).toThrow(
      /needs AWS_REGION and PLAT_WAREHOUSE_BUCKET/,
    );
  });

  it('uploads every ODS file and registers every ODS table in Glue', async () => {
    const engine = warehouseEngine(settings, root) as AthenaWarehouse;
    const published = await publishOds(engine, root, projectId, prd);
    expect(published).toHaveLength(16);

    const glue = new GlueClient({ region: moto.region, endpoint: moto.url });
    const { TableList } = await glue.send(
      new GetTablesCommand({ DatabaseName: layerDatabaseName(projectId, 'ods') }),
    );
    const payment = TableList!.find((t) => t.Name === 'ods_payment')!;
    expect(payment.StorageDescriptor!.Location).toBe(`s3://${bucket}/warehouse/${projectId}/ods/payment/`);
    expect(payment.StorageDescriptor!.Columns).toEqual(
      expect.arrayContaining([
        { Name: 'amount', Type: 'decimal(5,2)' },
        { Name: 'payment_date', Type: 'timestamp' },
      ]),
    );
    expect(payment.Parameters!.plat_row_count).toBe('16044');
    expect(TableList!.map((t) => t.Name).sort()).toEqual(prd.layers.ods.map((t) => t.name).sort());

    const s3 = new S3Client({ region: moto.region, endpoint: moto.url, forcePathStyle: true });
    const head = await s3.send(
      new HeadObjectCommand({ Bucket: bucket, Key: `warehouse/${projectId}/ods/payment/payment.parquet` }),
    );
    expect(head.ContentLength).toBe(
      fs.statSync(path.join(layerDir(root, projectId, 'ods'), 'payment.parquet')).size,
    );
  });

  it('lets a worker on another host profile the published ODS: the same report as on the copying host', async () => {
    // Another host: its own empty warehouse root; what it reads comes from S3 and Glue.
    const elsewhere = warehouseEngine(settings, newTestDataDir()) as AthenaWarehouse;
    const schema = readSourceSchema(root, projectId);
    const ods = await elsewhere.localOds(projectId);
    let remote;
    try {
      expect(ods.warehouseRoot).not.toBe(root);
      remote = await buildDataProfile({ warehouseRoot: ods.warehouseRoot, projectId, prd, schema });
    } finally {
      ods.release();
    }
    expect(fs.existsSync(ods.warehouseRoot)).toBe(false);
    const local = await buildDataProfile({ warehouseRoot: root, projectId, prd, schema });
    expect(remote.tables.length).toBe(16);
    // The same report but for when it was made.
    expect({ ...remote, generated_at: local.generated_at }).toEqual(local);
  });

  it('says so when the ODS was never published', async () => {
    const engine = warehouseEngine(settings, newTestDataDir()) as AthenaWarehouse;
    await expect(engine.localOds('proj-20261125-nothing1')).rejects.toThrow(
      /plat_proj_20261125_nothing1_ods has no tables in Glue: the ODS was not published/,
    );
  });

  it('maps DuckDB types to Hive types without losing range', () => {
    expect(hiveType('DECIMAL(18,2)')).toBe('decimal(18,2)');
    expect(hiveType('UBIGINT')).toBe('decimal(20,0)');
    expect(hiveType('INTEGER')).toBe('int');
    expect(hiveType('VARCHAR')).toBe('string');
    expect(hiveType('BLOB')).toBe('binary');
  });
});
