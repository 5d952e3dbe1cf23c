/**
 * Names read as words, whatever their style: snake_case, camelCase, PascalCase, UPPER_CASE, joined
 * words (`unitprice`, `orderdate`) and abbreviations (`qty`, `amt`, `dt`, `nbr`), so the analyst
 * reads `order_date`, `OrderDate`, `orderdate` and `ord_dt` alike. Joined words are split by word
 * segmentation over an English word list ranked by frequency (docs/offline-analyst.md#names-read-as-words);
 * a prefix a table puts on all its columns (`x_unitprice`, `l_shipdate`) is read past.
 */
import { isCommonWord, segmentWord } from './word-segmentation';
import { isReservedWord } from '../../../shared/prd-sql/expression';
import { compoundWords, englishWord, withoutAccents } from './foreign-words';

/** Abbreviations column names use, read as the word they stand for. */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    qty: 'quantity',
    qnty: 'quantity',
    amt: 'amount',
    amnt: 'amount',
    dt: 'date',
    dte: 'date',
    ts: 'timestamp',
    tstamp: 'timestamp',
    nbr: 'number',
    num: 'number',
    no: 'number',
    nr: 'number',
    cust: 'customer',
    prod: 'product',
    acct: 'account',
    bal: 'balance',
    mkt: 'market',
    supp: 'supplier',
    addr: 'address',
    desc: 'description',
    descr: 'description',
    ord: 'order',
    pmt: 'payment',
    pymt: 'payment',
    txn: 'transaction',
    trx: 'transaction',
    emp: 'employee',
    dept: 'department',
    cnt: 'count',
    pct: 'percent',
    tot: 'total',
    disc: 'discount',
    avail: 'available',
    alloc: 'allocated',
    upd: 'updated',
    yr: 'year',
    nm: 'name',
    cd: 'code',
    prc: 'price',
    grp: 'group',
    hdr: 'header',
    dtl: 'detail',
    ln: 'line',
    reg: 'registered',
  }),
);

