/**
 * Money kept as text: the PRD expression the offline analyst writes reads the usual ways amounts
 * are written, through the PRD grammar and on DuckDB, and flags every text that is no amount
 * (docs/offline-analyst.md#money-as-text).
 */
import { parseExpression } from '../../../shared/prd-sql/expression';
import { expressionSql } from '../../../shared/prd-sql/expression-sql';
import { MAX_EXPRESSION_LENGTH } from '../../../shared/prd-sql/expression-tokens';
import {
  holdsTextMoney,
  plainDecimal,
  textMoneyExpression,
  textMoneyScale,
  unparsedExpression,
} from '../../../domain/agents/offline-analyst/text-money';
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { memoryDuckDbPerSuite } from '../../harness/memory-duckdb';

const AMOUNTS: [string, string][] = [
  ['$1,234.50', '1234.50'],
  ['€ 12,00', '12.00'],
  ['1.234,50', '1234.50'],
  ['1.234.567,89', '1234567.89'],
  ['USD 99', '99.00'],
  ['12.00 EUR', '12.00'],
  ['-$5.00', '-5.00'],
  ['$-5.00', '-5.00'],
  ['1,234', '1234.00'],
  ["1'234.50", '1234.50'],
  ['1\u00a0234,56', '1234.56'],
  ['  £0.99 ', '0.99'],
  ['12.5', '12.50'],
  // accounting negatives: parentheses, a leading or trailing minus, with signs and separators
  ['(5.00)', '-5.00'],
  ['($1,234.50)', '-1234.50'],
  ['€ -12,00', '-12.00'],
  ['(€ 12,00)', '-12.00'],
  ['5.00-', '-5.00'],
  ['1.234,50-', '-1234.50'],
  ['$12.50-', '-12.50'],
  ['USD (99)', '-99.00'],
  ['( 7 )', '-7.00'],
];
const NOT_AMOUNTS = [
  'N/A',
  'pending',
  '#VALUE!',
  '1,2,3',
  '((5))',
  '(5.00',
  '5.00)',
  '--5',
  '5--',
  '(-5.00)',
  '-(5.00)',
  '-5.00-',
  '()',
  '-',
  '12-5',
  '+5',
  '1e5',
  '1_000',
  "'); DROP TABLE p; --",
  '$',
  '--',
];

describe('money kept as text', () => {
  const duck = memoryDuckDbPerSuite(async (conn) => {
    await conn.run('CREATE TABLE "pay ments"("amount $" VARCHAR)');
    for (const text of [...AMOUNTS.map(([t]) => t), ...NOT_AMOUNTS, '', '   '])
      await conn.run(`INSERT INTO "pay ments" VALUES ('${text.replace(/'/g, "''")}')`);
    await conn.run('INSERT INTO "pay ments" VALUES (NULL)');
  });

  // Written as the PRD holds it, parsed by the PRD grammar and written back as the build runs it.
  const built = (expression: string) => expressionSql(parseExpression(expression));
  const read = async () =>
    (
      await duck.conn.runAndReadAll(
        `SELECT "amount $" AS text, CAST(${built(textMoneyExpression('pay ments', 'amount $', 2))} AS VARCHAR) AS value, ${built(unparsedExpression('pay ments', 'amount $', 2))} AS unparsed FROM "pay ments"`,
      )
    ).getRowObjects() as { text: string | null; value: string | null; unparsed: number }[];

  it.each(AMOUNTS)('reads %s as %s, as the analyst reads its samples', async (text, value) => {
    const row = (await read()).find((r) => r.text === text)!;
    expect([row.value, row.unparsed]).toEqual([value, 0]);
    expect(Number(plainDecimal(text))).toBe(Number(value));
  });

  it.each(NOT_AMOUNTS)('flags %s as no amount, and reads it as NULL', async (text) => {
    const row = (await read()).find((r) => r.text === text)!;
    expect([row.value, row.unparsed]).toEqual([null, 1]);
    expect(plainDecimal(text)).toBeUndefined();
  });

  it('counts no missing or blank text as unparsed', async () => {
    const rows = (await read()).filter((r) => r.text === null || r.text.trim() === '');
    expect(rows.map((r) => [r.value, r.unparsed])).toEqual([
      [null, 0],
      [null, 0],
      [null, 0],
    ]);
  });

  it('stays within the PRD grammar for the longest names MySQL allows (64 characters)', () => {
    const expression = unparsedExpression('t'.repeat(64), 'c'.repeat(64), 10);
    expect(expression.length).toBeLessThanOrEqual(MAX_EXPRESSION_LENGTH);
    expect(() => parseExpression(expression)).not.toThrow();
  });

  const column: SourceColumn = {
    name: 'amount',
    type: 'varchar(20)',
    data_type: 'varchar',
    nullable: false,
  } as SourceColumn;
  const table = (values: string[]): SourceTable =>
    ({
      name: 'p',
      columns: [column],
      sample_rows: values.map((amount) => ({ amount })),
    }) as unknown as SourceTable;

  it('is recognised by its sampled values and keeps the scale they are written with', () => {
    expect(holdsTextMoney(table(['$1,234.50', '$12.00', 'N/A', '$3.10', '$0.99']), column)).toBe(true);
    expect(holdsTextMoney(table(['(12.50)', '$12.00', '(3.10)', '4.00-', 'N/A']), column)).toBe(true);
    expect(holdsTextMoney(table(['call us', 'N/A', 'free', '$3.10']), column)).toBe(false);
    expect(holdsTextMoney(table([]), column)).toBe(false);
    expect(textMoneyScale(table(['$1.2345', '$2.50']), column)).toBe(4);
    expect(textMoneyScale(table(['¥1,200', '¥300']), column)).toBe(2);
    expect(textMoneyScale(table(['(1.2555)', '$2.50']), column)).toBe(4);
  });
});
