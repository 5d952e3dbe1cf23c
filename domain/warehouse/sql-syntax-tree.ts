/**
 * SQL parsed by DuckDB's own parser (`json_serialize_sql`), for guards that must know what a
 * statement reads rather than guess from its text (docs/security.md#athena). One in-memory DuckDB,
 * opened on first use, with nothing outside it reachable; it only parses.
 */
import type { DuckDBInstance } from '@duckdb/node-api';
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

let parser: Promise<DuckDBInstance> | undefined;

async function openParser(): Promise<DuckDBInstance> {
  const instance = await openDuckDb(':memory:', { threads: '1', memory_limit: '64MB' });
  const conn = await instance.connect();
  try {
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
  } finally {
    conn.closeSync();
  }
  return instance;
}

/** The statements of `sql` as DuckDB's parser reads them (SELECTs only; anything else is an error). */
export async function sqlSyntaxTree(sql: string): Promise<SqlSyntaxTree> {
  parser ??= openParser();
  const conn = await (await parser).connect();
  try {
    const reader = await conn.runAndReadAll(`SELECT json_serialize_sql(${quoteLiteral(sql)}) AS tree`);
    return JSON.parse(String(reader.getRowObjectsJS()[0].tree)) as SqlSyntaxTree;
  } finally {
    conn.closeSync();
  }
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
