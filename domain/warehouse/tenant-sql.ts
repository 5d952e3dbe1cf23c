/**
 * The one check every tenant's statement passes before DuckDB prepares it (docs/security.md#tenant-sql):
 * `/query`, a PRD's metric SQL, dashboards, metric validation and the profile alike. Parsed by
 * DuckDB's own parser, it must be one SELECT that reads the project's tables: no table function but
 * those generating values (`range`, `generate_series`, `unnest`, JSON's `json_each`/`json_tree`),
 * no function that reads or writes configuration, variables, logs or the query itself, and no call
 * building a value past its bound (shared/sql-size-bounds.ts). What the parse cannot see is left to
 * the engine's sandbox and the process it runs in.
 */
import {
  formatWidths,
  MAX_BUILT_CHARS,
  MAX_BUILT_ELEMENTS,
  MAX_GENERATED_ROWS,
  SERIES_FUNCTIONS,
  SIZED_ARGUMENT,
} from '../../shared/sql-size-bounds';
import { sqlSyntaxTree, syntaxNodes, type SyntaxNode } from './sql-syntax-tree';

/** Why a statement is refused: not one SELECT, or something in it a tenant may not run. */
export interface TenantSqlRefusal {
  reason: 'read_only' | 'not_allowed' | 'invalid_sql';
  message: string;
}

/** Table functions that only generate values: everything else reads files, settings, logs or runs SQL. */
const TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest', 'json_each', 'json_tree', 'repeat']);

/** Scalar functions that reach past the query's own values: settings, variables, logs, the session, time. */
const DENIED_FUNCTIONS = new Set([
  'getvariable',
  'current_query',
  'write_log',
  'parse_duckdb_log_message',
  'sleep_ms',
  'pg_sleep',
  'json_deserialize_sql',
  'json_serialize_sql',
  'json_execute_serialized_sql',
  'getenv',
  'nextval',
  'currval',
  'setseed',
]);

/** Settings a query may read: how it runs, nothing of the host, its paths or other tenants. */
const READABLE_SETTINGS = new Set(['threads', 'memory_limit', 'timezone', 'calendar', 'default_collation']);

/** Refused, or undefined when `sql` is one SELECT a tenant may run. */
export async function tenantSqlRefusal(sql: string): Promise<TenantSqlRefusal | undefined> {
  const tree = await sqlSyntaxTree(sql.trim().replace(/;\s*$/, ''));
  if (tree.error)
    return /only select/i.test(tree.error_message)
      ? { reason: 'read_only', message: 'only SELECT queries are allowed on the warehouse' }
      : { reason: 'invalid_sql', message: tree.error_message };
  if (tree.statements.length !== 1) return { reason: 'read_only', message: 'one SELECT statement at a time' };
  const tableCalls = new Set<SyntaxNode>();
  for (const node of syntaxNodes(tree.statements)) {
    if (node.type !== 'TABLE_FUNCTION') continue;
    const call = node.function as SyntaxNode;
    tableCalls.add(call);
    const name = functionName(call);
    if (!TABLE_FUNCTIONS.has(name))
      return notAllowed(`table function ${name} is not allowed: a query reads the project's own tables`);
    const rows = name === 'repeat' ? constantNumber(children(call)[1]) : seriesLength(children(call));
    if (name !== 'unnest' && !name.startsWith('json_') && !withinBound(rows, MAX_GENERATED_ROWS))
      return notAllowed(
        `${name} in FROM may generate at most ${MAX_GENERATED_ROWS.toLocaleString('en')} rows, from bounds written in the query`,
      );
  }
  for (const node of syntaxNodes(tree.statements)) {
    if (node.class !== 'FUNCTION' || tableCalls.has(node)) continue;
    const name = functionName(node);
    if (DENIED_FUNCTIONS.has(name)) return notAllowed(`function ${name} is not allowed`);
    const args = children(node);
    if (name === 'current_setting' && !READABLE_SETTINGS.has(constantText(args[0])?.toLowerCase() ?? ''))
      return notAllowed(`current_setting reads only ${[...READABLE_SETTINGS].join(', ')}`);
    const sized = SIZED_ARGUMENT[name];
    if (sized && args.length > sized.index && !withinBound(constantNumber(args[sized.index]), sized.max))
      return notAllowed(
        `${name} may build at most ${sized.max.toLocaleString('en')} ${sized.unit}, written as a number in the query`,
      );
    if (SERIES_FUNCTIONS.has(name) && !withinBound(seriesLength(args), MAX_BUILT_ELEMENTS))
      return notAllowed(
        `${name} may build a list of at most ${MAX_BUILT_ELEMENTS.toLocaleString('en')} elements, from bounds written in the query`,
      );
    if ((name === 'printf' || name === 'format') && args.length) {
      const format = constantText(args[0]);
      if (format === undefined || formatWidths(format).some((w) => w > MAX_BUILT_CHARS))
        return notAllowed(
          `${name} takes a format written in the query, with widths of at most ${MAX_BUILT_CHARS.toLocaleString('en')}`,
        );
    }
  }
  return undefined;
}

