/**
 * The days of a modeled table that its inputs' changes touch (docs/refresh.md#only-affected-days),
 * found by running the table's own day expression (partition-lineage.ts) over what changed: over
 * the base table's changed rows (old and new versions), over the changed days of a lower table, and
 * over the rows that join a changed row of a joined table (matched on the joining side's columns,
 * so a row whose joined row was deleted is found too). When the day is read from a joined table (a
 * line dated by its order), each changed joined table is read with the old versions of its changed
 * rows beside the current ones, so a row finds both the day it had and the day it has. The SELECT's
 * own filters are left out: a change may move a row into them or out of them.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent as q, quoteLiteral as lit } from '../../../shared/sql-quoting';
import { syntaxNodes, type SyntaxNode } from '../sql-syntax-tree';
import type { PartitionLineage, TableRef } from './partition-lineage';

/** What changed in one input of a table. */
export type InputChange =
  | { kind: 'unchanged' }
  /** Changed in a way not known by day: the table is built whole. */
  | { kind: 'unknown' }
  /** An ODS table: its changed rows, old and new versions, in a Parquet file. */
  | { kind: 'rows'; file: string }
  /** A lower modeled table: the days of `column` computed again. */
  | { kind: 'days'; column: string; days: string[]; null_day: boolean };

export interface ChangedDays {
  /** `YYYY-MM-DD`, sorted. */
  days: string[];
  /** Rows whose day is NULL are touched too. */
  null_day: boolean;
}

type Scoped = Extract<PartitionLineage, { scoped: true }>;

/** The relation the base's changes are read through, named as the base is in the SELECT. */
const PROBE_ROWS = 'plat_probe_rows';

export async function partitionDays(
  conn: DuckDBConnection,
  lineage: Scoped,
  changeOf: (ref: TableRef) => InputChange,
): Promise<ChangedDays | { reason: string }> {
  const found = new Set<string>();
  let nullDay = false;
  const collect = async (sql: string) => {
    const rows = (
      await conn.runAndReadAll(`SELECT DISTINCT CAST(plat_day AS VARCHAR) AS d FROM (${sql})`)
    ).getRowObjectsJS();
    for (const { d } of rows)
      if (d === null) nullDay = true;
      else found.add(String(d));
  };
  const day = { ...lineage.expression, alias: 'plat_day' };
  const base = changeOf(lineage.base);
  if (base.kind === 'unknown') return { reason: `${lineage.base.table} changed in a way not known by day` };
  const joined = await joinedWithOldVersions(conn, lineage, changeOf);
  if ('reason' in joined) return joined;
  if (base.kind !== 'unchanged') {
    if (base.kind === 'rows') {
      await conn.run(
        `CREATE OR REPLACE TEMP VIEW ${PROBE_ROWS} AS SELECT * FROM read_parquet(${lit(base.file)})`,
      );
    } else {
      const other = [...syntaxNodes(lineage.expression)].find(
        (n) => n.class === 'COLUMN_REF' && (n.column_names as string[]).at(-1) !== base.column,
      );
      if (other)
        return {
          reason: `${lineage.column} reads ${(other.column_names as string[]).join('.')}, not the day of ${lineage.base.table}`,
        };
      const days = base.days.map((d) => `(DATE ${lit(d)})`);
      if (base.null_day) days.push('(NULL::DATE)');
      await conn.run(
        `CREATE OR REPLACE TEMP VIEW ${PROBE_ROWS} AS SELECT * FROM (VALUES ${days.join(', ')}) AS t(${q(base.column)})`,
      );
    }
    const rows = tableNode(PROBE_ROWS, lineage.base.alias, { catalog: 'temp', schema: 'main' });
    // The day of the base's rows alone, or through the tables it joins when the day is theirs.
    const froms = lineage.dayJoins.length
      ? joined.froms.map((f) => withBase(f, lineage.base.alias, rows))
      : [rows];
    for (const from of froms) await collect(await deserialize(conn, probe(lineage.node, [day], from)));
  }
  for (const join of lineage.joins) {
    const change = changeOf(join.table);
    if (change.kind === 'unchanged') continue;
    if (change.kind !== 'rows') return { reason: `${join.table.table} changed in a way not known by row` };
    const keys = join.on.map((o, i) => ({ ...o.from, alias: `plat_key_${i}` }));
    const match = join.on.map((o, i) => `j.${q(o.to)} = s.plat_key_${i}`).join(' AND ');
    for (const from of joined.froms) {
      const inner = await deserialize(conn, probe(lineage.node, [day, ...keys], from));
      await collect(
        `SELECT plat_day FROM (${inner}) s WHERE EXISTS (SELECT 1 FROM read_parquet(${lit(change.file)}) j WHERE ${match})`,
      );
    }
  }
  return { days: [...found].sort(), null_day: nullDay };
}

