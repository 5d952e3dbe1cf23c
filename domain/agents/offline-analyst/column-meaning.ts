/**
 * What a column means to an analyst, read from its name (in any naming convention) and type:
 * money, quantity, a unit price, a discount rate, a duration — things one sums or averages — or a
 * key, code, line number, year, phone or postal number, or flag, which no metric may aggregate.
 */
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { columnWords, nameWords } from './name-words';
import { holdsTextMoney } from './text-money';

export type ColumnMeaning =
  /** Primary/foreign key or identifier: counted distinct, never summed. */
  | 'key'
  /** Codes and numbers that are labels: phone, postal code, SKU, line or check number. */
  | 'code'
  /** Calendar parts stored as numbers: year, month, quarter. */
  | 'calendar'
  | 'flag'
  /** Money per row, summed: amount, total, freight, fee, cost. */
  | 'money'
  /** Money per unit: averaged, and multiplied by a quantity for revenue. */
  | 'unit_price'
  | 'quantity'
  /** A fraction 0..1 (or a percentage) taken off a price: averaged. */
  | 'discount_rate'
  /** Rates, scores, ratings, percentages: averaged. */
  | 'rate'
  | 'duration'
  /** Sizes and weights: summed on facts. */
  | 'size'
  /**
   * A number no name explains whose values count what happened (often 0, or skewed): summed on
   * facts, never a quantity that prices a line.
   */
  | 'flow'
  /**
   * A level (stock on hand, a balance, a credit limit, a temperature): what something stands at,
   * never added up over time; averaged on dated facts, totalled only at one moment (a snapshot).
   */
  | 'level'
  | 'temporal'
  | 'text'
  | 'binary'
  /** A number with no recognizable meaning: left alone. */
  | 'number';

const NUMERIC = new Set([
  'decimal',
  'numeric',
  'float',
  'double',
  'real',
  'int',
  'integer',
  'smallint',
  'mediumint',
  'bigint',
  'tinyint',
]);
const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);
const BINARY = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

const has = (words: string[], ...vocab: string[]) => words.some((w) => vocab.includes(w));
const last = (words: string[]) => words[words.length - 1] ?? '';

const KEY_SUFFIX = ['id', 'key', 'uuid', 'guid', 'pk', 'fk', 'ref'];
const CODE_WORDS = [
  'code',
  'number',
  'num',
  'no',
  'nr',
  'phone',
  'fax',
  'mobile',
  'zip',
  'zipcode',
  'postal',
  'postcode',
  'sku',
  'isbn',
  'ean',
  'upc',
  'ssn',
  'iban',
  'line',
  'seq',
  'sequence',
  'position',
  'sort',
  'ordinal',
  'version',
  'extension',
  'ext',
];
const CALENDAR_WORDS = ['year', 'month', 'quarter', 'week', 'day', 'hour', 'minute', 'yr', 'dow'];
const FLAG_WORDS = ['is', 'has', 'flag', 'active', 'enabled', 'deleted', 'verified', 'archived'];
const MONEY_WORDS = [
  'amount',
  'amt',
  'total',
  'subtotal',
  'revenue',
  'sales',
  'cost',
  'freight',
  'fee',
  'fees',
  'charge',
  'tax',
  'vat',
  'payment',
  'paid',
  'balance',
  'salary',
  'wage',
  'income',
  'profit',
  'shipping',
  'tip',
  'refund',
  'value',
  'spend',
  'budget',
  'expense',
];
const PRICE_WORDS = ['price', 'msrp', 'rate', 'fare'];
const QUANTITY_WORDS = ['quantity', 'qty', 'units', 'pieces', 'items', 'seats', 'tickets'];
/** Words of what something stands at rather than what happened (docs/offline-analyst.md#levels-and-flows). */
const LEVEL_WORDS = [
  'balance',
  'stock',
  'hand',
  'inventory',
  'limit',
  'level',
  'reorder',
  'backlog',
  'outstanding',
  'temperature',
  'temp',
  'pressure',
  'humidity',
  'humid',
];
/** Words of a change by itself, whatever changed: summed to the net change. */
const NET_CHANGE_WORDS = ['change', 'delta', 'movement', 'adjustment'];
/** Words saying a level's change, which is a flow (`stock_change`, `balance_delta`, `qty_received`). */
const CHANGE_WORDS = [...NET_CHANGE_WORDS, 'moved', 'received', 'sold', 'issued'];

