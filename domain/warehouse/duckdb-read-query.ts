/**
 * One read-only statement on a sandboxed DuckDB connection (docs/security.md#the-warehouse-sandbox):
 * refused unless it is a single SELECT, its rows streamed up to a count and a weight of JSON,
 * interrupted after its timeout, and answered at its deadline even when DuckDB is slow to notice.
 */
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';
import { duckdb } from './duckdb-module';
import { tenantSqlRefusal } from './tenant-sql';
import { WarehouseQueryError, type QueryRows } from './warehouse-engine';

/** Caps of a read session's statements. */
export interface ReadSessionLimits {
  /** Rows a statement may return before its result is `truncated` (default 100,000). */
  maxRows?: number;
  /** Longest one statement may run (default 60 s). */
  timeoutMs?: number;
}

/** An open read session on a layer; `close()` must be called. */
export interface WarehouseReadSession {
  /**
   * One SELECT, checked and capped like `WarehouseEngine.query` (values as JSON: BIGINT and DECIMAL
   * as strings, timestamps as text). `singleThreaded` runs it on one thread, which makes a
   * `REPEATABLE` sample repeatable.
   */
  query(sql: string, options?: { singleThreaded?: boolean }): Promise<QueryRows>;
  close(): void;
}

/**
 * Runs a statement on a sandboxed connection: prepared first and refused unless it is a single
 * SELECT, rows streamed up to `maxRows` and `maxBytes` of JSON (`truncated` says more were there),
 * interrupted after `timeoutMs`.
 */
export async function selectInSandbox(
  conn: DuckDBConnection,
  statement: string,
  maxRows: number,
  timeoutMs: number,
  maxBytes = Infinity,
): Promise<QueryRows> {
  // Armed before the prepare: DuckDB folds constants while preparing, which can take long too.
  const timer = setTimeout(() => conn.interrupt(), timeoutMs);
  try {
    let prepared;
    try {
      prepared = await conn.prepare(statement);
    } catch (err) {
      if (/interrupt/i.test(firstLine(err)))
        throw new WarehouseQueryError('timeout', `query exceeded ${timeoutMs} ms`);
      // A write the read-only attach refused is a refusal, not a typo: say so plainly.
      if (WRITE_STATEMENT.test(statement))
        throw new WarehouseQueryError('read_only', 'only SELECT queries are allowed on the warehouse');
      throw new WarehouseQueryError('invalid_sql', firstLine(err));
    }
    if (prepared.statementType !== duckdb().StatementType.SELECT)
      throw new WarehouseQueryError('read_only', 'only SELECT queries are allowed on the warehouse');
    try {
      // Streamed a chunk at a time and turned into JSON a row at a time: only the rows answered are
      // produced, whatever the query's size, in its own order, and a query of huge rows stops at
      // the answer's weight rather than after all of them were read into memory.
      return await readAnswer(await conn.stream(statement), maxRows, maxBytes);
    } catch (err) {
      const message = firstLine(err);
      if (/interrupt/i.test(message))
        throw new WarehouseQueryError('timeout', `query exceeded ${timeoutMs} ms`);
      throw new WarehouseQueryError('failed', message);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A streamed result's rows as JSON objects, up to `maxRows` rows and `maxBytes` of JSON. */
async function readAnswer(result: DuckDBResult, maxRows: number, maxBytes: number): Promise<QueryRows> {
  const columns = result.columnNames();
  const keys = result.deduplicatedColumnNames();
  const json = duckdb().JsonDuckDBValueConverter;
  const rows: Record<string, unknown>[] = [];
  let bytes = Buffer.byteLength(JSON.stringify(columns));
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk())
    for (let r = 0; r < chunk.rowCount; r++) {
      if (rows.length >= maxRows) return { columns, rows, truncated: true };
      const row: Record<string, unknown> = {};
      chunk.visitRowValues(r, (value, _row, c, type) => {
        row[keys[c]] = json(value, type, json);
      });
      bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
      if (bytes > maxBytes) return { columns, rows, truncated: true };
      rows.push(row);
    }
  return { columns, rows, truncated: false };
}

/** How long past its timeout a query may take to stop once interrupted, before it is answered anyway. */
const DEADLINE_GRACE_MS = 500;

/**
 * `run`, or a `timeout` refusal once `timeoutMs` (and a grace) have passed, whichever comes first.
 * DuckDB checks for an interrupt between steps, and folding constants while preparing is one long
 * step (`SELECT len(range(100000000))` took 31 s to notice one on 2 cores): the caller is answered
 * at the deadline, and the refusal carries the work still under way, which closes its session when
 * it ends.
 */
export function withDeadline<T>(run: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new WarehouseQueryError(
            'timeout',
            `query exceeded ${timeoutMs} ms`,
            run.catch(() => undefined),
          ),
        ),
      timeoutMs + DEADLINE_GRACE_MS,
    );
  });
  return Promise.race([run, deadline]).finally(() => clearTimeout(timer));
}

/** Statements that change something, by their first keyword. */
const WRITE_STATEMENT =
  /^\s*(insert|update|delete|merge|create|drop|alter|truncate|copy|attach|detach|install|load|set|reset|pragma|call|export|import|checkpoint|vacuum|begin|commit|rollback|use)\b/i;

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0];

/**
 * Refuses what a tenant may not run, decided on the parse before DuckDB binds or folds anything
 * (docs/security.md#tenant-sql): a table function that logs, a list of twenty million numbers.
 */
export async function assertTenantSql(statement: string): Promise<void> {
  const refusal = await tenantSqlRefusal(statement);
  if (refusal) throw new WarehouseQueryError(refusal.reason, refusal.message);
}
