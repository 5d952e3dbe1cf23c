/**
 * A Glue table's S3 data, deleted only when the warehouse owns it: in our bucket and under the
 * prefix given (a layer's or a table's), never a location someone registered by hand elsewhere.
 */
import type { Table } from '@aws-sdk/client-glue';
import type { AwsWarehouseContext } from './aws-warehouse-context';
import { deleteTableIfExists } from './glue-catalog';
import { deletePrefix } from './s3-objects';
import { parseS3Uri } from './warehouse-s3-layout';

/** Deletes the data under `location` if it lies below `ownedKeyPrefix` in the warehouse bucket. */
export async function deleteOwnedData(
  ctx: AwsWarehouseContext,
  location: string | undefined,
  ownedKeyPrefix: string,
): Promise<void> {
  const at = location ? parseS3Uri(location) : undefined;
  if (
    !at ||
    at.bucket !== ctx.bucket ||
    !at.key.startsWith(ownedKeyPrefix) ||
    at.key.length <= ownedKeyPrefix.length
  )
    return;
  await deletePrefix(ctx.clients.s3, ctx.bucket, at.key.endsWith('/') ? at.key : `${at.key}/`);
}

/** Drops a Glue table and the data it owns. */
export async function dropTableWithData(
  ctx: AwsWarehouseContext,
  database: string,
  table: Table,
  ownedKeyPrefix: string,
): Promise<void> {
  await deleteTableIfExists(ctx.clients.glue, database, table.Name!);
  await deleteOwnedData(ctx, table.StorageDescriptor?.Location, ownedKeyPrefix);
}
