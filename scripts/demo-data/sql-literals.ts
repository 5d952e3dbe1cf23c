/**
 * Writing SQL text for MySQL/MariaDB: quoted identifiers and literals, exact decimals from integers
 * (never from floating point, so amounts add up to the cent), and multi-row INSERT batches.
 */

/** A value already written as SQL (a DECIMAL literal, an expression). */
export class SqlText {
  constructor(readonly text: string) {}
}

/** What a generated row holds: text (quoted on output), integers, NULL or ready SQL. */
export type SqlValue = string | number | null | SqlText;

/** A backquoted identifier. */
export function ident(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/** A string literal, escaped for the default SQL mode (backslash escapes on). */
export function quote(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "''")
    .replace(/\0/g, '\\0')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replaceAll('\x1a', '\\Z');
  return `'${escaped}'`;
}

/** One value as SQL; numbers must be safe integers (use {@link decimal} for fractions). */
export function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (value instanceof SqlText) return value.text;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not an exact integer: ${value} (use decimal())`);
    return String(value);
  }
  return quote(value);
}

/** The exact decimal `units / 10^scale`, e.g. `decimal(1999, 2)` → 19.99. */
export function decimal(units: number, scale: number): SqlText {
  if (!Number.isSafeInteger(units)) throw new Error(`decimal units must be an integer, got ${units}`);
  const sign = units < 0 ? '-' : '';
  const digits = String(Math.abs(units)).padStart(scale + 1, '0');
  if (scale === 0) return new SqlText(sign + digits);
  return new SqlText(`${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`);
}

/** A DECIMAL(…,2) amount from integer cents. */
export function money(cents: number): SqlText {
  return decimal(cents, 2);
}

/** Rounds half away from zero, as MySQL's ROUND does on exact decimals. */
export function roundHalfUp(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** `INSERT INTO t (cols) VALUES (...),(...)` statements of at most `batchRows` rows each. */
export function insertStatements(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
  batchRows = 500,
): string[] {
  const head = `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES\n`;
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += batchRows) {
    const values = rows.slice(start, start + batchRows).map((row) => `(${row.map(literal).join(',')})`);
    statements.push(head + values.join(',\n'));
  }
  return statements;
}
