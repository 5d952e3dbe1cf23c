/**
 * The AWS warehouse adapter (Glue + Athena + S3) through the real AWS SDK against moto's server.
 * moto's Glue and S3 behave like AWS; its Athena runs no SQL (every query SUCCEEDED, results from a
 * seeded queue) and never reports FAILED. So this test plays the part of Athena's engine where
 * moto cannot: after a CTAS starts it registers the table in Glue and writes a file, as Athena
 * would; a query to fail is cancelled through moto's StopQueryExecution (a real CANCELLED state)
 * or has its GetQueryExecution answer rewritten to FAILED on the client.
 */
import {
  AthenaClient,
  GetQueryExecutionCommand,
  ListQueryExecutionsCommand,
  StopQueryExecutionCommand,
  type GetQueryExecutionCommandOutput,
  type StartQueryExecutionCommandInput,
  type StartQueryExecutionCommandOutput,
} from '@aws-sdk/client-athena';
import {
  CreatePartitionCommand,
  CreateTableCommand,
  GetDatabaseCommand,
  GetPartitionsCommand,
  GetTableCommand,
  GetTablesCommand,
  GlueClient,
} from '@aws-sdk/client-glue';
import {
  CreateBucketCommand,
  GetObjectTaggingCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DuckDBInstance } from '@duckdb/node-api';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReadOnlyQueryError } from '../../../domain/warehouse/aws/athena-read-only-sql';
import { AthenaWarehouse } from '../../../domain/warehouse/aws/athena-warehouse';
import type {
  AthenaWarehouseConfig,
  AwsWarehouseClients,
} from '../../../domain/warehouse/aws/athena-warehouse-config';
import { LayerBuildError, type LayerTableSpec } from '../../../domain/warehouse/warehouse-engine';
import { layerDatabaseName } from '../../../domain/warehouse/warehouse-layout';
import { fileNameFor } from '../../../shared/safe-file-name';
import {
  athenaResult,
  emptyAthenaResult,
  seedAthenaResults,
  startTestMoto,
  type SeededAthenaResult,
  type TestMoto,
} from '../../harness/moto';

const projectId = 'proj-20261122-awstest1';
const bucket = 'plat-test-warehouse';
const adsDb = layerDatabaseName(projectId, 'ads');
const dwdPayment = `${layerDatabaseName(projectId, 'dwd')}.dwd_payment`;
const failedReason = "SYNTAX_ERROR: line 1:8: Column 'nope' cannot be resolved";

/** The Glue columns Athena would derive for each table's SELECT (partition columns last). */
const glueColumns: Record<string, { name: string; type: string }[]> = {
  ads_daily_revenue: [
    { name: 'staff_id', type: 'int' },
    { name: 'revenue', type: 'decimal(10,2)' },
    { name: 'stat_date', type: 'date' },
  ],
  ads_store_summary: [
    { name: 'store_id', type: 'int' },
    { name: 'rentals', type: 'bigint' },
  ],
  ads_bad: [{ name: 'x', type: 'int' }],
};

const dailyRevenue: LayerTableSpec = {
  name: 'ads_daily_revenue',
  // stat_date first: the adapter must move it last for Athena's CTAS.
  select: `SELECT CAST(payment_date AS date) AS stat_date, staff_id, SUM(amount) AS revenue FROM ${dwdPayment} GROUP BY 1, 2;`,
  partition_by: ['stat_date'],
};
const storeSummary: LayerTableSpec = {
  name: 'ads_store_summary',
  select: `SELECT store_id, COUNT(*) AS rentals FROM ${dwdPayment} GROUP BY 1`,
  partition_by: [],
};
const badTable: LayerTableSpec = { name: 'ads_bad', select: 'SELECT nope AS x', partition_by: [] };

/** The results Athena answers for one table's statements: column probe (partitioned only), CTAS, COUNT(*). */
function tableResults(spec: LayerTableSpec, rowCount?: number): SeededAthenaResult[] {
  const seeded: SeededAthenaResult[] = [];
  if (spec.partition_by.length) {
    seeded.push(
      athenaResult(
        [
          { name: 'stat_date', type: 'date' },
          { name: 'staff_id', type: 'integer' },
          { name: 'revenue', type: 'decimal' },
        ],
        [],
      ),
    );
  }
  seeded.push(emptyAthenaResult);
  if (rowCount !== undefined)
    seeded.push(athenaResult([{ name: 'row_count', type: 'bigint' }], [[String(rowCount)]]));
  return seeded;
}

