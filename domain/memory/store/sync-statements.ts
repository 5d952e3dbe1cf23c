/**
 * Kysely statements run on a SQLite file synchronously: compiled once per shape (SQLite's dialect),
 * prepared once per SQL text, then run with their parameters. The embedded store's writes and index
 * updates stay one synchronous step, with the statements written once for both backends.
 */
import type { Compilable } from 'kysely';
import type { SqliteFile } from '../../metadata-store/sqlite-file';

/** Statement shapes kept prepared (an `IN` list of each length is a shape of its own). */
const MAX_PREPARED = 256;

export class SyncStatements {
  private readonly prepared = new Map<string, ReturnType<typeof this.prepare>>();

  constructor(private readonly file: SqliteFile) {}

  /** Every row the query returns. */
  all<R>(query: Compilable<R>): R[] {
    const { sql, parameters } = query.compile();
    return this.statement(sql).all(...(parameters as unknown[])) as R[];
  }

  /** The first row, if any. */
  first<R>(query: Compilable<R>): R | undefined {
    const { sql, parameters } = query.compile();
    return this.statement(sql).get(...(parameters as unknown[])) as R | undefined;
  }

  /** Runs a write. */
  run(query: Compilable<unknown>): void {
    const { sql, parameters } = query.compile();
    this.statement(sql).run(...(parameters as unknown[]));
  }

  private prepare(sql: string) {
    return this.file.prepare<unknown[]>(sql);
  }

  private statement(sql: string) {
    let s = this.prepared.get(sql);
    if (!s) {
      if (this.prepared.size >= MAX_PREPARED) this.prepared.clear();
      s = this.prepare(sql);
      this.prepared.set(sql, s);
    }
    return s;
  }
}
