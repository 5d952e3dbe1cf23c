/**
 * The Glue calls the adapter needs, with "not there" and "already there" turned into values:
 * Glue answers both as exceptions (EntityNotFoundException, AlreadyExistsException).
 */
import {
  BatchCreatePartitionCommand,
  CreateDatabaseCommand,
  CreateTableCommand,
  DeleteTableCommand,
  GetPartitionsCommand,
  GetTableCommand,
  GetTablesCommand,
  UpdateTableCommand,
  type GlueClient,
  type Partition,
  type Table,
  type TableInput,
} from '@aws-sdk/client-glue';

/** True when `err` is the AWS service exception called `name`. */
export function isAwsError(err: unknown, name: string): boolean {
  return err instanceof Error && err.name === name;
}

/** Creates the database unless it exists. */
export async function ensureDatabase(glue: GlueClient, name: string, description: string): Promise<void> {
  try {
    await glue.send(new CreateDatabaseCommand({ DatabaseInput: { Name: name, Description: description } }));
  } catch (err) {
    if (!isAwsError(err, 'AlreadyExistsException')) throw err;
  }
}

export async function getTable(glue: GlueClient, database: string, name: string): Promise<Table | undefined> {
  try {
    return (await glue.send(new GetTableCommand({ DatabaseName: database, Name: name }))).Table;
  } catch (err) {
    if (isAwsError(err, 'EntityNotFoundException')) return undefined;
    throw err;
  }
}

/** Every table of the database; undefined when the database does not exist. */
export async function listTables(glue: GlueClient, database: string): Promise<Table[] | undefined> {
  const tables: Table[] = [];
  let NextToken: string | undefined;
  try {
    do {
      const page = await glue.send(new GetTablesCommand({ DatabaseName: database, NextToken }));
      tables.push(...(page.TableList ?? []));
      NextToken = page.NextToken;
    } while (NextToken);
  } catch (err) {
    if (isAwsError(err, 'EntityNotFoundException')) return undefined;
    throw err;
  }
  return tables;
}

export async function listPartitions(
  glue: GlueClient,
  database: string,
  table: string,
): Promise<Partition[]> {
  const partitions: Partition[] = [];
  let NextToken: string | undefined;
  do {
    const page = await glue.send(
      new GetPartitionsCommand({ DatabaseName: database, TableName: table, NextToken }),
    );
    partitions.push(...(page.Partitions ?? []));
    NextToken = page.NextToken;
  } while (NextToken);
  return partitions;
}

/** Deletes the table (its partitions go with it; its data in S3 stays); false when it was not there. */
export async function deleteTableIfExists(
  glue: GlueClient,
  database: string,
  name: string,
): Promise<boolean> {
  try {
    await glue.send(new DeleteTableCommand({ DatabaseName: database, Name: name }));
    return true;
  } catch (err) {
    if (isAwsError(err, 'EntityNotFoundException')) return false;
    throw err;
  }
}

/** Creates the table, or replaces its definition when it exists. */
export async function putTable(glue: GlueClient, database: string, input: TableInput): Promise<void> {
  try {
    await glue.send(new CreateTableCommand({ DatabaseName: database, TableInput: input }));
  } catch (err) {
    if (!isAwsError(err, 'AlreadyExistsException')) throw err;
    await glue.send(new UpdateTableCommand({ DatabaseName: database, TableInput: input }));
  }
}

/** Registers partitions (100 per call, Glue's limit); throws naming the first one Glue refused. */
export async function createPartitions(
  glue: GlueClient,
  database: string,
  table: string,
  partitions: Partition[],
): Promise<void> {
  for (let i = 0; i < partitions.length; i += 100) {
    const res = await glue.send(
      new BatchCreatePartitionCommand({
        DatabaseName: database,
        TableName: table,
        PartitionInputList: partitions.slice(i, i + 100).map((p) => ({
          Values: p.Values,
          StorageDescriptor: p.StorageDescriptor,
          Parameters: p.Parameters,
        })),
      }),
    );
    const [first] = res.Errors ?? [];
    if (first) {
      throw new Error(
        `Glue refused partition ${JSON.stringify(first.PartitionValues)} of ${database}.${table}: ${first.ErrorDetail?.ErrorMessage ?? first.ErrorDetail?.ErrorCode}`,
      );
    }
  }
}

/** The definition of `table` under another name, with extra parameters (Glue has no rename). */
export function renamedTableInput(
  table: Table,
  name: string,
  parameters: Record<string, string>,
): TableInput {
  return {
    Name: name,
    Description: table.Description,
    TableType: table.TableType ?? 'EXTERNAL_TABLE',
    StorageDescriptor: table.StorageDescriptor,
    PartitionKeys: table.PartitionKeys ?? [],
    Parameters: { ...table.Parameters, ...parameters },
  };
}
