/**
 * The warehouse types a PRD field may have (docs/security.md#prd-fields-are-data): a fixed grammar,
 * never SQL text. A type is written back in its normal form, so what the build runs is what was
 * checked, on DuckDB and on Athena alike.
 */

/** Type names with no arguments, by their normal form (aliases map to it). */
const PLAIN_TYPES: Record<string, string> = {
  BOOLEAN: 'BOOLEAN',
  BOOL: 'BOOLEAN',
  TINYINT: 'TINYINT',
  SMALLINT: 'SMALLINT',
  INTEGER: 'INTEGER',
  INT: 'INTEGER',
  BIGINT: 'BIGINT',
  HUGEINT: 'HUGEINT',
  UTINYINT: 'UTINYINT',
  USMALLINT: 'USMALLINT',
  UINTEGER: 'UINTEGER',
  UBIGINT: 'UBIGINT',
  FLOAT: 'FLOAT',
  REAL: 'FLOAT',
  DOUBLE: 'DOUBLE',
  DATE: 'DATE',
  TIME: 'TIME',
  TIMESTAMP: 'TIMESTAMP',
  DATETIME: 'TIMESTAMP',
  TIMESTAMPTZ: 'TIMESTAMPTZ',
  INTERVAL: 'INTERVAL',
  BLOB: 'BLOB',
  VARBINARY: 'BLOB',
  UUID: 'UUID',
  JSON: 'JSON',
};

/** Type names that take a length (ignored by DuckDB, kept for Athena). */
const SIZED_TEXT: Record<string, string> = {
  VARCHAR: 'VARCHAR',
  TEXT: 'VARCHAR',
  STRING: 'VARCHAR',
  CHAR: 'VARCHAR',
};

/** Type names that take a precision and scale. */
const EXACT_NUMERIC = new Set(['DECIMAL', 'NUMERIC']);

/** MySQL's widest DECIMAL (a source column's type as the analyst writes it; DuckDB keeps 38 digits). */
const MAX_PRECISION = 65;

/** A type read from words and numbers, before it is checked (see {@link normalSqlType}). */
export interface SqlTypeWords {
  /** The type's words, upper case (`DOUBLE PRECISION`, `TIMESTAMP WITH TIME ZONE`). */
  words: string[];
  /** The numbers in its parentheses, if any. */
  args: number[];
}

/** The result of checking a type: its normal form, or why it is not one. */
export type SqlTypeCheck = { ok: true; type: string } | { ok: false; reason: string };

/** Checks the words of a type against the grammar and returns its normal form. */
export function normalSqlType({ words, args }: SqlTypeWords): SqlTypeCheck {
  const name = words.join(' ');
  const refuse = (reason: string): SqlTypeCheck => ({ ok: false, reason });
  if (name === 'DOUBLE PRECISION') return args.length ? refuse('DOUBLE takes no arguments') : ok('DOUBLE');
  if (name === 'TIMESTAMP WITH TIME ZONE')
    return args.length ? refuse(`${name} takes no arguments`) : ok('TIMESTAMPTZ');
  if (words.length !== 1) return refuse(`unknown type ${name}`);
  if (name in PLAIN_TYPES) {
    // TIMESTAMP(3) on Athena: a precision DuckDB ignores.
    if (args.length && !(name === 'TIMESTAMP' && args.length === 1 && args[0] <= 9))
      return refuse(`${name} takes no arguments`);
    return ok(PLAIN_TYPES[name]);
  }
  if (name in SIZED_TEXT) {
    if (args.length > 1) return refuse(`${name} takes one length at most`);
    if (args.length && (args[0] < 1 || args[0] > 65_535)) return refuse(`${name} length must be 1 to 65535`);
    return ok(args.length ? `${SIZED_TEXT[name]}(${args[0]})` : SIZED_TEXT[name]);
  }
  if (EXACT_NUMERIC.has(name)) {
    // DuckDB's defaults: DECIMAL is DECIMAL(18,3), DECIMAL(p) is DECIMAL(p,0).
    const precision = args[0] ?? 18;
    const scale = args.length ? (args[1] ?? 0) : 3;
    if (args.length > 2) return refuse(`${name} takes a precision and a scale at most`);
    if (precision < 1 || precision > MAX_PRECISION)
      return refuse(`${name} precision must be 1 to ${MAX_PRECISION}`);
    if (scale > precision) return refuse(`${name} scale must not exceed its precision`);
    return ok(`DECIMAL(${precision},${scale})`);
  }
  return refuse(`unknown type ${name}`);
}

const ok = (type: string): SqlTypeCheck => ({ ok: true, type });

/** `DECIMAL ( 10 , 2 )`, `double precision`, `VARCHAR`: words, then numbers in parentheses. */
const TYPE_TEXT = /^\s*([A-Za-z]+(?:\s+[A-Za-z]+)*)\s*(?:\(\s*(\d{1,5})\s*(?:,\s*(\d{1,5})\s*)?\))?\s*$/;

/**
 * A PRD field's `type` checked against the grammar: its normal form (`DECIMAL(10,2)`, `VARCHAR`),
 * or why it is refused. Nothing but words, digits, one pair of parentheses and a comma gets through.
 */
export function checkSqlType(text: string): SqlTypeCheck {
  const match = TYPE_TEXT.exec(text);
  if (!match)
    return {
      ok: false,
      reason: 'not a warehouse type (e.g. BIGINT, DECIMAL(10,2), VARCHAR, DATE, TIMESTAMP)',
    };
  const words = match[1].toUpperCase().split(/\s+/);
  const args = [match[2], match[3]].filter((a) => a !== undefined).map(Number);
  return normalSqlType({ words, args });
}
