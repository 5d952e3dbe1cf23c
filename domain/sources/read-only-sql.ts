/** The agent's SQL tool: one read-only statement, in a read-only transaction, capped rows and time. */
import type { Connection, RowDataPacket } from 'mysql2/promise';

const READ_ONLY = /^\s*(select|show|describe|desc|explain|with)\b/i;

export class ReadOnlySqlError extends Error {}

export async function runReadOnlySql(
  db: Connection,
  sql: string,
  maxRows = 50,
): Promise<{ rows: Record<string, unknown>[]; truncated: boolean }> {
  const statement = sql.trim().replace(/;\s*$/, '');
  if (!READ_ONLY.test(statement))
    throw new ReadOnlySqlError('only SELECT, SHOW, DESCRIBE, EXPLAIN and WITH queries are allowed');
  if (statement.includes(';')) throw new ReadOnlySqlError('one statement at a time');
  await db.query('START TRANSACTION READ ONLY');
  try {
    const [rows] = await db.query<RowDataPacket[]>({ sql: statement, timeout: 10_000 });
    const list = Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    return { rows: list.slice(0, maxRows), truncated: list.length > maxRows };
  } finally {
    await db.query('ROLLBACK');
  }
}