/** Whether a number may go below 0: some value read did, or its name says it is a change. */
export function mayGoBelowZero(table: SourceTable, column: SourceColumn): boolean {
  return (
    (table.number_behaviour?.[column.name]?.negatives ?? 0) > 0 ||
    has(columnWords(table, column.name), ...NET_CHANGE_WORDS)
  );
}
const DURATION_WORDS = [
  'duration',
  'seconds',
  'secs',
  'sec',
  'milliseconds',
  'millis',
  'ms',
  'minutes',
  'mins',
  'hours',
  'hrs',
  'days',
  'length',
  'runtime',
];
const SIZE_WORDS = [
  'bytes',
  'size',
  'weight',
  'kg',
  'kgs',
  'lbs',
  'grams',
  'volume',
  'distance',
  'km',
  'miles',
];
const RATE_WORDS = ['rating', 'score', 'percent', 'pct', 'percentage', 'ratio', 'probability', 'stars'];

/** Money held as integer cents (`unit_price_cents`, `amount_in_cents`): divided by 100 for currency. */
export const isCents = (column: SourceColumn): boolean => has(nameWords(column.name), 'cents', 'cent');

/** What a number kept as text may mean (a code or a year stays text). */
const TEXT_NUMBER_MEANINGS: ReadonlySet<ColumnMeaning> = new Set([
  'money',
  'unit_price',
  'quantity',
  'duration',
  'size',
  'level',
]);

/** The meaning of one column, given the keys of its table (declared and inferred). */
export function columnMeaning(
  table: SourceTable,
  column: SourceColumn,
  keyColumns: Set<string>,
): ColumnMeaning {
  const words = columnWords(table, column.name);
  const type = column.data_type;
  if (TEMPORAL.has(type)) return 'temporal';
  if (BINARY.has(type)) return 'binary';
  if (type === 'year') return 'calendar';
  if (type === 'bit' || (type === 'tinyint' && /\(1\)/.test(column.type))) return 'flag';
  if (keyColumns.has(column.name) || table.primary_key.includes(column.name)) return 'key';
  if (KEY_SUFFIX.includes(last(words)) || (words.length === 1 && words[0] === 'id')) return 'key';
  if (!NUMERIC.has(type)) {
    // Numbers kept as text ('$1,234.50', '12', '3,5') mean what their name says when their values
    // read as numbers: money, a price, a quantity, a duration, a size or a level.
    if (!holdsTextMoney(table, column)) return 'text';
    const read = numberMeaning(words, 'decimal');
    return TEXT_NUMBER_MEANINGS.has(read) ? read : 'text';
  }
  const read = numberMeaning(words, type);
  if (read === 'rate' && tallyOfPoints(table, column, words)) return 'flow';
  if (read === 'quantity' && countAlongSeries(table, column, words)?.headcount) return 'level';
  return read === 'number' || read === 'size' ? behaviourMeaning(table, column, read) : read;
}

/** Words that name a grade (averaged) or a tally of points (summed): the values tell which. */
const GRADE_OR_TALLY_WORDS = ['score'];
/** Words that make a score a grade whatever its values (`score_pct`, `rating_score`). */
const GRADE_WORDS = RATE_WORDS.filter((w) => !GRADE_OR_TALLY_WORDS.includes(w));
/** Share of zeros from which whole, non-negative scores count points won (goals, runs) rather than grade. */
const TALLY_ZEROS = 0.1;

/**
 * Why a column named as a score counts points (a match's goals) rather than grades something (a
 * test or credit score): its values are whole, never negative and often 0, as counts of what
 * happened are and grades rarely are. Undefined when the name is no score or the values say grade.
 */
function tallyOfPoints(table: SourceTable, column: SourceColumn, words: string[]): string | undefined {
  if (!has(words, ...GRADE_OR_TALLY_WORDS) || has(words, ...GRADE_WORDS)) return undefined;
  const b = table.number_behaviour?.[column.name];
  if (!b?.integers || b.negatives > 0 || b.zeros < TALLY_ZEROS) return undefined;
  return `summed as a tally of points: its values are whole and ${Math.round(100 * b.zeros)}% of them 0, as counts are and grades rarely are`;
}

