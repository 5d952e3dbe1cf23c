/**
 * Whether a modeled table can be rebuilt a day at a time, read from its SELECT as DuckDB's parser
 * sees it, not from names (docs/refresh.md#only-affected-days). A table is rebuilt by days of its
 * DATE column `p` when each of its rows with `p = d` depends only on input rows that also give
 * `d`: `p` is computed row by row from the columns of the base table and of the tables it joins
 * (no aggregate, window or subquery in it; a line dated by its order's date), every other input is
 * a LEFT JOIN on equal columns, and when the table groups, `p` is one of its group keys. Anything
 * else (a set operation, a LIMIT, a window, a CTE, a join that is not LEFT) is rebuilt whole, and
 * the reason is said.
 */
import type { SyntaxNode } from '../sql-syntax-tree';
import { syntaxNodes } from '../sql-syntax-tree';

/** A table a SELECT reads, as written (`plat_<id>_<layer>.<table>` parses as schema and table). */
export interface TableRef {
  schema: string;
  table: string;
}

/** A table read by a LEFT JOIN: its changed rows reach the result through the columns it is joined on. */
export interface JoinedInput {
  alias: string;
  table: TableRef;
  /** Each equality of the join: the earlier side's expression and the joined table's column. */
  on: { from: SyntaxNode; to: string }[];
}

/** How a table's affected days are found, or why it is rebuilt whole. */
export type PartitionLineage =
  | {
      scoped: true;
      /** The DATE column the table is rebuilt by. */
      column: string;
      /** Its expression in the SELECT. */
      expression: SyntaxNode;
      /** The table the rows come from, and the name its columns are qualified by. */
      base: TableRef & { alias: string };
      joins: JoinedInput[];
      /** The joined tables whose columns the day reads (none: the base's alone). */
      dayJoins: string[];
      /** The SELECT's root node, for the probes that find the days (partition-days.ts). */
      node: SyntaxNode;
    }
  | { scoped: false; reason: string };

/** What the lineage needs to know of DuckDB's functions: which names aggregate. */
export interface FunctionKinds {
  /** True for a scalar function that aggregates nothing (`CAST` is an operator, not a function). */
  isScalar(name: string): boolean;
}

const ALLOWED_MODIFIERS = new Set(['ORDER_MODIFIER', 'DISTINCT_MODIFIER']);
const CROSS_ROW = new Set(['WINDOW', 'SUBQUERY']);

/**
 * The lineage of a table built by `node` (a SELECT_NODE of `json_serialize_sql`), by the first of
 * `candidates` (its DATE columns, the declared partition first) that qualifies.
 */
export function partitionLineage(
  node: SyntaxNode,
  candidates: string[],
  kinds: FunctionKinds,
): PartitionLineage {
  const whole = (reason: string): PartitionLineage => ({ scoped: false, reason });
  if (node.type !== 'SELECT_NODE') return whole('its SELECT is a set operation');
  if (((node.cte_map as { map?: unknown[] } | undefined)?.map ?? []).length)
    return whole('it has a WITH clause');
  if (node.qualify || node.sample) return whole('it has a QUALIFY or SAMPLE clause');
  for (const m of (node.modifiers as SyntaxNode[] | undefined) ?? []) {
    if (!ALLOWED_MODIFIERS.has(String(m.type))) return whole(`it has a ${String(m.type)} clause`);
    if (((m.distinct_on_targets as unknown[] | undefined) ?? []).length) return whole('it has DISTINCT ON');
  }
  const expressions = [node.select_list, node.where_clause, node.group_expressions, node.having];
  for (const n of syntaxNodes(expressions))
    if (CROSS_ROW.has(String(n.class))) return whole(`it has a ${String(n.class).toLowerCase()} expression`);
  const from = fromClause(node.from_table as SyntaxNode);
  if ('reason' in from) return whole(from.reason);
  const aggregates = [...syntaxNodes([node.select_list, node.having])].some(
    (n) => n.class === 'FUNCTION' && !kinds.isScalar(String(n.function_name)),
  );
  const groups = (node.group_expressions as SyntaxNode[] | undefined) ?? [];
  if (aggregates && !groups.length) return whole('it aggregates all its rows into one');

  const list = (node.select_list as SyntaxNode[]) ?? [];
  let reason = 'it has no DATE column';
  for (const column of candidates) {
    const index = list.findIndex((e) => outputName(e) === column);
    if (index < 0) continue;
    const expression = list[index];
    const rowWise = rowWiseFrom(expression, from.base.alias, from.joins, kinds);
    if ('why' in rowWise) {
      reason = `${column} ${rowWise.why}`;
      continue;
    }
    if (groups.length && !isGroupKey(node, index, expression)) {
      reason = `${column} is not one of its group keys`;
      continue;
    }
    const { dayJoins } = rowWise;
    return { scoped: true, column, expression, base: from.base, joins: from.joins, dayJoins, node };
  }
  return whole(reason);
}

/** The name a select-list entry gets: its alias, or a column reference's own name. */
function outputName(e: SyntaxNode): string | undefined {
  if (typeof e.alias === 'string' && e.alias) return e.alias;
  const names = e.class === 'COLUMN_REF' ? (e.column_names as string[]) : undefined;
  return names?.[names.length - 1];
}

