/**
 * The tokens of a PRD field's expression. Anything that is not a number, a string, a name, a
 * quoted name or one of the operators below is refused here: comments, `;`, backticks, `$`
 * parameters and dollar quotes never reach the parser.
 */

export type Token =
  | { kind: 'number'; text: string; at: number }
  | { kind: 'string'; value: string; at: number }
  | { kind: 'word'; text: string; at: number }
  | { kind: 'quoted'; name: string; at: number }
  | { kind: 'op'; text: string; at: number }
  | { kind: 'end'; at: number };

/** An expression that is not one of the PRD's (syntax or a forbidden construct), with where. */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

/** Longest expression text a field may have. */
export const MAX_EXPRESSION_LENGTH = 4_000;

const OPERATORS = [
  '::',
  '||',
  '<=',
  '>=',
  '<>',
  '!=',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '.',
];
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const WORD = /^[A-Za-z_][A-Za-z0-9_]*/;

/** The expression's tokens, ending with an `end` token. */
export function tokenize(text: string): Token[] {
  if (text.length > MAX_EXPRESSION_LENGTH)
    throw new ExpressionError(`longer than ${MAX_EXPRESSION_LENGTH} characters`, MAX_EXPRESSION_LENGTH);
  if (text.includes('\0')) throw new ExpressionError('a NUL character', text.indexOf('\0'));
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (rest.startsWith('--') || rest.startsWith('/*'))
      throw new ExpressionError('comments are not allowed in an expression', i);
    if (c === ';') throw new ExpressionError('one expression only: no ";"', i);
    if (c === "'" || c === '"') {
      const { value, end } = readQuoted(text, i, c);
      tokens.push(c === "'" ? { kind: 'string', value, at: i } : { kind: 'quoted', name: value, at: i });
      i = end;
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number) {
      if (WORD.test(rest.slice(number[0].length)))
        throw new ExpressionError(`a number runs into a name at ${i}`, i);
      tokens.push({ kind: 'number', text: number[0], at: i });
      i += number[0].length;
      continue;
    }
    const word = WORD.exec(rest);
    if (word) {
      tokens.push({ kind: 'word', text: word[0], at: i });
      i += word[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op) throw new ExpressionError(`unexpected character ${JSON.stringify(c)} at ${i}`, i);
    tokens.push({ kind: 'op', text: op, at: i });
    i += op.length;
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}

/** A quoted string or name from `start` (its opening quote): the value with doubled quotes undone. */
function readQuoted(text: string, start: number, quote: string): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const next = text.indexOf(quote, i);
    if (next < 0)
      throw new ExpressionError(`unterminated ${quote === "'" ? 'string' : 'quoted name'}`, start);
    value += text.slice(i, next);
    if (text[next + 1] === quote) {
      value += quote;
      i = next + 2;
      continue;
    }
    if (quote === '"' && !value) throw new ExpressionError('an empty quoted name', start);
    return { value, end: next + 1 };
  }
}