const notAllowed = (message: string): TenantSqlRefusal => ({ reason: 'not_allowed', message });
const functionName = (call: SyntaxNode) => String(call.function_name ?? '').toLowerCase();
const children = (call: SyntaxNode) => (Array.isArray(call.children) ? (call.children as SyntaxNode[]) : []);
const withinBound = (n: number | undefined, max: number) => n !== undefined && Number.isFinite(n) && n <= max;

/** The value of a number written in the query (literals, casts and arithmetic on them), or undefined. */
function constantNumber(node: SyntaxNode | undefined): number | undefined {
  if (!node) return undefined;
  if (node.class === 'CONSTANT') {
    const value = node.value as {
      type: { id: string; type_info?: { scale?: number } };
      is_null: boolean;
      value: unknown;
    };
    if (value.is_null) return undefined;
    const v = value.value;
    if (value.type.id === 'HUGEINT' || value.type.id === 'UHUGEINT') {
      const { upper, lower } = v as { upper: number; lower: number };
      return upper * 2 ** 64 + lower;
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) return undefined;
    return value.type.id === 'DECIMAL' ? n / 10 ** (value.type.type_info?.scale ?? 0) : n;
  }
  if (node.class === 'CAST') return constantNumber(node.child as SyntaxNode);
  if (node.class !== 'FUNCTION') return undefined;
  const [a, b] = children(node).map(constantNumber);
  const args = children(node).length;
  switch (functionName(node)) {
    case '+':
      return args === 1 ? a : a !== undefined && b !== undefined ? a + b : undefined;
    case '-':
      return args === 1
        ? a === undefined
          ? undefined
          : -a
        : a !== undefined && b !== undefined
          ? a - b
          : undefined;
    case '*':
      return a !== undefined && b !== undefined ? a * b : undefined;
    case '/':
    case '//':
      return a !== undefined && b ? a / b : undefined;
    case '**':
    case '^':
    case 'pow':
    case 'power':
      return a !== undefined && b !== undefined ? a ** b : undefined;
    case 'trunc':
      return a === undefined ? undefined : Math.trunc(a);
    default:
      return undefined;
  }
}

/** A string written in the query (a literal, or a cast of one), or undefined. */
function constantText(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.class === 'CAST') return constantText(node.child as SyntaxNode);
  if (node.class !== 'CONSTANT') return undefined;
  const value = node.value as { is_null: boolean; value: unknown };
  return !value.is_null && typeof value.value === 'string' ? value.value : undefined;
}

/** A moment written in the query (`DATE '2020-01-01'`, `TIMESTAMP '…'`), in ms since 1970. */
function constantMoment(node: SyntaxNode | undefined): number | undefined {
  if (node?.class !== 'CAST') return undefined;
  const type = (node.cast_type as { id: string }).id;
  if (!/^(DATE|TIMESTAMP)/.test(type)) return undefined;
  const text = constantText(node.child as SyntaxNode);
  const ms =
    text === undefined
      ? NaN
      : Date.parse(text.replace(' ', 'T') + (/[zZ+]|-\d\d:?\d\d$/.test(text) ? '' : 'Z'));
  return Number.isFinite(ms) ? ms : undefined;
}

const DAY_MS = 86_400_000;
/** The shortest each unit can be, so a step's length bounds the count from above. */
const UNIT_MS: Record<string, number> = {
  microsecond: 0.001,
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 28 * DAY_MS,
  year: 365 * DAY_MS,
};

/** An interval written in the query (`INTERVAL 1 DAY`, `INTERVAL '2 hours'`), at its shortest in ms. */
function constantInterval(node: SyntaxNode | undefined): number | undefined {
  if (!node) return undefined;
  if (node.class === 'FUNCTION') {
    const unit = /^to_(\w+?)s$/.exec(functionName(node))?.[1];
    const n = constantNumber(children(node)[0]);
    return unit && UNIT_MS[unit] !== undefined && n !== undefined ? n * UNIT_MS[unit] : undefined;
  }
  if (node.class === 'CAST' && (node.cast_type as { id: string }).id === 'INTERVAL') {
    const text = constantText(node.child as SyntaxNode);
    if (text === undefined) return undefined;
    let ms = 0;
    let parts = 0;
    for (const m of text.toLowerCase().matchAll(/(-?\d+(?:\.\d+)?)\s*([a-z]+?)s?\b/g)) {
      const unit = UNIT_MS[m[2]];
      if (unit === undefined) return undefined;
      ms += Number(m[1]) * unit;
      parts++;
    }
    return parts ? ms : undefined;
  }
  return undefined;
}

/** How many values `range`/`generate_series` with these arguments makes, when the query says. */
function seriesLength(args: SyntaxNode[]): number | undefined {
  const [a, b, c] = args;
  const moments = [constantMoment(a), constantMoment(b)];
  if (moments[0] !== undefined && moments[1] !== undefined) {
    const step = constantInterval(c);
    return step ? Math.abs(moments[1] - moments[0]) / Math.abs(step) + 1 : undefined;
  }
  const [x, y, z] = [a, b, c].map(constantNumber);
  if (args.length === 1) return x === undefined ? undefined : Math.abs(x);
  if (x === undefined || y === undefined) return undefined;
  if (args.length === 2) return Math.abs(y - x) + 1;
  return z ? Math.abs(y - x) / Math.abs(z) + 1 : undefined;
}
