/**
 * Which of DuckDB's functions compute row by row (docs/refresh.md#only-affected-days): a table whose
 * day, or whose every column, is computed by such functions alone can be rebuilt a day at a time.
 * Read from the DuckDB build's own catalog, not from a list: a function is scalar when every
 * overload of its name is; a macro (`nullif`, `split_part`, `date_add`) when its body calls only
 * scalar functions and reads no subquery. A macro over an aggregate (`geomean`, `weighted_avg`) or
 * a table (`generate_subscripts`) is not.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { syntaxNodes, type SyntaxNode } from '../sql-syntax-tree';
import type { FunctionKinds } from './partition-lineage';

/** DuckDB's scalar functions and macros, read once a process: the catalog is the build's, not a session's. */
let scalarFunctions: Promise<Set<string>> | undefined;

/** Node classes that read beyond the row: a macro holding one is no scalar function. */
const BEYOND_THE_ROW = new Set(['SUBQUERY', 'WINDOW']);

async function readScalarFunctions(conn: DuckDBConnection): Promise<Set<string>> {
  // Built-ins only (`internal`): what a connection has attached or defined must not decide for the
  // whole process. Each macro's body parsed in the same query.
  const rows = (
    await conn.runAndReadAll(
      `SELECT function_name AS name, bool_and(function_type = 'scalar') AS scalar,
              bool_and(function_type = 'macro') AS macro,
              json_serialize_sql('SELECT ' || any_value(macro_definition)) AS body
       FROM duckdb_functions() WHERE internal GROUP BY 1`,
    )
  ).getRowObjectsJS();
  const scalar = new Set(rows.filter((r) => r.scalar).map((r) => String(r.name)));
  // Each macro's calls, or undefined when its body reads beyond the row (or does not parse).
  const macros = new Map<string, string[] | undefined>();
  for (const r of rows.filter((m) => m.macro && m.body !== null)) {
    const tree = JSON.parse(String(r.body)) as { error: boolean; statements?: { node: SyntaxNode }[] };
    const nodes = tree.error ? undefined : [...syntaxNodes(tree.statements)];
    macros.set(
      String(r.name),
      nodes && !nodes.some((n) => BEYOND_THE_ROW.has(String(n.class)))
        ? nodes.filter((n) => n.class === 'FUNCTION').map((n) => String(n.function_name))
        : undefined,
    );
  }
  // A macro may call another: taken in until no more qualify.
  for (let added = true; added;) {
    added = false;
    for (const [name, calls] of macros)
      if (calls && !scalar.has(name) && calls.every((c) => scalar.has(c))) {
        scalar.add(name);
        added = true;
      }
  }
  return scalar;
}

/** DuckDB's scalar functions, by name (a name that also aggregates is not one). */
export async function functionKinds(conn: DuckDBConnection): Promise<FunctionKinds> {
  scalarFunctions ??= readScalarFunctions(conn);
  const scalar = await scalarFunctions.catch((err: unknown) => {
    scalarFunctions = undefined;
    throw err;
  });
  return { isScalar: (name) => scalar.has(name) };
}
