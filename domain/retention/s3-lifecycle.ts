/**
 * Retention in S3 (docs/monitoring.md#retention), for the Athena warehouse: bucket lifecycle rules
 * that expire raw-data (ODS) objects after 90 days (they carry the tag `plat-retention=ods` from their
 * upload) and Athena's query results after 30. plat's rules are named `plat-...`; a bucket's other
 * rules are kept as they are.
 */
import type { LifecycleRule, S3Client } from '@aws-sdk/client-s3';
import { ODS_RETENTION_TAG } from '../warehouse/aws/layer-file-upload';
import { RETENTION_DAYS } from './retention-periods';

export interface WarehouseBuckets {
  /** The warehouse bucket and key prefix (no slashes at the ends). */
  bucket: string;
  prefix: string;
  /** Athena's results location, `s3://bucket/prefix/`. */
  outputLocation: string;
}

export interface BucketLifecycle {
  bucket: string;
  rules: { id: string; applies_to: string; expire_after_days: number }[];
  state: 'applied' | 'unchanged' | 'would apply';
}

/** plat's lifecycle rules, by bucket. */
export function platLifecycleRules(w: WarehouseBuckets): Map<string, LifecycleRule[]> {
  const [tagKey, tagValue] = Object.entries(ODS_RETENTION_TAG)[0];
  const byBucket = new Map<string, LifecycleRule[]>();
  const add = (bucket: string, rule: LifecycleRule) =>
    byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), rule]);
  add(w.bucket, {
    ID: 'plat-ods-objects',
    Status: 'Enabled',
    Filter: { And: { Prefix: `${w.prefix}/`, Tags: [{ Key: tagKey, Value: tagValue }] } },
    Expiration: { Days: RETENTION_DAYS.ods_objects },
  });
  const results = /^s3:\/\/([^/]+)\/?(.*)$/.exec(w.outputLocation);
  if (results) {
    add(results[1], {
      ID: 'plat-query-results',
      Status: 'Enabled',
      Filter: { Prefix: results[2] },
      Expiration: { Days: RETENTION_DAYS.query_results },
    });
  }
  return byBucket;
}

/** Makes each bucket's lifecycle carry plat's rules; with `dryRun`, only says what it would set. */
export async function applyLifecycleRules(
  s3: S3Client,
  w: WarehouseBuckets,
  dryRun: boolean,
): Promise<BucketLifecycle[]> {
  const { PutBucketLifecycleConfigurationCommand } = s3Commands();
  const reports: BucketLifecycle[] = [];
  for (const [bucket, ours] of platLifecycleRules(w)) {
    const current = await currentRules(s3, bucket);
    const kept = current.filter((r) => !r.ID?.startsWith('plat-'));
    const mine = current.filter((r) => r.ID?.startsWith('plat-'));
    const same =
      JSON.stringify(sortById(mine).map(comparable)) === JSON.stringify(sortById(ours).map(comparable));
    if (!same && !dryRun) {
      await s3.send(
        new PutBucketLifecycleConfigurationCommand({
          Bucket: bucket,
          LifecycleConfiguration: { Rules: [...kept, ...ours] },
        }),
      );
    }
    reports.push({
      bucket,
      rules: ours.map((r) => ({
        id: r.ID!,
        applies_to: r.Filter?.And
          ? `${r.Filter.And.Prefix}* tagged ${r.Filter.And.Tags?.map((t) => `${t.Key}=${t.Value}`).join(',')}`
          : `${r.Filter?.Prefix}*`,
        expire_after_days: r.Expiration!.Days!,
      })),
      state: same ? 'unchanged' : dryRun ? 'would apply' : 'applied',
    });
  }
  return reports;
}

async function currentRules(s3: S3Client, bucket: string): Promise<LifecycleRule[]> {
  const { GetBucketLifecycleConfigurationCommand } = s3Commands();
  try {
    return (await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }))).Rules ?? [];
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchLifecycleConfiguration') return [];
    throw err;
  }
}

const sortById = (rules: LifecycleRule[]) =>
  [...rules].sort((a, b) => (a.ID ?? '').localeCompare(b.ID ?? ''));

/** What decides a rule's effect, in a form two readings of it compare equal in. */
function comparable(r: LifecycleRule) {
  return {
    id: r.ID,
    status: r.Status,
    prefix: r.Filter?.Prefix ?? r.Filter?.And?.Prefix ?? '',
    tags: (r.Filter?.And?.Tags ?? []).map((t) => `${t.Key}=${t.Value}`).sort(),
    days: r.Expiration?.Days,
  };
}

/** The S3 commands, loaded with the SDK's client by the caller that has one (an Athena warehouse). */
function s3Commands(): typeof import('@aws-sdk/client-s3') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@aws-sdk/client-s3');
}
