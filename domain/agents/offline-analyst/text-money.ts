/**
 * Money stored as text (`'$1,234.50'`, `'€ 12,00'`, `'1.234,50'`, `'USD 99'`), as exports and old
 * systems keep it: recognised by the sampled values, parsed into DECIMAL at the source's scale by a
 * PRD expression DuckDB runs, and the rows whose text did not parse flagged for the quality report.
 */
import type { PrdField, PrdQualityRule } from '../../../shared/prd-schema';
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { columnReference } from '../../../shared/prd-sql/expression-sql';
import { identifier } from './name-words';
import { quoteLiteral as literal } from '../../../shared/sql-quoting';

const TEXT_TYPES = new Set(['char', 'varchar', 'text', 'tinytext', 'mediumtext', 'longtext']);

/** Whether the column is stored as text. */
export const isTextColumn = (column: SourceColumn): boolean => TEXT_TYPES.has(column.data_type);

// What is read past: currency signs, spaces (no-break and narrow ones too), apostrophes (1'234.50)
// and a three-letter currency code at either end.
const NOISE = "^[A-Za-z]{3}|[A-Za-z]{3}$|[[:space:]\\x{00A0}\\x{202F}$€£¥₹']";
const NOISE_JS = /^[A-Za-z]{3}|[A-Za-z]{3}$|[\s\u00a0\u202f$€£¥₹']/g;
/**
 * Accounting negatives, once the noise is read past: `(5.00)` in parentheses and `5.00-` with a
 * trailing minus, written with a leading minus instead (`-5.00`). What is inside may hold no sign
 * or parenthesis of its own: `((5))`, `(-5)` and `5--` stay no amount.
 */
const NEGATIVE = '^[(]([^()+-]+)[)]$|^([^()+-]+)-$';
const NEGATIVE_JS = new RegExp(NEGATIVE);
/** `1.234` and `1.234.567,89`: dots group thousands, a comma marks the decimals. */
const DOT_GROUPS = '^-?[0-9]{1,3}([.][0-9]{3})+(,[0-9]+)?$';
/** `12,00`, `1234,5` and `,05` (no leading zero): a comma marks the decimals. */
const DECIMAL_COMMA = '^-?[0-9]*,[0-9]{1,2}$';
/** `1,234` and `1,234,567.89`: commas group thousands. */
const COMMA_GROUPS = '^-?[0-9]{1,3}(,[0-9]{3})+([.][0-9]+)?$';
/** `-1234.50`, `12`, `.5`: a plain decimal, as DuckDB and the analyst read it alike (no `1e5`, `+5`). */
const PLAIN = '^-?([0-9]+([.][0-9]*)?|[.][0-9]+)$';
const PLAIN_JS = new RegExp(PLAIN);

/** The text as a plain decimal (`'€ 1.234,50'` → `'1234.50'`), or undefined when it is no amount. */
export function plainDecimal(text: string): string | undefined {
  const s = text.trim().replace(NOISE_JS, '').replace(NEGATIVE_JS, '-$1$2');
  const plain = new RegExp(DOT_GROUPS).test(s)
    ? s.replace(/[.]/g, '').replace(',', '.')
    : new RegExp(DECIMAL_COMMA).test(s)
      ? s.replace(',', '.')
      : new RegExp(COMMA_GROUPS).test(s)
        ? s.replace(/,/g, '')
        : s;
  return PLAIN_JS.test(plain) ? plain : undefined;
}

/** The sampled values of a column that are set (not null, not blank), as text. */
const sampled = (table: SourceTable, column: SourceColumn): string[] =>
  table.sample_rows
    .map((r) => r[column.name])
    .filter((v) => v !== null && v !== undefined && String(v).trim() !== '')
    .map(String);

/**
 * Whether a text column holds amounts: three in five of its sampled values (or more) read as
 * numbers once signs and separators are read past. The caller has read its name as money or a price.
 */
export function holdsTextMoney(table: SourceTable, column: SourceColumn): boolean {
  if (!isTextColumn(column)) return false;
  const values = sampled(table, column);
  const parsed = values.filter((v) => plainDecimal(v) !== undefined);
  return values.length > 0 && parsed.length >= 0.6 * values.length;
}

/** The decimals the source writes (the most any sampled value has), at least 2 and at most 10. */
export function textMoneyScale(table: SourceTable, column: SourceColumn): number {
  const decimals = sampled(table, column)
    .map(plainDecimal)
    .map((p) => (p?.includes('.') ? p.split('.')[1].length : 0));
  return Math.min(Math.max(2, ...decimals), 10);
}

/**
 * The PRD expression that reads the text as DECIMAL(38, scale), NULL when it does not parse: noise
 * read past, an accounting negative written with a leading minus, then the separators read by their
 * pattern (thousands by dots, a decimal comma, thousands by commas, else a plain decimal as written),
 * then a TRY_CAST. Text that is none of these is NULL.
 */
export function textMoneyExpression(table: string, column: string, scale: number): string {
  const ref = columnReference(table, column);
  const bare = `regexp_replace(trim(${ref}), ${literal(NOISE)}, '', 'g')`;
  const s = `regexp_replace(${bare}, ${literal(NEGATIVE)}, ${literal('-\\1\\2')})`;
  const plain =
    `CASE WHEN regexp_matches(${s}, ${literal(DOT_GROUPS)}) THEN replace(replace(${s}, '.', ''), ',', '.') ` +
    `WHEN regexp_matches(${s}, ${literal(DECIMAL_COMMA)}) THEN replace(${s}, ',', '.') ` +
    `WHEN regexp_matches(${s}, ${literal(COMMA_GROUPS)}) THEN replace(${s}, ',', '') ` +
    `WHEN regexp_matches(${s}, ${literal(PLAIN)}) THEN ${s} END`;
  return `TRY_CAST(${plain} AS DECIMAL(38,${scale}))`;
}

/** 1 on a row whose text is set but did not parse, else 0: what the quality rule counts. */
export function unparsedExpression(table: string, column: string, scale: number): string {
  const ref = columnReference(table, column);
  return `CASE WHEN nullif(trim(${ref}), '') IS NOT NULL AND ${textMoneyExpression(table, column, scale)} IS NULL THEN 1 ELSE 0 END`;
}

/** What a fact's analysis says of its columns (as far as it is read here: table-roles.ts has the rest). */
interface ReadFact {
  table: SourceTable;
  /** Each column's meaning (column-meaning.ts). */
  meaning: ReadonlyMap<string, string>;
}

/** Meanings of numbers a fact may keep as text: money and prices, and quantities, durations, sizes, levels. */
const TEXT_NUMBERS = new Set(['money', 'unit_price', 'quantity', 'duration', 'size', 'level']);

/**
 * The text number columns of a fact: columns read as money, a price or another measure that are
 * stored as text; the DWD column of the name is the parsed number, the text kept beside it.
 */
export function textMoneyColumns(fact: ReadFact): SourceColumn[] {
  return fact.table.columns.filter(
    (c) => isTextColumn(c) && TEXT_NUMBERS.has(fact.meaning.get(c.name) ?? ''),
  );
}

/**
 * What the DWD adds for each text money column, and the quality rule that counts its rows whose
 * text did not parse (a `<column>_unparsed` flag the rule holds at 0; its samples show the text).
 */
export function textMoneyChecks(
  fact: ReadFact,
  dwdName: string,
): { fields: PrdField[]; rules: PrdQualityRule[] } {
  const columns = textMoneyColumns(fact);
  const t = fact.table;
  return {
    fields: columns.map((c) => ({
      name: unparsedName(c),
      type: 'INTEGER',
      source: unparsedExpression(t.name, c.name, textMoneyScale(t, c)),
      description: `1 when ${c.name} holds text that is no amount (kept as ${rawName(c)}), else 0`,
    })),
    rules: columns.map((c) => ({
      name: `${t.name}.${c.name} reads as ${['money', 'unit_price'].includes(fact.meaning.get(c.name) ?? '') ? 'money' : 'a number'}`,
      layer: 'dwd',
      table: dwdName,
      column: unparsedName(c),
      kind: 'range',
      params: { max: 0 },
      severity: 'warning',
    })),
  };
}

/** The DWD name of a text money column's own text (its parsed value takes the column's name). */
export const rawName = (column: SourceColumn): string => identifier(`${column.name}_text`);
const unparsedName = (column: SourceColumn): string => identifier(`${column.name}_unparsed`);