/** The base table and its LEFT JOINs on equal columns, or why the FROM clause is not that. */
function fromClause(
  from: SyntaxNode | null,
): { base: TableRef & { alias: string }; joins: JoinedInput[] } | { reason: string } {
  if (!from) return { reason: 'it reads no table' };
  if (from.type === 'BASE_TABLE') return { base: baseTable(from), joins: [] };
  if (from.type !== 'JOIN') return { reason: `it reads a ${String(from.type).toLowerCase()}` };
  if (from.join_type !== 'LEFT' || from.ref_type !== 'REGULAR')
    return { reason: `it has a ${String(from.join_type)} join` };
  if (((from.using_columns as unknown[]) ?? []).length) return { reason: 'it joins with USING' };
  const left = fromClause(from.left as SyntaxNode);
  if ('reason' in left) return left;
  const right = from.right as SyntaxNode;
  if (right.type !== 'BASE_TABLE') return { reason: 'it joins something other than a table' };
  const joined = baseTable(right);
  const on = joinEqualities(from.condition as SyntaxNode, joined.alias);
  if (!on) return { reason: `its join of ${joined.alias} is not on equal columns` };
  return { base: left.base, joins: [...left.joins, { alias: joined.alias, table: joined, on }] };
}

function baseTable(n: SyntaxNode): TableRef & { alias: string } {
  const table = String(n.table_name);
  return { schema: String(n.schema_name ?? ''), table, alias: String(n.alias || table) };
}

/** `a.x = j.y AND …` where each equality names a column of the joined table `alias` on one side. */
function joinEqualities(condition: SyntaxNode | null, alias: string): JoinedInput['on'] | undefined {
  if (!condition) return undefined;
  const parts =
    condition.type === 'CONJUNCTION_AND' ? ((condition.children as SyntaxNode[]) ?? []) : [condition];
  const on: JoinedInput['on'] = [];
  for (const part of parts) {
    if (part.type !== 'COMPARE_EQUAL') return undefined;
    const sides = [part.left as SyntaxNode, part.right as SyntaxNode];
    const mine = sides.findIndex((s) => s.class === 'COLUMN_REF' && columnOf(s, alias) !== undefined);
    if (mine < 0) return undefined;
    const other = sides[1 - mine];
    // The other side must not read the joined table itself.
    if ([...syntaxNodes(other)].some((n) => n.class === 'COLUMN_REF' && columnOf(n, alias) !== undefined))
      return undefined;
    on.push({ from: other, to: columnOf(sides[mine], alias)! });
  }
  return on;
}

/** The column a reference names when it is qualified by `alias`. */
function columnOf(ref: SyntaxNode, alias: string): string | undefined {
  const names = ref.column_names as string[];
  return names.length === 2 && names[0] === alias ? names[1] : undefined;
}

/**
 * Whether an expression is computed row by row from the columns of the base table and the tables it
 * joins, and which joined tables it reads; else why not: every function scalar, every column
 * qualified by the alias of the base or of a joined table (unqualified only when nothing is joined).
 */
function rowWiseFrom(
  expression: SyntaxNode,
  alias: string,
  joins: JoinedInput[],
  kinds: FunctionKinds,
): { dayJoins: string[] } | { why: string } {
  let columns = 0;
  const dayJoins = new Set<string>();
  for (const n of syntaxNodes(expression)) {
    if (n.class === 'FUNCTION' && !kinds.isScalar(String(n.function_name)))
      return { why: `uses ${String(n.function_name)}, which is not a scalar function` };
    if (n.class === 'COLUMN_REF') {
      const names = n.column_names as string[];
      const joined = names.length === 2 ? joins.find((j) => j.alias === names[0]) : undefined;
      const ofBase = names.length === 2 ? names[0] === alias : names.length === 1 && !joins.length;
      if (!ofBase && !joined)
        return { why: `reads ${names.join('.')}, not a column of ${alias} or of a table it joins` };
      if (joined) dayJoins.add(joined.alias);
      columns++;
    }
  }
  return columns ? { dayJoins: [...dayJoins] } : { why: 'is a constant' };
}

/** Whether select-list entry `index` is a group key: `GROUP BY <position>` or the same expression. */
function isGroupKey(node: SyntaxNode, index: number, expression: SyntaxNode): boolean {
  const groups = node.group_expressions as SyntaxNode[];
  const matches = groups.flatMap((g, i) => {
    const position = g.class === 'CONSTANT' ? (g.value as { value?: unknown }).value : undefined;
    if (position === index + 1) return [i];
    if (g.class === 'COLUMN_REF' && outputName(g) === outputName(expression)) return [i];
    return sameExpression(g, expression) ? [i] : [];
  });
  if (!matches.length) return false;
  // Every grouping set (GROUPING SETS, ROLLUP, CUBE) must keep the key, or a set spans days.
  const sets = (node.group_sets as number[][] | undefined) ?? [];
  return sets.every((set) => set.some((g) => matches.includes(g)));
}

/** Two expressions equal but for where they were written and what they are called. */
function sameExpression(a: SyntaxNode, b: SyntaxNode): boolean {
  const strip = (n: unknown): unknown =>
    Array.isArray(n)
      ? n.map(strip)
      : n && typeof n === 'object'
        ? Object.fromEntries(
            Object.entries(n)
              .filter(([k]) => k !== 'query_location' && k !== 'alias')
              .map(([k, v]) => [k, strip(v)]),
          )
        : n;
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}
