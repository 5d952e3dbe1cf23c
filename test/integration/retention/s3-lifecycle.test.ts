/**
 * Retention's lifecycle rules on S3 (moto's server mode): the warehouse bucket gets plat's two rules
 * beside the rules it already had, a second pass changes nothing, and a dry run writes nothing.
 */
import {
  CreateBucketCommand,
  GetBucketLifecycleConfigurationCommand,
  PutBucketLifecycleConfigurationCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { applyLifecycleRules, type WarehouseBuckets } from '../../../domain/retention/s3-lifecycle';
import { startTestMoto, type TestMoto } from '../../harness/moto';

describe('S3 lifecycle rules of the retention pass (moto)', () => {
  let moto: TestMoto;
  let s3: S3Client;
  const w: WarehouseBuckets = {
    bucket: 'plat-retention-test',
    prefix: 'warehouse',
    outputLocation: 's3://plat-retention-test/warehouse/_athena-results/',
  };
  const rules = async () =>
    (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: w.bucket }))).Rules ?? [];

  beforeAll(async () => {
    moto = await startTestMoto();
    s3 = new S3Client({
      region: moto.region,
      endpoint: moto.url,
      forcePathStyle: true,
      credentials: moto.credentials,
    });
    await s3.send(new CreateBucketCommand({ Bucket: w.bucket }));
    // A rule of the bucket's owner, which plat must keep.
    await s3.send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: w.bucket,
        LifecycleConfiguration: {
          Rules: [
            { ID: 'owner-tmp', Status: 'Enabled', Filter: { Prefix: 'tmp/' }, Expiration: { Days: 1 } },
          ],
        },
      }),
    );
  });
  afterAll(async () => {
    s3?.destroy();
    await moto?.stop();
  });

  it('lists the rules in a dry run and writes nothing', async () => {
    const [report] = await applyLifecycleRules(s3, w, true);
    expect(report).toEqual({
      bucket: w.bucket,
      state: 'would apply',
      rules: [
        {
          id: 'plat-ods-objects',
          applies_to: 'warehouse/* tagged plat-retention=ods',
          expire_after_days: 90,
        },
        { id: 'plat-query-results', applies_to: 'warehouse/_athena-results/*', expire_after_days: 30 },
      ],
    });
    expect((await rules()).map((r) => r.ID)).toEqual(['owner-tmp']);
  });

  it("adds plat's rules beside the owner's, then leaves them alone", async () => {
    expect((await applyLifecycleRules(s3, w, false))[0].state).toBe('applied');
    const applied = await rules();
    expect(applied.map((r) => [r.ID, r.Expiration?.Days]).sort()).toEqual([
      ['owner-tmp', 1],
      ['plat-ods-objects', 90],
      ['plat-query-results', 30],
    ]);
    const ods = applied.find((r) => r.ID === 'plat-ods-objects')!;
    expect(ods.Filter?.And).toEqual({
      Prefix: 'warehouse/',
      Tags: [{ Key: 'plat-retention', Value: 'ods' }],
    });
    expect((await applyLifecycleRules(s3, w, false))[0].state).toBe('unchanged');
  });

  it('puts the results rule in the results bucket when Athena writes elsewhere', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'plat-athena-results' }));
    const reports = await applyLifecycleRules(
      s3,
      { ...w, outputLocation: 's3://plat-athena-results/q/' },
      false,
    );
    expect(reports.map((r) => [r.bucket, r.rules.map((x) => x.id)])).toEqual([
      [w.bucket, ['plat-ods-objects']],
      ['plat-athena-results', ['plat-query-results']],
    ]);
    const other = await s3.send(
      new GetBucketLifecycleConfigurationCommand({ Bucket: 'plat-athena-results' }),
    );
    expect(other.Rules?.map((r) => [r.ID, r.Filter?.Prefix, r.Expiration?.Days])).toEqual([
      ['plat-query-results', 'q/', 30],
    ]);
  });
});