/** Steps over spread below which a number moves like a level (docs/offline-analyst.md#levels-and-flows). */
export const LEVEL_STEPS = 0.15;
/** Spread (sd / mean) below which readings stay near a typical value; at or above 1, amounts are skewed. */
const READING_SPREAD = 0.5;
const SKEWED_SPREAD = 1;
/** Whole numbers with this few values may be codes (a type, a rank, a stint): left alone. */
const FEW_CODES = 12;

/**
 * What a number whose name tells nothing (or only a size) means by how its values behave: an
 * attribute or a coordinate is a code; a time of day written `hhmm` is a calendar part; a number
 * moving by small steps over time, or staying near a typical value, is a level; one skewed (many
 * small values, a few large, often 0) counts what happened (a flow). Whole numbers that look like
 * ids or a few codes stay unread, as does anything between.
 */
function behaviourMeaning(table: SourceTable, column: SourceColumn, named: 'number' | 'size'): ColumnMeaning {
  return readByValues(table, column, named)?.meaning ?? named;
}

/** A meaning the values gave a number, and why in words; undefined when they said nothing. */
function readByValues(
  table: SourceTable,
  column: SourceColumn,
  named: 'number' | 'size',
): { meaning: ColumnMeaning; why: string } | undefined {
  const b = table.number_behaviour?.[column.name];
  if (table.value_series?.by.includes(column.name))
    return { meaning: 'code', why: `it tells the things apart whose readings ${table.name} keeps` };
  if (!b) return undefined;
  const steps = b.steps ? stepsPhrase(b.steps.ratio) : '';
  const smooth = b.steps !== undefined && b.steps.ratio <= LEVEL_STEPS;
  if (named === 'size')
    return smooth ? { meaning: 'level', why: `averaged as a level: ${steps}` } : undefined;
  if (b.constant_within)
    return { meaning: 'code', why: `it never changes within one ${b.constant_within}: an attribute of it` };
  if (b.integers && b.distinct <= FEW_CODES) return undefined;
  const idLike = b.integers && b.distinct >= 0.9 * b.rows && b.max <= 10 * Math.max(table.row_count, b.rows);
  if (idLike) return undefined;
  if (b.clock) return { meaning: 'calendar', why: 'every value reads as a time of day written hhmm' };
  if (smooth) return { meaning: 'level', why: `averaged as a level: ${steps} (it moves by small steps)` };
  if (b.spread < READING_SPREAD)
    return {
      meaning: 'level',
      why: `averaged as a level: its values stay near a typical one (spread ${b.spread} of the mean)`,
    };
  if (b.negatives === 0 && b.spread >= SKEWED_SPREAD)
    return {
      meaning: 'flow',
      why: `summed as a flow: its values are skewed (spread ${b.spread} of the mean${b.zeros ? `, ${Math.round(100 * b.zeros)}% of them 0` : ''})`,
    };
  return undefined;
}

/** `following readings differ by 0.12 of what independent ones would`: a series' steps in words. */
const stepsPhrase = (ratio: number) => `following readings differ by ${ratio} of what independent ones would`;

/** Steps over spread below which a count in a series is not clearly a tally: said to the person approving. */
const TALLY_STEPS = 0.5;

/**
 * A count kept in a table of readings, followed along its series: by small steps (≤ LEVEL_STEPS) a
 * headcount (the unemployed, subscribers, staff: a level), as levels move and tallies of days or
 * months do not; by steps too small for a tally to be sure (< TALLY_STEPS) a tally that may be a
 * headcount, for review; otherwise nothing is said.
 */
function countAlongSeries(
  table: SourceTable,
  column: SourceColumn,
  words: string[],
): { headcount: boolean; why: string } | undefined {
  if (!has(words, 'count')) return undefined;
  const steps = table.number_behaviour?.[column.name]?.steps;
  if (!steps || steps.ratio >= TALLY_STEPS) return undefined;
  return steps.ratio <= LEVEL_STEPS
    ? {
        headcount: true,
        why: `averaged as a level: a count that, followed through ${table.name}'s readings, moves by small steps (${stepsPhrase(steps.ratio)})`,
      }
    : {
        headcount: false,
        why: `summed as a tally, though followed through ${table.name}'s readings it moves by fairly small steps (${stepsPhrase(steps.ratio)}): a headcount would be averaged as a level`,
      };
}

