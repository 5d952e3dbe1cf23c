/** Exact row count of a table through Athena (Glue keeps none). */
import { AthenaQueryError, type AthenaQueryRunner } from './athena-query-runner';
import { countStatement } from './ctas-statement';

export async function countRows(runner: AthenaQueryRunner, database: string, table: string): Promise<number> {
  const statement = countStatement(database, table);
  const id = await runner.run(statement);
  const text = (await runner.results(id, 1)).rows[0]?.Data?.[0]?.VarCharValue;
  const n = Number(text);
  if (text === undefined || !Number.isSafeInteger(n))
    throw new AthenaQueryError(
      statement,
      'FAILED',
      `COUNT(*) answered ${JSON.stringify(text ?? null)}, not a count`,
      id,
    );
  return n;
}