/** The tokens of a name as written: `orderLineNumber` → `['order', 'line', 'number']`. */
export function nameTokens(name: string): string[] {
  return withoutAccents(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A name as lower-case words: tokens split at case and separators, joined words segmented,
 * abbreviations expanded. `x_UnitPrice` → `['x', 'unit', 'price']`; `ord_qty` → `['order', 'quantity']`.
 */
export function nameWords(name: string): string[] {
  // A word of another language is read as its English word before any English segmentation.
  return nameTokens(name).flatMap((token) => {
    if (ABBREVIATIONS.has(token)) return [ABBREVIATIONS.get(token)!];
    const english = englishWord(token) ?? compoundWords(token);
    if (english) return [english].flat();
    return segmentWord(token).map((word) => ABBREVIATIONS.get(word) ?? englishWord(word) ?? word);
  });
}

interface NamedColumns {
  name: string;
  columns: { name: string }[];
}

const prefixes = new WeakMap<object, string | null>();

/**
 * The prefix a table writes before every column (`x_` of `x_id, x_unitprice, x_orderdate`;
 * `l_` of TPC-H's lineitem), or undefined: a first token of at most four letters that at least
 * four in five columns (two or more) share, followed by more of the name.
 */
export function columnPrefix(table: NamedColumns): string | undefined {
  if (prefixes.has(table)) return prefixes.get(table) ?? undefined;
  const firsts = table.columns.map((c) => /^([A-Za-z]{1,4})_(?=[A-Za-z0-9])/.exec(c.name)?.[1].toLowerCase());
  const counts = new Map<string, number>();
  for (const f of firsts) if (f) counts.set(f, (counts.get(f) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  const found =
    best && best[1] >= 2 && best[1] >= 0.8 * table.columns.length && isPrefixShaped(best[0]) ? best[0] : null;
  prefixes.set(table, found);
  return found ?? undefined;
}

/** Short words columns start with that are words of the name, never a table's prefix. */
const NOT_PREFIXES = new Set(['is', 'has', 'no', 'id', 'to', 'on', 'at', 'by', 'in', 'of']);

/**
 * Whether a shared first token is a table's mark rather than a word of the names: one or two
 * letters (`l_`, `ps_`), or a token that is neither a common word nor an abbreviation (`unit_`,
 * `num_`, `ship_` begin names; `xq_` marks them).
 */
function isPrefixShaped(token: string): boolean {
  if (NOT_PREFIXES.has(token)) return false;
  if (token.length <= 2) return true;
  return !ABBREVIATIONS.has(token) && !isCommonWord(token);
}

/** A column's words with its table's shared prefix read past: `x_unitprice` of `x_lines` → `['unit', 'price']`. */
export function columnWords(table: NamedColumns, column: string): string[] {
  return nameWords(bareColumnName(table, column));
}

/** A column's name without its table's shared prefix: `x_unitprice` of `x_lines` → `unitprice`. */
export function bareColumnName(table: NamedColumns, column: string): string {
  const prefix = columnPrefix(table);
  return prefix && column.toLowerCase().startsWith(`${prefix}_`) ? column.slice(prefix.length + 1) : column;
}

/** English singular of one lower-case word: `categories` → `category`, `boxes` → `box`. */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(xes|ches|shes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/**
 * A word's rough stem, so the forms of one verb meet: `shipped`, `shipping`, `shipment` → `ship`;
 * `rented`, `rental` → `rent`; `ordered` → `order`.
 */
export function stem(word: string): string {
  let w = singular(word);
  for (const suffix of ['ments', 'ment', 'ings', 'ing', 'ed', 'al', 'ation']) {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // A doubled final consonant (shipp, plann) is one.
  return /([^aeiouls])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** The words of a name, each singular: `OrderDetails` → `['order', 'detail']`. */
export const singularWords = (name: string): string[] => nameWords(name).map(singular);

/** A name normalized for comparison across conventions: `customer_id`, `CustomerId`, `customerid`, `cust_id` → `customerid`. */
export const normalizedName = (name: string): string => nameWords(name).join('');

/** A column's name normalized like {@link normalizedName}, its table's prefix read past (`o_custkey` → `customerkey`). */
export const normalizedColumn = (table: NamedColumns, column: string): string =>
  columnWords(table, column).join('');

/** The table as a noun: `order_items` → `order item`, `InvoiceLine` → `invoice line`. */
export const tableNoun = (table: string): string => singularWords(table).join(' ');

/**
 * A lower-case SQL identifier from any name, split at case and separators only (joined words and
 * abbreviations kept as written): `InvoiceLine` → `invoice_line`, `2fa` → `t_2fa`.
 */
export function identifier(name: string): string {
  const words = nameTokens(name).join('_') || 'x';
  return (/^[a-z]/.test(words) ? words : `t_${words}`).slice(0, 63);
}

/**
 * A field name a later layer can name bare: {@link identifier}, and a word SQL reserves (`group`,
 * `order`) followed by `_value`, since an aggregate over it (`SUM(group)`) would not parse.
 */
export function fieldIdentifier(name: string): string {
  const id = identifier(name);
  return isReservedWord(id) ? `${id}_value` : id;
}

/** English plural of a noun phrase, for readable descriptions ("distinct customers"). */
export function pluralNoun(noun: string): string {
  const irregular: Record<string, string> = {
    staff: 'staff members',
    inventory: 'inventory items',
    person: 'people',
    stock: 'stock records',
  };
  const words = noun.split(' ');
  const last = words.pop() ?? '';
  const plural =
    irregular[last] ??
    (/[^aeiou]y$/.test(last)
      ? `${last.slice(0, -1)}ies`
      : /(s|x|z|ch|sh)$/.test(last)
        ? `${last}es`
        : `${last}s`);
  return [...words, plural].join(' ');
}
