/**
 * SQL parsed by DuckDB's own parser (`json_serialize_sql`), for guards that must know what a
 * statement reads rather than guess from its text (docs/security.md#athena). One in-memory DuckDB,
 * opened on first use, with nothing outside it reachable; it only parses.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { openDuckDb } from './duckdb-module';
import { quoteLiteral } from '../../shared/sql-quoting';

/** The parser's answer: the statements as a tree, or its error. */
export type SqlSyntaxTree =
  | { error: false; statements: { node: SyntaxNode }[] }
  | { error: true; error_type: string; error_message: string };

/** A node of the tree: an object with a `type` and children of any shape. */
export interface SyntaxNode {
  type?: string;
  [key: string]: unknown;
}

let parser: Promise<DuckDBConnection> | undefined;
/** Calls wait their turn on the one connection (a DuckDB connection runs one statement at a time). */
let queue: Promise<unknown> = Promise.resolve();
/** Recent answers by text: a build checks the same statements again and again. */
const recent = new Map<string, SqlSyntaxTree>();
const RECENT_MAX = 1000;
/** Only statements this short are remembered: a tenant's long ones must not fill the process. */
const RECENT_MAX_CHARS = 4000;

async function openParser(): Promise<DuckDBConnection> {
  const instance = await openDuckDb(':memory:', { threads: '1', memory_limit: '64MB' });
  const conn = await instance.connect();
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
  return conn;
}

/**
 * The statements of `sql` as DuckDB's parser reads them (SELECTs only; anything else is an error).
 * One connection kept open, calls in turn: opening one per call cost 8 ms, more than the parse.
 */
export async function sqlSyntaxTree(sql: string): Promise<SqlSyntaxTree> {
  const known = recent.get(sql);
  if (known) return known;
  parser ??= openParser();
  const run = queue.then(async () => {
    const reader = await (
      await parser!
    ).runAndReadAll(`SELECT json_serialize_sql(${quoteLiteral(sql)}) AS tree`);
    return JSON.parse(String(reader.getRowObjectsJS()[0].tree)) as SqlSyntaxTree;
  });
  queue = run.catch(() => undefined);
  const tree = await run;
  if (sql.length <= RECENT_MAX_CHARS) {
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
    recent.set(sql, tree);
  }
  return tree;
}

/** Every node of the tree (objects with a `type`), in any order. */
export function* syntaxNodes(value: unknown): Generator<SyntaxNode> {
  if (Array.isArray(value)) {
    for (const item of value) yield* syntaxNodes(item);
  } else if (value && typeof value === 'object') {
    if (typeof (value as SyntaxNode).type === 'string') yield value as SyntaxNode;
    for (const child of Object.values(value)) yield* syntaxNodes(child);
  }
}
