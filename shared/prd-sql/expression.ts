/**
 * A PRD field's expression, parsed (docs/security.md#prd-fields-are-data). PRD fields are data,
 * not SQL text: an expression is read by this grammar (column references, literals, operators,
 * CASE, CAST, EXTRACT, INTERVAL and calls of the allowed functions) into a tree, and the build writes
 * SQL from the tree, never from the text. Subqueries, table functions, a second statement,
 * comments and any function not on the allow list are refused.
 */
import { SIZED_ARGUMENT } from '../sql-size-bounds';
import { EXTRACT_PARTS, INTERVAL_UNITS, isAllowedFunction } from './expression-functions';
import { ExpressionError, tokenize, type Token } from './expression-tokens';
import { normalSqlType } from './sql-type';

export { ExpressionError } from './expression-tokens';

/** A parsed expression. */
export type Expr =
  | { kind: 'column'; table?: string; column: string }
  | { kind: 'number'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'keyword'; word: 'NULL' | 'TRUE' | 'FALSE' | 'CURRENT_DATE' | 'CURRENT_TIMESTAMP' }
  | { kind: 'typed'; type: 'DATE' | 'TIMESTAMP' | 'TIME'; value: string }
  | { kind: 'interval'; value: string; unit?: string }
  | { kind: 'call'; name: string; distinct: boolean; star: boolean; args: Expr[] }
  | { kind: 'unary'; op: '-' | '+' | 'NOT'; arg: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'is'; arg: Expr; not: boolean; what: 'NULL' | 'TRUE' | 'FALSE' }
  | { kind: 'distinct_from'; left: Expr; right: Expr; not: boolean }
  | { kind: 'between'; arg: Expr; low: Expr; high: Expr; not: boolean }
  | { kind: 'in'; arg: Expr; list: Expr[]; not: boolean }
  | { kind: 'like'; op: 'LIKE' | 'ILIKE'; arg: Expr; pattern: Expr; not: boolean }
  | { kind: 'case'; operand?: Expr; whens: { when: Expr; then: Expr }[]; otherwise?: Expr }
  | { kind: 'cast'; arg: Expr; type: string; lenient: boolean }
  | { kind: 'extract'; part: string; from: Expr };

/** Words that never name a column unquoted: a query's clauses among them, so `(SELECT …)` is refused by name. */
const RESERVED = new Set(
  (
    'select from where group having order limit offset union intersect except with as and or not is null ' +
    'true false case when then else end cast try_cast extract interval between in like ilike distinct ' +
    'over filter within join on using into values table lateral pragma attach copy install load set call'
  ).split(' '),
);

/** Whether `word` must be quoted to name a column. */
export const isReservedWord = (word: string): boolean => RESERVED.has(word.toLowerCase());

/** Deepest nesting an expression may have (a stack that cannot be blown). */
const MAX_DEPTH = 64;

/** Parses one PRD expression; throws {@link ExpressionError} naming what is wrong and where. */
export function parseExpression(text: string): Expr {
  const parser = new Parser(tokenize(text));
  const expr = parser.expression();
  parser.expectEnd();
  return expr;
}

/** The columns an expression names, in order of appearance. */
export function columnsOf(expr: Expr): { table?: string; column: string }[] {
  const out: { table?: string; column: string }[] = [];
  visit(expr, (e) => {
    if (e.kind === 'column') out.push({ table: e.table, column: e.column });
  });
  return out;
}

/** Every node of the tree, parents before children. */
export function visit(expr: Expr, fn: (e: Expr) => void): void {
  fn(expr);
  for (const child of childrenOf(expr)) visit(child, fn);
}