/**
 * Numbers of `table` whose names said nothing of what they are (or only "score", a grade or a
 * tally, or "count", a tally or a headcount) and whose values decided it as a level or a flow, with
 * why: for the person approving to check.
 */
export function measuresReadByValues(
  table: SourceTable,
): { column: string; meaning: ColumnMeaning; why: string }[] {
  const keys = new Set(table.foreign_keys.flatMap((fk) => fk.columns));
  return table.columns.flatMap((c) => {
    const meaning = columnMeaning(table, c, keys);
    const words = columnWords(table, c.name);
    const named = numberMeaning(words, c.data_type);
    // A count whose name said a tally and whose values say a headcount, or may: for review.
    const count =
      named === 'quantity' && (meaning === 'quantity' || meaning === 'level')
        ? countAlongSeries(table, c, words)
        : undefined;
    if (count)
      return [{ column: c.name, meaning: count.headcount ? meaning : ('flow' as const), why: count.why }];
    if (meaning !== 'level' && meaning !== 'flow') return [];
    const tally = named === 'rate' ? tallyOfPoints(table, c, words) : undefined;
    if (tally) return [{ column: c.name, meaning, why: tally }];
    if (named !== 'number' && named !== 'size') return [];
    const read = readByValues(table, c, named);
    return read && read.meaning === meaning ? [{ column: c.name, meaning, why: read.why }] : [];
  });
}

/** The meaning of a number column (not a key) from its words and type. */
function numberMeaning(words: string[], type: string): ColumnMeaning {
  if (has(words, ...FLAG_WORDS) && (type === 'tinyint' || words[0] === 'is' || words[0] === 'has'))
    return 'flag';
  if (has(words, ...CALENDAR_WORDS) && !has(words, ...DURATION_WORDS)) return 'calendar';
  if (has(words, 'discount', 'disc')) {
    // A discount with a money name (discount_amount) is money; otherwise a rate.
    return has(words, ...MONEY_WORDS) ? 'money' : 'discount_rate';
  }
  if (has(words, ...LEVEL_WORDS) && !has(words, ...CHANGE_WORDS)) return 'level';
  if (has(words, ...CODE_WORDS) && !has(words, ...QUANTITY_WORDS, ...MONEY_WORDS, 'count')) return 'code';
  if (has(words, ...QUANTITY_WORDS) || (has(words, 'ordered', 'sold', 'shipped') && !has(words, 'date')))
    return 'quantity';
  // Money per unit (`unit_cost`, `cost_each`, `price_per_kg`) is averaged, never summed.
  if (has(words, 'unit', 'each', 'per') && has(words, ...MONEY_WORDS) && !has(words, 'units'))
    return 'unit_price';
  // `rate` alone says per what no more than `heart rate` or `unemployment rate` would: a rate.
  if (words.length === 1 && words[0] === 'rate') return 'rate';
  if (has(words, ...PRICE_WORDS) && !has(words, ...RATE_WORDS)) {
    // A rate of interest, tax or exchange is a rate; `rental_rate`, `hourly_rate` are prices per unit.
    if (last(words) === 'rate' && has(words, 'interest', 'tax', 'exchange', 'conversion', 'growth', 'churn'))
      return 'rate';
    return 'unit_price';
  }
  if (has(words, ...MONEY_WORDS) || has(words, 'cents', 'cent')) return 'money';
  if (has(words, ...DURATION_WORDS)) return 'duration';
  if (has(words, ...SIZE_WORDS)) return 'size';
  if (has(words, ...RATE_WORDS)) return 'rate';
  if (has(words, 'count', 'visits', 'views', 'clicks', 'sessions', 'attempts', 'points')) return 'quantity';
  // What something changed by (`nonfarm_change`, `stock_delta`) adds up to its net change: a flow.
  if (has(words, ...NET_CHANGE_WORDS)) return 'flow';
  return 'number';
}

/** Meanings whose SUM over rows is a number a person reads (total money, units, time, size). */
export const ADDITIVE_MEANINGS: ReadonlySet<ColumnMeaning> = new Set([
  'money',
  'quantity',
  'duration',
  'size',
  'flow',
]);

/** Meanings no metric may sum or average: identifiers and labels stored as numbers. */
export const NEVER_AGGREGATED: ReadonlySet<ColumnMeaning> = new Set(['key', 'code', 'calendar', 'flag']);
