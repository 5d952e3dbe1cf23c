/** How the AWS warehouse (Glue catalog + Athena + S3) is reached, and the SDK clients built from it. */
import type { AthenaClient } from '@aws-sdk/client-athena';
import type { GlueClient } from '@aws-sdk/client-glue';
import type { S3Client } from '@aws-sdk/client-s3';

/** Settings of the AWS warehouse. Credentials come from the SDK's default chain unless given. */
export interface AthenaWarehouseConfig {
  region: string;
  /** The bucket holding every project's table data. */
  bucket: string;
  /** Key prefix of the warehouse inside the bucket (default `warehouse`). */
  prefix?: string;
  /** Endpoint override for every client (a local AWS such as moto); S3 then uses path-style URLs. */
  endpoint?: string;
  /** Athena workgroup (default `primary`). */
  workgroup?: string;
  /** Where Athena writes query results (default `s3://<bucket>/<prefix>/_athena-results/`). */
  outputLocation?: string;
  /** Explicit credentials; omit to use the SDK's default provider chain. Never logged. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Where data integration writes the ODS locally (Parquet + DuckDB catalog) before it is published. */
  localWarehouseRoot?: string;
  /** Query polling: first wait, longest wait, and the limit after which a query is stopped. */
  polling?: Partial<PollingConfig>;
}

/** Where Athena writes results unless told otherwise. */
export function defaultOutputLocation(bucket: string, prefix: string): string {
  return `s3://${bucket}/${prefix}/_athena-results/`;
}

export interface PollingConfig {
  initialMs: number;
  maxMs: number;
  timeoutMs: number;
}

export const defaultPolling: PollingConfig = { initialMs: 250, maxMs: 5_000, timeoutMs: 30 * 60_000 };

/** The three SDK clients the adapter uses. */
export interface AwsWarehouseClients {
  glue: GlueClient;
  athena: AthenaClient;
  s3: S3Client;
}

/** Builds the clients from the config (the same region, endpoint and credentials for all three). */
export function createAwsWarehouseClients(config: AthenaWarehouseConfig): AwsWarehouseClients {
  // The SDK loads with the first warehouse built on it, not with this module (0.25 s of CPU).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { GlueClient } = require('@aws-sdk/client-glue') as typeof import('@aws-sdk/client-glue');
  const { AthenaClient } = require('@aws-sdk/client-athena') as typeof import('@aws-sdk/client-athena');
  const { S3Client } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const common = {
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  };
  return {
    glue: new GlueClient(common),
    athena: new AthenaClient(common),
    // A local endpoint cannot serve virtual-hosted bucket names (bucket.host), so use path style.
    s3: new S3Client({ ...common, forcePathStyle: Boolean(config.endpoint) }),
  };
}
