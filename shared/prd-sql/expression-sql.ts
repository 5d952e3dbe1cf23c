/**
 * SQL written from a parsed PRD expression (docs/security.md#prd-fields-are-data): every name
 * quoted, every string a literal, every operation parenthesised. The build runs this, never the
 * text a PRD holds, so what runs is exactly what was checked.
 */
import { quoteIdent, quoteLiteral } from '../sql-quoting';
import { isReservedWord, visit, type Expr } from './expression';
import { AGGREGATE_FUNCTIONS } from './expression-functions';

/** How a column reference is written: the caller decides the qualifier (a join alias, none). */
export type ColumnWriter = (ref: { table?: string; column: string }) => string;

/** A column as written by default: `"table"."column"` or `"column"`. */
export const quotedColumn: ColumnWriter = ({ table, column }) =>
  table === undefined ? quoteIdent(column) : `${quoteIdent(table)}.${quoteIdent(column)}`;

/** The expression as SQL for DuckDB and Athena. */
export function expressionSql(e: Expr, column: ColumnWriter = quotedColumn): string {
  const sql = (x: Expr) => expressionSql(x, column);
  switch (e.kind) {
    case 'column':
      return column(e);
    case 'number':
      return e.text;
    case 'string':
      return quoteLiteral(e.value);
    case 'keyword':
      return e.word;
    case 'typed':
      return `${e.type} ${quoteLiteral(e.value)}`;
    case 'interval':
      return `INTERVAL ${quoteLiteral(e.value)}${e.unit ? ` ${e.unit}` : ''}`;
    case 'call':
      return `${e.name}(${e.star ? '*' : `${e.distinct ? 'DISTINCT ' : ''}${e.args.map(sql).join(', ')}`})`;
    case 'unary':
      return e.op === 'NOT' ? `(NOT ${sql(e.arg)})` : `(${e.op}${sql(e.arg)})`;
    case 'binary':
      return `(${sql(e.left)} ${e.op} ${sql(e.right)})`;
    case 'is':
      return `(${sql(e.arg)} IS ${e.not ? 'NOT ' : ''}${e.what})`;
    case 'distinct_from':
      return `(${sql(e.left)} IS ${e.not ? 'NOT ' : ''}DISTINCT FROM ${sql(e.right)})`;
    case 'between':
      return `(${sql(e.arg)} ${e.not ? 'NOT ' : ''}BETWEEN ${sql(e.low)} AND ${sql(e.high)})`;
    case 'in':
      return `(${sql(e.arg)} ${e.not ? 'NOT ' : ''}IN (${e.list.map(sql).join(', ')}))`;
    case 'like':
      return `(${sql(e.arg)} ${e.not ? 'NOT ' : ''}${e.op} ${sql(e.pattern)})`;
    case 'case': {
      const whens = e.whens.map((w) => ` WHEN ${sql(w.when)} THEN ${sql(w.then)}`).join('');
      const operand = e.operand ? ` ${sql(e.operand)}` : '';
      return `CASE${operand}${whens}${e.otherwise ? ` ELSE ${sql(e.otherwise)}` : ''} END`;
    }
    case 'cast':
      return `${e.lenient ? 'TRY_CAST' : 'CAST'}(${sql(e.arg)} AS ${e.type})`;
    case 'extract':
      return `EXTRACT(${e.part} FROM ${sql(e.from)})`;
  }
}

/** Whether the expression aggregates (a table with such a field groups by its other fields). */
export function isAggregate(e: Expr): boolean {
  let found = false;
  visit(e, (x) => {
    if (x.kind === 'call' && AGGREGATE_FUNCTIONS.has(x.name.toLowerCase())) found = true;
  });
  return found;
}

/**
 * A source column as a PRD expression names it: `table.column`, each part quoted when it is not a
 * plain name (a source may name a column `Order Date`, `../x` or `select`).
 */
export function columnReference(table: string, column: string): string {
  return `${nameInExpression(table)}.${nameInExpression(column)}`;
}

/** A name as an expression writes it: as it is when plain, quoted otherwise. */
export const nameInExpression = (name: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !isReservedWord(name) ? name : quoteIdent(name);
