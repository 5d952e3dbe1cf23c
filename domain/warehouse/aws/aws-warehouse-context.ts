/** What every part of the AWS warehouse works with: the clients, the query runner and the data location. */
import type { AthenaQueryRunner } from './athena-query-runner';
import type { AwsWarehouseClients } from './athena-warehouse-config';

export interface AwsWarehouseContext {
  clients: AwsWarehouseClients;
  runner: AthenaQueryRunner;
  bucket: string;
  /** Key prefix of the warehouse inside the bucket, without slashes at either end. */
  prefix: string;
}