/**
 * The FROM clauses the probes read: the SELECT's own (the rows as they are now) and, when the day is
 * read from a joined table, the same with each changed joined table replaced by its current rows
 * and the old versions of its changed ones (a temp view each), so a row finds the day it had. Both,
 * since a row whose joined row was deleted joins an old version there and nothing here (its day is
 * now NULL).
 */
async function joinedWithOldVersions(
  conn: DuckDBConnection,
  lineage: Scoped,
  changeOf: (ref: TableRef) => InputChange,
): Promise<{ froms: SyntaxNode[] } | { reason: string }> {
  const written = lineage.node.from_table as SyntaxNode;
  if (!lineage.dayJoins.length) return { froms: [written] };
  const views = new Map<string, SyntaxNode>();
  for (const [i, join] of lineage.joins.entries()) {
    const change = changeOf(join.table);
    if (change.kind === 'unchanged') continue;
    if (change.kind !== 'rows')
      return {
        reason: `${lineage.column} reads a table joined to ${join.table.table}, which changed in a way not known by row`,
      };
    const name = `plat_probe_join_${i}`;
    const table = join.table.schema ? `${q(join.table.schema)}.${q(join.table.table)}` : q(join.table.table);
    await conn.run(
      `CREATE OR REPLACE TEMP VIEW ${name} AS SELECT * FROM ${table} UNION ALL BY NAME SELECT * FROM read_parquet(${lit(change.file)})`,
    );
    views.set(join.alias, tableNode(name, join.alias, { catalog: 'temp', schema: 'main' }));
  }
  return { froms: withOldVersions(written, views) };
}

/**
 * The FROM clauses a probe of a day read from a joined table reads: `written` (the rows as they are
 * now), and, when any joined table has old versions to read, the same with those tables replaced
 * by `views` (by alias). The dbt export's days query reads the same two (dbt-incremental.ts).
 */
export function withOldVersions(written: SyntaxNode, views: ReadonlyMap<string, SyntaxNode>): SyntaxNode[] {
  return views.size ? [written, replaceTables(written, (alias) => views.get(alias))] : [written];
}

/** `from` with its base table (read under `baseAlias`; aliases in one FROM are unique) replaced by `rows`. */
export function withBase(from: SyntaxNode, baseAlias: string, rows: SyntaxNode): SyntaxNode {
  return replaceTables(from, (alias) => (alias === baseAlias ? rows : undefined));
}

/** `from` with each table read under an alias that `by` names replaced by what it gives. */
function replaceTables(from: SyntaxNode, by: (alias: string) => SyntaxNode | undefined): SyntaxNode {
  if (from.type === 'JOIN')
    return {
      ...from,
      left: replaceTables(from.left as SyntaxNode, by),
      right: replaceTables(from.right as SyntaxNode, by),
    };
  if (from.type !== 'BASE_TABLE') return from;
  return by(String(from.alias || from.table_name)) ?? from;
}

/** A FROM clause's table `name` under `alias` (catalog and schema empty: resolved as written). */
export function tableNode(
  name: string,
  alias: string,
  where: { catalog: string; schema: string } = { catalog: '', schema: '' },
): SyntaxNode {
  return {
    type: 'BASE_TABLE',
    alias,
    sample: null,
    query_location: 0,
    schema_name: where.schema,
    table_name: name,
    column_name_alias: [],
    catalog_name: where.catalog,
    at_clause: null,
  };
}

/** The SELECT with only `list` computed, over `from`, with no filter, grouping or modifier. */
export function probe(node: SyntaxNode, list: SyntaxNode[], from: unknown): SyntaxNode {
  return {
    ...node,
    select_list: list,
    from_table: from,
    where_clause: null,
    group_expressions: [],
    group_sets: [],
    aggregate_handling: 'STANDARD_HANDLING',
    having: null,
    modifiers: [],
  };
}

/**
 * A node DuckDB made itself (the NULL of a CASE without ELSE) has no place in the text: its
 * `query_location` is 2^64 - 1, which JSON.parse rounds to a double that JSON.stringify writes as
 * 18446744073709552000, a number DuckDB refuses as a location. Written back exactly.
 */
const NO_LOCATION = /"query_location":18446744073709552000\b/g;

/** A syntax tree written back as SQL by DuckDB's own serializer. */
export async function deserialize(conn: DuckDBConnection, node: SyntaxNode): Promise<string> {
  const tree = JSON.stringify({ error: false, statements: [{ node }] }).replace(
    NO_LOCATION,
    '"query_location":18446744073709551615',
  );
  const [row] = (
    await conn.runAndReadAll(`SELECT json_deserialize_sql(${lit(tree)}::JSON) AS s`)
  ).getRowObjectsJS();
  return String(row.s);
}
