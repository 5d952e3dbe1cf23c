/**
 * The baseline: a plain mysql2 streamed read of the whole table that keeps nothing. `values` reads
 * rows as mysql2 users normally do (JavaScript values, as plat's source connections are set up);
 * `text` asks for every value as a string, which skips mysql2's date and number conversions.
 */
import mysql, { type Connection as CallbackConnection } from 'mysql2';
import type { ConnectionOptions } from 'mysql2/promise';

export type RawMode = 'values' | 'text';

/** Streams `SELECT * FROM table` and counts the rows; resolves with the row count. */
export async function rawStreamRead(
  options: ConnectionOptions,
  table: string,
  mode: RawMode,
): Promise<number> {
  const conn: CallbackConnection = mysql.createConnection({
    ...options,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  try {
    const stream = conn
      .query({
        sql: `SELECT * FROM \`${table}\``,
        rowsAsArray: true,
        ...(mode === 'text' ? { typeCast: (field: { string(): string | null }) => field.string() } : {}),
      })
      .stream({ highWaterMark: 1000 });
    let rows = 0;
    for await (const row of stream as AsyncIterable<unknown[]>) if (row) rows++;
    return rows;
  } finally {
    await new Promise<void>((resolve) => conn.end(() => resolve()));
  }
}
