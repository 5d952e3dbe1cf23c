/**
 * The PRD's type and expression grammars (docs/security.md#prd-fields-are-data): what analysts
 * write is accepted and written back as the same computation; SQL smuggled into a field is refused;
 * any name a source may have survives quoting, as DuckDB's own parser reads it.
 */
import fc from 'fast-check';
import { checkSqlType } from '../../../shared/prd-sql/sql-type';
import { columnsOf, ExpressionError, parseExpression } from '../../../shared/prd-sql/expression';
import { columnReference, expressionSql, isAggregate } from '../../../shared/prd-sql/expression-sql';
import { memoryDuckDbPerSuite } from '../../harness/memory-duckdb';
import { thrownBy } from '../../harness/thrown';

const sqlOf = (text: string) => expressionSql(parseExpression(text));

describe('the type grammar', () => {
  it.each([
    ['BIGINT', 'BIGINT'],
    ['decimal(10, 2)', 'DECIMAL(10,2)'],
    ['DECIMAL', 'DECIMAL(18,3)'],
    ['numeric(5)', 'DECIMAL(5,0)'],
    ['varchar', 'VARCHAR'],
    ['VARCHAR(40)', 'VARCHAR(40)'],
    ['double precision', 'DOUBLE'],
    ['timestamp with time zone', 'TIMESTAMPTZ'],
    ['int', 'INTEGER'],
    ['DATE', 'DATE'],
  ])('accepts %s as %s', (text, normal) => {
    expect(checkSqlType(text)).toEqual({ ok: true, type: normal });
  });

  it.each([
    "INTEGER); COPY (SELECT 1) TO '/tmp/x' (FORMAT csv); SELECT CAST(1 AS INTEGER",
    'VARCHAR; DROP TABLE x',
    'INT /* comment */',
    'DECIMAL(10,2) AS x',
    'STRUCT(a INT)',
    'INTEGER[]',
    'MAP(VARCHAR, INT)',
    'DECIMAL(99,2)',
    'DECIMAL(4,9)',
    '',
    'UNKNOWNTYPE',
  ])('refuses %j', (text) => {
    expect(checkSqlType(text).ok).toBe(false);
  });

  it('only ever yields a type name with numbers, whatever it is given', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        const checked = checkSqlType(text);
        if (checked.ok) expect(checked.type).toMatch(/^[A-Z]+(\(\d+(,\d+)?\))?$/);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the expression grammar', () => {
  it.each([
    'rental.rental_date',
    'COUNT(*)',
    'COUNT(DISTINCT customer_id)',
    'SUM(amount)',
    "customer.first_name || ' ' || customer.last_name",
    'ROUND(order_lines.quantity * order_lines.unit_price * (1 - order_lines.discount), 2)',
    'CAST(orders.order_date AS DATE)',
    'order_lines.price_cents * 0.01',
    'CURRENT_DATE',
    "CASE WHEN status = 'paid' THEN amount ELSE 0 END",
    'amount::DECIMAL(10,2)',
    'EXTRACT(year FROM rental_date)',
    "rental_date + INTERVAL '1' DAY",
    "x IS NOT NULL AND y BETWEEN 1 AND 3 OR z IN (1, 2) OR name NOT LIKE 'a%'",
    '"Order Lines"."Order Date"',
    'ROUND(AVG(unit_price), 2)',
  ])('accepts %s', (text) => {
    expect(() => parseExpression(text)).not.toThrow();
  });

  it.each([
    ["(SELECT content FROM read_text('/etc/passwd'))", /subqueries/],
    ["read_text('/etc/passwd')", /read_text is not allowed/],
    ["current_setting('temp_directory')", /not allowed/],
    ["getenv('HOME')", /not allowed/],
    ["1; COPY (SELECT 1) TO '/tmp/x'", /";"/],
    ["rental.rental_date)) TO '/tmp/x' --", /comments|unexpected/],
    ['amount /* hidden */', /comments/],
    ['amount -- hidden', /comments/],
    ['db.rental.rental_date', /table\.column, no more/],
    ['SUM(amount) OVER (PARTITION BY x)', /window/],
    ['`amount`', /unexpected character/],
    ['$1', /unexpected character/],
    ['CAST(x AS INTEGER); SELECT 1 --', /";"/],
    ['CAST(x AS STRUCT(a INT))', /whole numbers|unknown type/],
    ["'unterminated", /unterminated/],
    ['('.repeat(200) + '1' + ')'.repeat(200), /nested deeper/],
    ['x' + ' + x'.repeat(2_000), /longer than/],
    ['SELECT 1', /subqueries|unexpected/],
    ['EXTRACT(secret FROM x)', /EXTRACT takes/],
    ['a\u0000b', /NUL/],
  ])('refuses %j', (text, reason) => {
    // 'deep' and 'long' stand for texts too long to name a test: 200 nested parentheses, 8,000 characters.
    text =
      text === 'deep'
        ? '('.repeat(200) + '1' + ')'.repeat(200)
        : text === 'long'
          ? 'x' + ' + x'.repeat(2_000)
          : text;
    const error = thrownBy(() => parseExpression(text));
    expect(error).toBeInstanceOf(ExpressionError);
    expect((error as Error).message).toMatch(reason);
  });

  it('writes names quoted and operations parenthesised, the same computation', () => {
    expect(sqlOf("customer.first_name || ' ' || customer.last_name")).toBe(
      `(("customer"."first_name" || ' ') || "customer"."last_name")`,
    );
    expect(sqlOf('a + b * c')).toBe('("a" + ("b" * "c"))');
    expect(sqlOf("name = 'O''Hara'")).toBe(`("name" = 'O''Hara')`);
    expect(sqlOf('amount::decimal(10,2)')).toBe('CAST("amount" AS DECIMAL(10,2))');
  });

  it('tells aggregates from row expressions', () => {
    expect(isAggregate(parseExpression('ROUND(AVG(x), 2)'))).toBe(true);
    expect(isAggregate(parseExpression('COUNT(*)'))).toBe(true);
    expect(isAggregate(parseExpression('ROUND(x, 2)'))).toBe(false);
  });

  it('writing back is stable: what it writes parses to the same SQL', () => {
    const samples = [
      "CASE WHEN a.b > 1 THEN 'x' ELSE NULL END",
      'COUNT(DISTINCT "Customer Id")',
      "-x + +y - (z || 'q')",
      'NOT a IS DISTINCT FROM b',
    ];
    for (const text of samples) expect(sqlOf(sqlOf(text))).toBe(sqlOf(text));
  });

  it('refuses or accepts any text without throwing anything but its own error', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        try {
          const sql = sqlOf(text);
          // Accepted: its SQL parses again, and no statement break or comment got through.
          expect(sqlOf(sql)).toBe(sql);
        } catch (err) {
          expect(err).toBeInstanceOf(ExpressionError);
        }
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('source names in expressions', () => {
  const duck = memoryDuckDbPerSuite();

  // Any name MySQL allows (any character but NUL), with the ones that look like paths and SQL.
  const sourceName = fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }).filter((s) => !s.includes('\u0000')),
    fc.constantFrom(
      '../../etc/passwd',
      'a/b',
      "x'; DROP TABLE y; --",
      '"q"',
      'select',
      'Order Date',
      '.',
      '..',
    ),
  );

  it('name any column whatever its name, and DuckDB reads the same column', async () => {
    const samples = fc.sample(fc.tuple(sourceName, sourceName), { numRuns: 150, seed: 41 });
    for (const [table, column] of samples) {
      const text = columnReference(table, column);
      expect(columnsOf(parseExpression(text))).toEqual([{ table, column }]);
      // DuckDB's parser sees one statement naming exactly that column.
      const sql = `SELECT ${expressionSql(parseExpression(text))}`;
      const reader = await duck.conn.runAndReadAll(
        `SELECT json_serialize_sql(${"'" + sql.replace(/'/g, "''") + "'"}) AS tree`,
      );
      const tree = JSON.parse(String(reader.getRowObjectsJS()[0].tree)) as {
        error: boolean;
        statements: { node: { select_list: { class: string; column_names: string[] }[] } }[];
      };
      expect(tree.error).toBe(false);
      expect(tree.statements).toHaveLength(1);
      const [item] = tree.statements[0].node.select_list;
      expect(item.class).toBe('COLUMN_REF');
      expect(item.column_names).toEqual([table, column]);
    }
  });
});