function childrenOf(e: Expr): Expr[] {
  switch (e.kind) {
    case 'call':
      return e.args;
    case 'unary':
    case 'is':
    case 'cast':
      return [e.arg];
    case 'binary':
    case 'distinct_from':
      return [e.left, e.right];
    case 'between':
      return [e.arg, e.low, e.high];
    case 'in':
      return [e.arg, ...e.list];
    case 'like':
      return [e.arg, e.pattern];
    case 'case':
      return [
        ...(e.operand ? [e.operand] : []),
        ...e.whens.flatMap((w) => [w.when, w.then]),
        ...(e.otherwise ? [e.otherwise] : []),
      ];
    case 'extract':
      return [e.from];
    default:
      return [];
  }
}

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  expression(): Expr {
    if (++this.depth > MAX_DEPTH) throw this.error(`nested deeper than ${MAX_DEPTH} levels`);
    try {
      return this.or();
    } finally {
      this.depth--;
    }
  }

  expectEnd(): void {
    if (this.peek().kind !== 'end')
      throw this.error(`unexpected ${describe(this.peek())} after the expression`);
  }

  private or(): Expr {
    let left = this.and();
    while (this.acceptWord('OR')) left = { kind: 'binary', op: 'OR', left, right: this.and() };
    return left;
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptWord('AND')) left = { kind: 'binary', op: 'AND', left, right: this.not() };
    return left;
  }

  private not(): Expr {
    if (this.acceptWord('NOT')) return { kind: 'unary', op: 'NOT', arg: this.nested(() => this.not()) };
    return this.comparison();
  }

  private comparison(): Expr {
    const left = this.additive();
    const t = this.peek();
    if (t.kind === 'op' && COMPARISONS.has(t.text)) {
      this.pos++;
      return { kind: 'binary', op: t.text === '!=' ? '<>' : t.text, left, right: this.additive() };
    }
    if (this.acceptWord('IS')) {
      const not = this.acceptWord('NOT');
      if (this.acceptWord('DISTINCT')) {
        this.expectWord('FROM');
        return { kind: 'distinct_from', left, right: this.additive(), not };
      }
      const what = this.expectWord('NULL', 'TRUE', 'FALSE') as 'NULL' | 'TRUE' | 'FALSE';
      return { kind: 'is', arg: left, not, what };
    }
    const not = this.acceptWord('NOT');
    if (this.acceptWord('BETWEEN')) {
      const low = this.additive();
      this.expectWord('AND');
      return { kind: 'between', arg: left, low, high: this.additive(), not };
    }
    if (this.acceptWord('IN')) {
      this.expectOp('(');
      const list = this.list();
      this.expectOp(')');
      return { kind: 'in', arg: left, list, not };
    }
    const like = this.acceptWord('LIKE') ? 'LIKE' : this.acceptWord('ILIKE') ? 'ILIKE' : undefined;
    if (like) return { kind: 'like', op: like, arg: left, pattern: this.additive(), not };
    if (not) throw this.error('NOT must be followed by BETWEEN, IN, LIKE or ILIKE here');
    return left;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (let op = this.acceptOp('+', '-', '||'); op; op = this.acceptOp('+', '-', '||'))
      left = { kind: 'binary', op, left, right: this.multiplicative() };
    return left;
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (let op = this.acceptOp('*', '/', '%'); op; op = this.acceptOp('*', '/', '%'))
      left = { kind: 'binary', op, left, right: this.unary() };
    return left;
  }

  private unary(): Expr {
    const op = this.acceptOp('-', '+');
    if (op) return { kind: 'unary', op: op as '-' | '+', arg: this.nested(() => this.unary()) };
    let expr = this.primary();
    while (this.acceptOp('::')) expr = { kind: 'cast', arg: expr, type: this.type(), lenient: false };
    return expr;
  }

  private primary(): Expr {
    const t = this.next();
    if (t.kind === 'number') return { kind: 'number', text: t.text };
    if (t.kind === 'string') return { kind: 'string', value: t.value };
    if (t.kind === 'quoted') return this.columnFrom(t.name);
    if (t.kind === 'op' && t.text === '(') {
      if (this.peekWord('SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE'))
        throw this.error('subqueries are not allowed in a PRD expression');
      const inner = this.expression();
      this.expectOp(')');
      return inner;
    }
    if (t.kind !== 'word') throw this.error(`unexpected ${describe(t)}`, t);
    const word = t.text.toUpperCase();
    switch (word) {
      case 'NULL':
      case 'TRUE':
      case 'FALSE':
        return { kind: 'keyword', word };
      case 'CURRENT_DATE':
      case 'CURRENT_TIMESTAMP':
        if (!this.peekOp('(')) return { kind: 'keyword', word };
        break;
      case 'CASE':
        return this.caseExpr();
      case 'CAST':
      case 'TRY_CAST': {
        this.expectOp('(');
        const arg = this.expression();
        this.expectWord('AS');
        const type = this.type();
        this.expectOp(')');
        return { kind: 'cast', arg, type, lenient: word === 'TRY_CAST' };
      }
      case 'EXTRACT': {
        this.expectOp('(');
        const part = this.next();
        if (part.kind !== 'word' || !EXTRACT_PARTS.has(part.text.toLowerCase()))
          throw this.error(`EXTRACT takes one of ${[...EXTRACT_PARTS].join(', ')}`, part);
        this.expectWord('FROM');
        const from = this.expression();
        this.expectOp(')');
        return { kind: 'extract', part: part.text.toUpperCase(), from };
      }
      case 'INTERVAL': {
        const value = this.next();
        if (value.kind !== 'string' && value.kind !== 'number')
          throw this.error('INTERVAL takes a number or a string', value);
        const v = value.kind === 'string' ? value.value : value.text;
        if (!/^\s*-?\d+(\.\d+)?\s*[a-z]*\s*$/i.test(v))
          throw this.error(`not an interval: ${JSON.stringify(v)}`, value);
        const unit = this.peek();
        if (unit.kind === 'word' && INTERVAL_UNITS.has(unit.text.toLowerCase())) {
          this.pos++;
          return { kind: 'interval', value: v, unit: unit.text.toUpperCase() };
        }
        return { kind: 'interval', value: v };
      }
      case 'DATE':
      case 'TIMESTAMP':
      case 'TIME': {
        const literal = this.peek();
        if (literal.kind === 'string') {
          this.pos++;
          if (!/^[0-9: .T+-]*$/.test(literal.value))
            throw this.error(`not a ${word}: ${JSON.stringify(literal.value)}`, literal);
          return { kind: 'typed', type: word, value: literal.value };
        }
        break;
      }
      case 'SELECT':
      case 'WITH':
        throw this.error('subqueries are not allowed in a PRD expression', t);
    }
    if (this.peekOp('(')) return this.call(t.text);
    if (RESERVED.has(t.text.toLowerCase())) throw this.error(`unexpected ${t.text}`, t);
    return this.columnFrom(t.text);
  }

  /** `name` or `table.name` (quoted or not); a third part is refused. */
  private columnFrom(first: string): Expr {
    if (!this.acceptOp('.')) return { kind: 'column', column: first };
    const second = this.next();
    if (second.kind !== 'word' && second.kind !== 'quoted')
      throw this.error('a column name must follow "."', second);
    const column = second.kind === 'word' ? second.text : second.name;
    if (this.peekOp('.')) throw this.error('a column is named as column or table.column, no more');
    if (this.peekOp('(')) throw this.error('functions are called by their name alone');
    return { kind: 'column', table: first, column };
  }

  private call(name: string): Expr {
    if (!isAllowedFunction(name)) throw this.error(`function ${name} is not allowed in a PRD expression`);
    this.expectOp('(');
    if (this.acceptOp(')'))
      return this.afterCall({ kind: 'call', name, distinct: false, star: false, args: [] });
    if (this.peekOp('*')) {
      this.pos++;
      this.expectOp(')');
      if (name.toLowerCase() !== 'count') throw this.error(`only COUNT takes *`);
      return this.afterCall({ kind: 'call', name, distinct: false, star: true, args: [] });
    }
    const distinct = this.acceptWord('DISTINCT');
    const args = this.list();
    this.expectOp(')');
    // A size set by an argument is a number written here, within its bound (docs/security.md#bounded-constants).
    const sized = SIZED_ARGUMENT[name.toLowerCase()];
    const size = sized && args[sized.index];
    if (size && !(size.kind === 'number' && Number(size.text) <= sized.max))
      throw this.error(`${name} may build at most ${sized.max} ${sized.unit}, written as a number`);
    return this.afterCall({ kind: 'call', name, distinct, star: false, args });
  }

  private afterCall(call: Expr): Expr {
    if (this.peekWord('OVER', 'FILTER', 'WITHIN'))
      throw this.error('window functions and filters are not allowed');
    return call;
  }

  private caseExpr(): Expr {
    const operand = this.peekWord('WHEN') ? undefined : this.expression();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.expression();
      this.expectWord('THEN');
      whens.push({ when, then: this.expression() });
    }
    if (!whens.length) throw this.error('CASE needs a WHEN');
    const otherwise = this.acceptWord('ELSE') ? this.expression() : undefined;
    this.expectWord('END');
    return { kind: 'case', operand, whens, otherwise };
  }

  /** A type after `AS` or `::`: words, then numbers in parentheses, checked by the type grammar. */
  private type(): string {
    const words: string[] = [];
    for (let t = this.peek(); t.kind === 'word'; t = this.peek()) {
      if (words.length && !['PRECISION', 'WITH', 'TIME', 'ZONE'].includes(t.text.toUpperCase())) break;
      words.push(t.text.toUpperCase());
      this.pos++;
    }
    if (!words.length) throw this.error('a type name must follow');
    const args: number[] = [];
    if (this.acceptOp('(')) {
      do {
        const n = this.next();
        if (n.kind !== 'number' || !/^\d{1,5}$/.test(n.text))
          throw this.error('a type takes whole numbers', n);
        args.push(Number(n.text));
      } while (this.acceptOp(','));
      this.expectOp(')');
    }
    const checked = normalSqlType({ words, args });
    if (!checked.ok) throw this.error(checked.reason);
    return checked.type;
  }

  private list(): Expr[] {
    const items = [this.expression()];
    while (this.acceptOp(',')) items.push(this.expression());
    return items;
  }

  private nested(fn: () => Expr): Expr {
    if (++this.depth > MAX_DEPTH) throw this.error(`nested deeper than ${MAX_DEPTH} levels`);
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  private peek(): Token {
    return this.tokens[this.pos];
  }

  private next(): Token {
    const t = this.tokens[this.pos];
    if (t.kind !== 'end') this.pos++;
    return t;
  }

  private peekOp(op: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === op;
  }

  private acceptOp(...ops: string[]): string | undefined {
    const t = this.peek();
    if (t.kind === 'op' && ops.includes(t.text)) {
      this.pos++;
      return t.text;
    }
    return undefined;
  }

  private expectOp(op: string): void {
    if (!this.acceptOp(op)) throw this.error(`expected "${op}", found ${describe(this.peek())}`);
  }

  private peekWord(...words: string[]): boolean {
    const t = this.peek();
    return t.kind === 'word' && words.includes(t.text.toUpperCase());
  }

  private acceptWord(word: string): boolean {
    if (!this.peekWord(word)) return false;
    this.pos++;
    return true;
  }

  private expectWord(...words: string[]): string {
    const t = this.peek();
    if (t.kind !== 'word' || !words.includes(t.text.toUpperCase()))
      throw this.error(`expected ${words.join(' or ')}, found ${describe(t)}`);
    this.pos++;
    return t.text.toUpperCase();
  }

  private error(message: string, at: Token = this.peek()): ExpressionError {
    return new ExpressionError(message, at.at);
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'end':
      return 'the end';
    case 'number':
      return t.text;
    case 'string':
      return 'a string';
    case 'quoted':
      return `"${t.name}"`;
    default:
      return t.text;
  }
}
