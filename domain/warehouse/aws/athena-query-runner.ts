/**
 * Runs one Athena statement to its end: StartQueryExecution, then GetQueryExecution with backoff
 * until SUCCEEDED, FAILED or CANCELLED; reads results page by page. Athena reports a failed
 * statement as a state, not an exception, so both become an AthenaQueryError here.
 */
import {
  GetQueryExecutionCommand,
  GetQueryResultsCommand,
  StartQueryExecutionCommand,
  StopQueryExecutionCommand,
  type AthenaClient,
  type ColumnInfo,
  type QueryExecutionStatus,
  type Row,
} from '@aws-sdk/client-athena';
import type { PollingConfig } from './athena-warehouse-config';

/** A statement Athena did not run to success: rejected at start, FAILED, CANCELLED or timed out. */
export class AthenaQueryError extends Error {
  constructor(
    readonly statement: string,
    readonly state: 'REJECTED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT',
    readonly reason: string,
    readonly executionId?: string,
  ) {
    super(`Athena query ${state.toLowerCase()}: ${reason}`);
    this.name = 'AthenaQueryError';
  }
}

export interface AthenaResults {
  columns: ColumnInfo[];
  /** Data rows only (the header row of a SELECT is dropped). */
  rows: Row[];
}

/** Athena hands out at most this many rows per GetQueryResults page. */
const pageLimit = 1000;

export class AthenaQueryRunner {
  constructor(
    private readonly athena: AthenaClient,
    private readonly opts: { workgroup: string; outputLocation: string; polling: PollingConfig },
  ) {}

  /** Runs `sql` (unqualified names resolve in `database` when given); resolves with the execution id once it SUCCEEDED. */
  /** Runs `sql` to its end; `timeoutMs` (default: the polling limit) stops it and fails. */
  async run(sql: string, database?: string, timeoutMs?: number): Promise<string> {
    let executionId: string | undefined;
    try {
      const started = await this.athena.send(
        new StartQueryExecutionCommand({
          QueryString: sql,
          WorkGroup: this.opts.workgroup,
          ResultConfiguration: { OutputLocation: this.opts.outputLocation },
          ...(database ? { QueryExecutionContext: { Catalog: 'AwsDataCatalog', Database: database } } : {}),
        }),
      );
      executionId = started.QueryExecutionId;
    } catch (err) {
      throw new AthenaQueryError(sql, 'REJECTED', (err as Error).message);
    }
    if (!executionId) throw new AthenaQueryError(sql, 'REJECTED', 'Athena returned no QueryExecutionId');
    await this.waitForEnd(sql, executionId, timeoutMs);
    return executionId;
  }

  /** Up to `maxRows` data rows of a finished SELECT, following NextToken. */
  async results(executionId: string, maxRows: number): Promise<AthenaResults> {
    const rows: Row[] = [];
    let columns: ColumnInfo[] = [];
    let nextToken: string | undefined;
    let first = true;
    do {
      // The first page starts with the header row, so ask for one more there.
      const want = Math.min(pageLimit, maxRows - rows.length + (first ? 1 : 0));
      const page = await this.athena.send(
        new GetQueryResultsCommand({ QueryExecutionId: executionId, MaxResults: want, NextToken: nextToken }),
      );
      const pageRows = page.ResultSet?.Rows ?? [];
      if (first) columns = page.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
      rows.push(...(first ? pageRows.slice(1) : pageRows));
      first = false;
      nextToken = page.NextToken;
    } while (nextToken && rows.length < maxRows);
    return { columns, rows: rows.slice(0, maxRows) };
  }

  private async waitForEnd(sql: string, executionId: string, limitMs?: number): Promise<void> {
    const { initialMs, maxMs } = this.opts.polling;
    const timeoutMs = limitMs ?? this.opts.polling.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    for (let wait = initialMs; ; wait = Math.min(maxMs, Math.ceil(wait * 1.5))) {
      const got = await this.athena.send(new GetQueryExecutionCommand({ QueryExecutionId: executionId }));
      const status = got.QueryExecution?.Status;
      switch (status?.State) {
        case 'SUCCEEDED':
          return;
        case 'FAILED':
        case 'CANCELLED':
          throw new AthenaQueryError(sql, status.State, failureReason(status), executionId);
      }
      if (Date.now() + wait > deadline) {
        // Do not leave it running (and billing) after we gave up on it.
        await this.athena
          .send(new StopQueryExecutionCommand({ QueryExecutionId: executionId }))
          .catch(() => {});
        throw new AthenaQueryError(
          sql,
          'TIMED_OUT',
          `still ${status?.State ?? 'unknown'} after ${timeoutMs} ms`,
          executionId,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

function failureReason(status: QueryExecutionStatus): string {
  return (
    status.StateChangeReason ??
    status.AthenaError?.ErrorMessage ??
    `query ${status.State?.toLowerCase() ?? 'ended'} without a reason`
  );
}