describe('AthenaWarehouse against moto (Glue, Athena, S3)', () => {
  let moto: TestMoto;
  let clients: AwsWarehouseClients;
  let config: AthenaWarehouseConfig;
  let engine: AthenaWarehouse;
  /** Tables whose CTAS this test makes fail, and how. */
  const failCtas = new Map<string, 'cancel' | 'fail'>();
  const failedExecutions = new Set<string>();

  beforeAll(async () => {
    moto = await startTestMoto();
    config = {
      region: moto.region,
      bucket,
      endpoint: moto.url,
      credentials: moto.credentials,
      polling: { initialMs: 10, maxMs: 50, timeoutMs: 10_000 },
    };
    clients = {
      glue: new GlueClient({ region: moto.region, endpoint: moto.url, credentials: moto.credentials }),
      athena: new AthenaClient({ region: moto.region, endpoint: moto.url, credentials: moto.credentials }),
      s3: new S3Client({
        region: moto.region,
        endpoint: moto.url,
        credentials: moto.credentials,
        forcePathStyle: true,
      }),
    };
    await clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
    clients.athena.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (context.commandName === 'StartQueryExecutionCommand') {
          const input = args.input as StartQueryExecutionCommandInput;
          const output = result.output as StartQueryExecutionCommandOutput;
          await actAsAthenaEngine(input.QueryString!, output.QueryExecutionId!);
        }
        if (context.commandName === 'GetQueryExecutionCommand') {
          const execution = (result.output as GetQueryExecutionCommandOutput).QueryExecution;
          if (execution && failedExecutions.has(execution.QueryExecutionId!))
            execution.Status = { State: 'FAILED', StateChangeReason: failedReason };
        }
        return result;
      },
      { step: 'initialize', name: 'platTestAthenaEngine' },
    );
    engine = new AthenaWarehouse(config, clients);
  });
  afterAll(async () => {
    await moto?.stop();
  });

  /** What Athena's engine does around a CTAS that moto cannot: the catalog entry and the files. */
  async function actAsAthenaEngine(sql: string, executionId: string): Promise<void> {
    const ctas = /^CREATE TABLE (\w+)\.(\w+)__building\nWITH \((.*)\)\nAS /s.exec(sql);
    if (!ctas) return;
    const [, database, table, props] = ctas;
    const location = /external_location = '([^']+)'/.exec(props)![1];
    const partitionBy = [
      ...(/partitioned_by = ARRAY\[([^\]]*)\]/.exec(props)?.[1] ?? '').matchAll(/'(\w+)'/g),
    ].map((m) => m[1]);
    const { bucket: b, key } = {
      bucket: location.split('/')[2],
      key: location.split('/').slice(3).join('/'),
    };
    const writeFile = (folder: string) =>
      clients.s3.send(
        new PutObjectCommand({
          Bucket: b,
          Key: `${key}${folder}part-00000.parquet`,
          Body: 'written by CTAS',
        }),
      );
    const failure = failCtas.get(table);
    if (failure) {
      await writeFile(''); // a failing CTAS can leave files behind
      if (failure === 'cancel')
        await clients.athena.send(new StopQueryExecutionCommand({ QueryExecutionId: executionId }));
      else failedExecutions.add(executionId);
      return;
    }
    const columns = glueColumns[table].map((c) => ({ Name: c.name, Type: c.type }));
    const storage = {
      Columns: columns.filter((c) => !partitionBy.includes(c.Name)),
      Location: location,
      InputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
      OutputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
      SerdeInfo: { SerializationLibrary: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe' },
    };
    await clients.glue.send(
      new CreateTableCommand({
        DatabaseName: database,
        TableInput: {
          Name: `${table}__building`,
          TableType: 'EXTERNAL_TABLE',
          Parameters: { classification: 'parquet' },
          StorageDescriptor: storage,
          PartitionKeys: columns.filter((c) => partitionBy.includes(c.Name)),
        },
      }),
    );
    if (!partitionBy.length) return void (await writeFile(''));
    for (const day of ['2005-05-24', '2005-05-25']) {
      await writeFile(`stat_date=${day}/`);
      await clients.glue.send(
        new CreatePartitionCommand({
          DatabaseName: database,
          TableName: `${table}__building`,
          PartitionInput: {
            Values: [day],
            StorageDescriptor: { ...storage, Location: `${location}stat_date=${day}/` },
          },
        }),
      );
    }
  }

  async function glueTableNames(database: string): Promise<string[]> {
    const res = await clients.glue.send(new GetTablesCommand({ DatabaseName: database }));
    return (res.TableList ?? []).map((t) => t.Name!).sort();
  }

  async function s3Keys(prefix: string): Promise<string[]> {
    const res = await clients.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (res.Contents ?? []).map((o) => o.Key!).sort();
  }

  /** Every statement moto recorded, with the database it ran in. */
  async function recordedQueries(): Promise<{ id: string; query: string; database?: string }[]> {
    const ids = (await clients.athena.send(new ListQueryExecutionsCommand({}))).QueryExecutionIds ?? [];
    const out = [];
    for (const id of ids) {
      const e = (await clients.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: id })))
        .QueryExecution!;
      out.push({ id, query: e.Query!, database: e.QueryExecutionContext?.Database });
    }
    return out;
  }

  const runFolder = (table: string) =>
    new RegExp(`^s3://${bucket}/warehouse/${projectId}/ads/${table}/run-[a-z0-9-]+/$`);
  let firstRevenueLocation = '';

  it('builds a layer: Glue database, CTAS per table into staging, swapped in under the final names', async () => {
    await seedAthenaResults(moto, [...tableResults(dailyRevenue, 3), ...tableResults(storeSummary, 2)]);
    const built = await engine.buildLayer(projectId, 'ads', [dailyRevenue, storeSummary]);

    expect(built.map((t) => [t.name, t.row_count, t.partition_by])).toEqual([
      ['ads_daily_revenue', 3, ['stat_date']],
      ['ads_store_summary', 2, []],
    ]);
    expect(built[0].location).toMatch(runFolder('ads_daily_revenue'));
    expect(built[0].columns).toEqual(glueColumns.ads_daily_revenue);
    firstRevenueLocation = built[0].location;

    const db = await clients.glue.send(new GetDatabaseCommand({ Name: adsDb }));
    expect(db.Database?.Name).toBe('plat_proj_20261122_awstest1_ads');
    expect(await glueTableNames(adsDb)).toEqual(['ads_daily_revenue', 'ads_store_summary']);
    const revenue = (
      await clients.glue.send(new GetTableCommand({ DatabaseName: adsDb, Name: 'ads_daily_revenue' }))
    ).Table!;
    expect(revenue.StorageDescriptor?.Location).toBe(built[0].location);
    expect(revenue.PartitionKeys?.map((k) => k.Name)).toEqual(['stat_date']);
    expect(revenue.Parameters).toMatchObject({ plat_row_count: '3', classification: 'parquet' });
    const partitions = await clients.glue.send(
      new GetPartitionsCommand({ DatabaseName: adsDb, TableName: 'ads_daily_revenue' }),
    );
    expect(partitions.Partitions?.map((p) => [p.Values, p.StorageDescriptor?.Location]).sort()).toEqual([
      [['2005-05-24'], `${built[0].location}stat_date=2005-05-24/`],
      [['2005-05-25'], `${built[0].location}stat_date=2005-05-25/`],
    ]);

    const queries = (await recordedQueries()).map((q) => q.query);
    const ctas = queries.find((q) => q.startsWith(`CREATE TABLE ${adsDb}.ads_daily_revenue__building`))!;
    expect(ctas).toContain(`format = 'PARQUET'`);
    expect(ctas).toContain(`external_location = '${built[0].location}'`);
    expect(ctas).toContain(`partitioned_by = ARRAY['stat_date']`);
    expect(ctas).toContain(
      `AS SELECT "staff_id", "revenue", "stat_date" FROM (${dailyRevenue.select.slice(0, -1)}) AS src`,
    );
    expect(queries).toContain(`SELECT * FROM (${dailyRevenue.select.slice(0, -1)}) LIMIT 0`);
    expect(queries).toContain(`SELECT COUNT(*) AS row_count FROM ${adsDb}.ads_store_summary__building`);
    const plain = queries.find((q) => q.startsWith(`CREATE TABLE ${adsDb}.ads_store_summary__building`))!;
    expect(plain).not.toContain('partitioned_by');
    expect(plain).toContain(`AS ${storeSummary.select}`);

    expect(await engine.describeLayer(projectId, 'ads')).toEqual(built);
  });

  it('rebuilds: new data folder, the replaced data and tables no longer defined are gone', async () => {
    await seedAthenaResults(moto, tableResults(dailyRevenue, 5));
    const [rebuilt] = await engine.buildLayer(projectId, 'ads', [dailyRevenue]);

    expect(rebuilt.location).toMatch(runFolder('ads_daily_revenue'));
    expect(rebuilt.location).not.toBe(firstRevenueLocation);
    expect(rebuilt.row_count).toBe(5);
    expect(await glueTableNames(adsDb)).toEqual(['ads_daily_revenue']);
    const prefix = `warehouse/${projectId}/ads/`;
    const runPath = rebuilt.location.replace(`s3://${bucket}/`, '');
    expect(await s3Keys(prefix)).toEqual([
      `${runPath}stat_date=2005-05-24/part-00000.parquet`,
      `${runPath}stat_date=2005-05-25/part-00000.parquet`,
    ]);
  });

  describe('a statement that does not succeed leaves the layer as it was', () => {
    let before: Awaited<ReturnType<AthenaWarehouse['describeLayer']>>;
    let keysBefore: string[];
    beforeEach(async () => {
      before = await engine.describeLayer(projectId, 'ads');
      keysBefore = await s3Keys(`warehouse/${projectId}/ads/`);
      failCtas.clear();
    });
    afterEach(async () => {
      expect(await glueTableNames(adsDb)).toEqual(['ads_daily_revenue']);
      expect(await engine.describeLayer(projectId, 'ads')).toEqual(before);
      // The staged table that succeeded and the failed one's leftovers are deleted too.
      expect(await s3Keys(`warehouse/${projectId}/ads/`)).toEqual(keysBefore);
    });

    async function buildError(tables: LayerTableSpec[], eng = engine): Promise<LayerBuildError> {
      const err = await eng.buildLayer(projectId, 'ads', tables).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LayerBuildError);
      return err as LayerBuildError;
    }

    it('CANCELLED in Athena (moto StopQueryExecution)', async () => {
      failCtas.set('ads_bad', 'cancel');
      await seedAthenaResults(moto, [...tableResults(storeSummary, 2), ...tableResults(badTable)]);
      const err = await buildError([storeSummary, badTable]);
      expect(err.table).toBe('ads_bad');
      expect(err.statement).toMatch(new RegExp(`^CREATE TABLE ${adsDb}\\.ads_bad__building\\nWITH \\(`));
      expect(err.reason).toBe('query cancelled without a reason');
    });

    it('FAILED with a reason (moto never fails a query: the SDK response is rewritten)', async () => {
      failCtas.set('ads_bad', 'fail');
      await seedAthenaResults(moto, [...tableResults(storeSummary, 2), ...tableResults(badTable)]);
      const err = await buildError([storeSummary, badTable]);
      expect(err.table).toBe('ads_bad');
      expect(err.statement).toContain('AS SELECT nope AS x');
      expect(err.reason).toBe(failedReason);
      expect(err.message).toBe(`ads.ads_bad failed: ${failedReason}`);
    });

    it('rejected at start by Athena (a workgroup that does not exist)', async () => {
      const elsewhere = new AthenaWarehouse({ ...config, workgroup: 'no-such-workgroup' }, clients);
      const err = await buildError([storeSummary], elsewhere);
      expect(err.table).toBe('ads_store_summary');
      expect(err.reason).toContain('WorkGroup does not exist');
    });

    it('a partition column the SELECT does not produce', async () => {
      await seedAthenaResults(moto, tableResults(dailyRevenue).slice(0, 1));
      const err = await buildError([{ ...dailyRevenue, partition_by: ['store_id'] }]);
      expect(err.reason).toBe("partition column(s) store_id not in the SELECT's columns");
    });
  });

  it('queries: result rows typed from Athena metadata, capped at maxRows, run in the default layer', async () => {
    const sql = 'SELECT * FROM ads_daily_revenue ORDER BY stat_date';
    await seedAthenaResults(moto, [
      athenaResult(
        [
          { name: 'staff_id', type: 'integer' },
          { name: 'revenue', type: 'decimal' },
          { name: 'visits', type: 'bigint' },
          { name: 'share', type: 'double' },
          { name: 'active', type: 'boolean' },
          { name: 'stat_date', type: 'date' },
          { name: 'note', type: 'varchar' },
        ],
        [
          ['1', '12345.67', '9007199254740993', '0.25', 'true', '2005-05-24', null],
          ['2', '0.99', '1', 'NaN', 'false', '2005-05-25', 'x'],
          ['3', '1.00', '2', '1', 'true', '2005-05-26', 'y'],
        ],
      ),
    ]);
    const result = await engine.query(projectId, sql, 2, 'ads');
    expect(result.columns).toEqual(['staff_id', 'revenue', 'visits', 'share', 'active', 'stat_date', 'note']);
    expect(result.rows).toEqual([
      {
        staff_id: 1,
        revenue: '12345.67',
        visits: '9007199254740993',
        share: 0.25,
        active: true,
        stat_date: '2005-05-24',
        note: null,
      },
      {
        staff_id: 2,
        revenue: '0.99',
        visits: '1',
        share: 'NaN',
        active: false,
        stat_date: '2005-05-25',
        note: 'x',
      },
    ]);
    const ran = (await recordedQueries()).find((q) => q.query === sql);
    expect(ran?.database).toBe(adsDb);
  });

  it('refuses anything but a SELECT, and other projects’ databases, before Athena sees it', async () => {
    const count = (await recordedQueries()).length;
    for (const sql of [
      `DROP TABLE ${adsDb}.ads_daily_revenue`,
      'SELECT * FROM plat_proj_20261122_other_ods.ods_film',
      // A comment marker inside a string hid the rest of the line from the old pattern guard.
      "SELECT '--', f.* FROM plat_proj_20261122_other_ods.ods_film f",
      'SELECT * FROM information_schema.tables',
      'SELECT * FROM other_catalog.plat_proj_20261122_other_ods.ods_film',
      `SELECT 1 FROM ${adsDb}.ads_daily_revenue; SELECT * FROM plat_proj_20261122_other_ods.ods_film`,
      "SELECT * FROM read_csv('s3://bucket/key')",
      // Athena does not nest comments; DuckDB's parser does: the tail would reach Athena unseen.
      `SELECT * /* /* */ FROM plat_proj_20261122_other_ods.ods_film -- */`,
      `SELECT 1 FROM ${adsDb}.ads_daily_revenue -- x`,
      'DESCRIBE plat_proj_20261122_other_ods.ods_film',
      'SHOW TABLES FROM plat_proj_20261122_other_ods',
      `DESCRIBE ${adsDb}.ads_daily_revenue`,
    ]) {
      await expect(engine.query(projectId, sql, 10)).rejects.toBeInstanceOf(ReadOnlyQueryError);
    }
    expect((await recordedQueries()).length).toBe(count);
  });

  it('describes a layer that was never built as empty', async () => {
    expect(await engine.describeLayer(projectId, 'dws')).toEqual([]);
  });

  it('uploads ODS Parquet files to one folder per table and registers them in Glue', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-aws-ods-'));
    const duck = await DuckDBInstance.create(':memory:');
    const conn = await duck.connect();
    await conn.run(
      `COPY (SELECT 1 AS actor_id, 'PENELOPE' AS first_name) TO '${dir}/ods_actor.parquet' (FORMAT parquet)`,
    );
    await conn.run(`COPY (SELECT * FROM range(2) r(film_id)) TO '${dir}/ods_film.parquet' (FORMAT parquet)`);
    conn.closeSync();
    duck.closeSync();
    fs.writeFileSync(path.join(dir, 'source-schema.json'), '{}');

    const uploaded = await engine.uploadLayerFiles(dir, projectId, 'ods');
    const odsPrefix = `warehouse/${projectId}/ods/`;
    expect(uploaded.map((u) => [u.table, u.key, u.location])).toEqual([
      ['ods_actor', `${odsPrefix}ods_actor/ods_actor.parquet`, `s3://${bucket}/${odsPrefix}ods_actor/`],
      ['ods_film', `${odsPrefix}ods_film/ods_film.parquet`, `s3://${bucket}/${odsPrefix}ods_film/`],
    ]);
    expect(await s3Keys(odsPrefix)).toEqual(uploaded.map((u) => u.key));
    const got = await clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: uploaded[0].key }));
    expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(
      fs.readFileSync(path.join(dir, 'ods_actor.parquet')),
    );
    // Raw data carries the tag the 90-day lifecycle rule expires.
    const tags = await clients.s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: uploaded[0].key }));
    expect(tags.TagSet).toEqual([{ Key: 'plat-retention', Value: 'ods' }]);

    const actor = await engine.registerParquetTable(projectId, 'ods', {
      name: 'ods_actor',
      location: uploaded[0].location,
      columns: [
        { name: 'actor_id', type: 'int' },
        { name: 'first_name', type: 'string' },
      ],
      rowCount: 1,
    });
    // No count given: the adapter asks Athena.
    await seedAthenaResults(moto, [athenaResult([{ name: 'row_count', type: 'bigint' }], [['2']])]);
    const film = await engine.registerParquetTable(projectId, 'ods', {
      name: 'ods_film',
      location: uploaded[1].location,
      columns: [{ name: 'film_id', type: 'bigint' }],
    });
    expect(film.row_count).toBe(2);

    const odsDb = layerDatabaseName(projectId, 'ods');
    const table = (await clients.glue.send(new GetTableCommand({ DatabaseName: odsDb, Name: 'ods_actor' })))
      .Table!;
    expect(table.StorageDescriptor?.SerdeInfo?.SerializationLibrary).toBe(
      'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
    );
    expect(table.Parameters).toMatchObject({ classification: 'parquet', plat_row_count: '1' });
    // Glue holds no count for ods_film, so describing counts it through Athena again.
    await seedAthenaResults(moto, [athenaResult([{ name: 'row_count', type: 'bigint' }], [['2']])]);
    const described = await engine.describeLayer(projectId, 'ods');
    expect(described).toEqual([actor, { ...film, row_count: 2 }]);
    expect(described[0]).toMatchObject({
      location: `s3://${bucket}/${odsPrefix}ods_actor/`,
      columns: [
        { name: 'actor_id', type: 'int' },
        { name: 'first_name', type: 'string' },
      ],
      partition_by: [],
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uploads a source table named like a path to a folder of its encoded name, and refuses a file plat did not name', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plat-aws-ods-names-'));
    const encoded = fileNameFor('../../x/y');
    fs.writeFileSync(path.join(dir, `${encoded}.parquet`), 'not read');
    const uploaded = await engine.uploadLayerFiles(dir, 'proj-20261201-s3names', 'ods');
    const prefix = 'warehouse/proj-20261201-s3names/ods/';
    expect(uploaded.map((u) => u.key)).toEqual([`${prefix}${encoded}/${encoded}.parquet`]);
    expect(encoded).toBe('%2E%2E%2F%2E%2E%2Fx%2Fy');
    expect(await s3Keys(prefix)).toEqual([`${prefix}${encoded}/${encoded}.parquet`]);

    fs.writeFileSync(path.join(dir, 'a%2Fb.parquet'), 'not read');
    fs.writeFileSync(path.join(dir, '...parquet'), 'not read');
    await expect(engine.uploadLayerFiles(dir, 'proj-20261201-s3names', 'ods')).rejects.toThrow(
      /not named as plat names a table's file/,
    );
    expect(await s3Keys(prefix)).toEqual([`${prefix}${encoded}/${encoded}.parquet`]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
