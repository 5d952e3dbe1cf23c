/**
 * Days kept as text (`06/01/2020`, `2013-01-01T10:00:00Z`, `31.12.2021`) or split into integer
 * parts (`year`, `month`, `day`), as exports and spreadsheets keep them
 * (docs/offline-analyst.md#dates-read-from-values): which shapes are days, how MySQL measures them
 * while exploring and how the warehouse reads them. Pure, so workflows may use it.
 */
import { columnReference } from './prd-sql/expression-sql';
import { quoteLiteral } from './sql-quoting';

/** A shape of day written as text, with how each engine reads its leading day part. */
export interface TextDateShape {
  /** The strptime format of the day part (DuckDB), e.g. `%d/%m/%Y`. */
  format: string;
  /** The same for MySQL's STR_TO_DATE. */
  mysqlFormat: string;
  /** A POSIX regular expression matching the day part at the start of the text (both engines). */
  pattern: string;
}

const SHAPES: { test: RegExp; pattern: string; orders: [string, string][] }[] = [
  {
    test: /^\d{4}-\d{1,2}-\d{1,2}/,
    pattern: '^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}',
    orders: [['%Y-%m-%d', '%Y-%m-%d']],
  },
  {
    test: /^\d{4}\/\d{1,2}\/\d{1,2}/,
    pattern: '^[0-9]{4}/[0-9]{1,2}/[0-9]{1,2}',
    orders: [['%Y/%m/%d', '%Y/%m/%d']],
  },
  {
    test: /^\d{4}\.\d{1,2}\.\d{1,2}/,
    pattern: '^[0-9]{4}[.][0-9]{1,2}[.][0-9]{1,2}',
    orders: [['%Y.%m.%d', '%Y.%m.%d']],
  },
  {
    test: /^\d{1,2}\/\d{1,2}\/\d{4}/,
    pattern: '^[0-9]{1,2}/[0-9]{1,2}/[0-9]{4}',
    orders: [
      ['%d/%m/%Y', '%d/%m/%Y'],
      ['%m/%d/%Y', '%m/%d/%Y'],
    ],
  },
  {
    test: /^\d{1,2}-\d{1,2}-\d{4}/,
    pattern: '^[0-9]{1,2}-[0-9]{1,2}-[0-9]{4}',
    orders: [
      ['%d-%m-%Y', '%d-%m-%Y'],
      ['%m-%d-%Y', '%m-%d-%Y'],
    ],
  },
  {
    test: /^\d{1,2}\.\d{1,2}\.\d{4}/,
    pattern: '^[0-9]{1,2}[.][0-9]{1,2}[.][0-9]{4}',
    orders: [
      ['%d.%m.%Y', '%d.%m.%Y'],
      ['%m.%d.%Y', '%m.%d.%Y'],
    ],
  },
  // Months by English name (`Jan 1 2000`, `January 1, 2000`, `1 Jan 2000`, `01-JAN-2000`): the
  // names both engines read (%b three letters, %B whole); any case. readDay checks the name.
  ...monthNameShapes(),
];

/** Shapes naming the month in English, abbreviated (`%b`) or whole (`%B`). */
function monthNameShapes(): { test: RegExp; pattern: string; orders: [string, string][] }[] {
  const shapes: { test: RegExp; pattern: string; orders: [string, string][] }[] = [];
  for (const [name, code, mysqlCode] of [
    ['[A-Za-z]{3}', '%b', '%b'],
    ['[A-Za-z]{3,9}', '%B', '%M'],
  ] as const)
    shapes.push(
      {
        test: new RegExp(`^${name} \\d{1,2}, \\d{4}`),
        pattern: `^${name} [0-9]{1,2}, [0-9]{4}`,
        orders: [[`${code} %d, %Y`, `${mysqlCode} %e, %Y`]],
      },
      {
        test: new RegExp(`^${name} \\d{1,2} \\d{4}`),
        pattern: `^${name} [0-9]{1,2} [0-9]{4}`,
        orders: [[`${code} %d %Y`, `${mysqlCode} %e %Y`]],
      },
      {
        test: new RegExp(`^\\d{1,2} ${name} \\d{4}`),
        pattern: `^[0-9]{1,2} ${name} [0-9]{4}`,
        orders: [[`%d ${code} %Y`, `%e ${mysqlCode} %Y`]],
      },
      {
        test: new RegExp(`^\\d{1,2}-${name}-\\d{4}`),
        pattern: `^[0-9]{1,2}-${name}-[0-9]{4}`,
        orders: [[`%d-${code}-%Y`, `%e-${mysqlCode}-%Y`]],
      },
    );
  return shapes;
}

/** Month names in English, January first (lower case): the one list the project reads months by. */
export const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The month (1–12) an English name gives in `code` (`%b`: its first three letters; `%B`: whole). */
function monthOfName(name: string, code: '%b' | '%B'): number | undefined {
  const n = name.toLowerCase();
  const at = MONTH_NAMES.findIndex((m) => (code === '%b' ? m.slice(0, 3) === n : m === n));
  return at < 0 ? undefined : at + 1;
}

/** What may follow the day part: nothing, or a time of day (`T10:00:00Z`, ` 10:22`, ` 3:05 PM`). */
const AFTER_DAY = /^([T ]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?( ?[AaPp][Mm])?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Sampled values, of which this share must be days of one shape for the column to be a date. */
export const TEXT_DATE_SHARE = 0.9;

/**
 * The shapes of day that `values` (sampled text, blanks left out) are written in: one for an
 * unambiguous shape (`%Y-%m-%d`), two for day/month orders that the sample cannot tell apart (the
 * explorer counts which one every row fits), none when fewer than nine in ten values are days.
 */
export function textDateShapes(values: string[]): TextDateShape[] {
  const set = values.map((v) => v.trim()).filter((v) => v !== '');
  if (set.length === 0) return [];
  for (const shape of SHAPES) {
    const days = set.filter((v) => {
      const m = shape.test.exec(v);
      return m !== null && AFTER_DAY.test(v.slice(m[0].length));
    });
    if (days.length < TEXT_DATE_SHARE * set.length) continue;
    const fits = shape.orders.filter(([format]) => days.every((v) => readDay(v, format) !== undefined));
    return fits.map(([format, mysqlFormat]) => ({ format, mysqlFormat, pattern: shape.pattern }));
  }
  return [];
}

/** The day a text names in `format` (`YYYY-MM-DD`), or undefined when it is no real day. */
export function readDay(text: string, format: string): string | undefined {
  const named = /%[bB]/.exec(format)?.[0] as '%b' | '%B' | undefined;
  const parts: (number | undefined)[] = named
    ? text
        .trim()
        .split(/[\s,-]+/)
        .slice(0, 3)
        .map((t) => (/^\d+$/.test(t) ? Number(t) : monthOfName(t, named)))
    : text.trim().split(/\D+/).filter(Boolean).slice(0, 3).map(Number);
  const order = format.match(/%[YmdbB]/g);
  if (parts.length < 3 || !order) return undefined;
  const at = (code: string) => parts[order.indexOf(code)];
  const [y, m, d] = [at('%Y'), named ? at(named) : at('%m'), at('%d')];
  if (y === undefined || m === undefined || d === undefined) return undefined;
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Every day format a text column may be read in (the PRD accepts no other). */
export const TEXT_DATE_FORMATS = SHAPES.flatMap((s) => s.orders.map(([format]) => format)) as [
  string,
  ...string[],
];

/** The shape of `format` (one of those {@link textDateShapes} answers), or undefined. */
export function shapeOfFormat(format: string): TextDateShape | undefined {
  for (const shape of SHAPES)
    for (const [f, mysqlFormat] of shape.orders)
      if (f === format) return { format, mysqlFormat, pattern: shape.pattern };
  return undefined;
}

/**
 * Days that stand for no day: before 1800 (a year mistyped as `0202`, `0001-01-01`) or a system's
 * "no date" (1900-01-01, and 1899-12-30/31 of spreadsheets). Real history (a season of 1871) stays.
 */
export const PLACEHOLDER_DAYS = ['1900-01-01', '1899-12-30', '1899-12-31'];
export const EARLIEST_DAY = '1800-01-01';

/**
 * SQL (MySQL and DuckDB alike) that holds when `day` is a real day: {@link PLACEHOLDER_DAYS}. A
 * day that stands for a year alone (a census of 1900) is a placeholder only before 1800: no system
 * writes "no date" as a year.
 */
export const isRealDay = (
  day: string,
  literal: (d: string) => string = (d) => `DATE '${d}'`,
  yearAlone = false,
): string =>
  yearAlone
    ? `(${day} > ${literal(EARLIEST_DAY)})`
    : `(${day} > ${literal(EARLIEST_DAY)} AND ${day} NOT IN (${PLACEHOLDER_DAYS.map(literal).join(', ')}))`;

/**
 * The warehouse's reading of a text day: the day part at the start of the text, parsed in its
 * format; text that holds no day gives NULL, as does a placeholder day ({@link PLACEHOLDER_DAYS}).
 */
export function textDateSource(table: string, column: string, format: string): string {
  const shape = shapeOfFormat(format);
  if (!shape) throw new Error(`unknown text date format ${format}`);
  const ref = columnReference(table, column);
  const day = `CAST(try_strptime(regexp_extract(trim(${ref}), ${quoteLiteral(shape.pattern)}), ${quoteLiteral(format)}) AS DATE)`;
  return `CASE WHEN ${isRealDay(day)} THEN ${day} END`;
}

/** The columns of a day kept in parts: a year, and its month and day when the table has them. */
export interface DateParts {
  year: string;
  month?: string;
  day?: string;
}

/**
 * The warehouse's reading of a day kept in integer parts: the day they name (a year alone names
 * its first day, a year and month the month's first), NULL when they name no real day.
 */
export function partsDateSource(table: string, parts: DateParts): string {
  const text = (column: string | undefined, fallback: string) =>
    column ? `CAST(${columnReference(table, column)} AS VARCHAR)` : `'${fallback}'`;
  const day = `CAST(try_strptime(concat_ws('-', ${text(parts.year, '')}, ${text(parts.month, '1')}, ${text(parts.day, '1')}), '%Y-%m-%d') AS DATE)`;
  return `CASE WHEN ${isRealDay(day, undefined, !parts.month && !parts.day)} THEN ${day} END`;
}

/** Words naming a year, a month and a day of the month, in the languages the analyst reads (accents read past). */
export const PART_WORDS = {
  year: ['year', 'yr', 'yyyy', 'ano', 'anio', 'jahr', 'annee', 'anno', 'ejercicio', 'season'],
  month: ['month', 'mon', 'mm', 'mes', 'monat', 'mois', 'mese'],
  day: ['day', 'dd', 'dia', 'tag', 'jour', 'giorno'],
} as const;

/** The tokens of a column name, accents read past: split at case and at anything no letter or digit. */
const tokens = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

const PART_OF: [keyof DateParts, readonly string[]][] = [
  ['year', PART_WORDS.year],
  ['month', PART_WORDS.month],
  ['day', PART_WORDS.day],
];
/** Words around a part that say nothing of which date it is part of (`yearID`, `year_key`). */
const FILLER = new Set([
  'id',
  'key',
  'no',
  'nr',
  'num',
  'number',
  'of',
  'de',
  'do',
  'da',
  'del',
  'des',
  'du',
  'der',
  'the',
]);

/**
 * Which part of a day a column's name says it holds, and of which date (the rest of the name:
 * `birthYear` is the year of `birth`; `year`, `yearID` of the row's own date `''`).
 */
export function datePartOfName(name: string): { part: keyof DateParts; of: string } | undefined {
  const words = tokens(name);
  for (const [part, vocab] of PART_OF) {
    const at = words.findIndex((w) => vocab.includes(w));
    if (at < 0) continue;
    const rest = words.filter((w, i) => i !== at && !FILLER.has(w));
    // `day_of_week`, `days`, `month_name` are no parts of one day.
    if (
      rest.some((w) => ['week', 'weekday', 'name', 'days', 'count', 'total', 'quarter', 'hour'].includes(w))
    )
      return undefined;
    return { part, of: rest.join('_') };
  }
  return undefined;
}

/** Whether sampled integers fit a part: a year 1800–2200, a month 1–12, a day 1–31. */
export function valuesFitPart(part: keyof DateParts, values: number[]): boolean {
  if (!values.length || !values.every(Number.isInteger)) return false;
  const [lo, hi] = part === 'year' ? [1800, 2200] : part === 'month' ? [1, 12] : [1, 31];
  return values.every((v) => v >= lo && v <= hi);
}

/** Seconds or milliseconds since 1970 that fall between 2000 and 2100: a moment kept as an integer. */
export const EPOCH_RANGE = {
  s: [946_684_800, 4_102_444_800],
  ms: [946_684_800_000, 4_102_444_800_000],
} as const;

/** Words of a name that say it holds a moment (in the languages the analyst reads). */
const MOMENT_WORDS = new Set([
  'time',
  'timestamp',
  'ts',
  'date',
  'at',
  'on',
  'epoch',
  'unix',
  'created',
  'updated',
  'modified',
  'when',
  'datetime',
  'fecha',
  'hora',
  'datum',
  'zeit',
  'data',
  'heure',
  'ora',
]);

/**
 * The unit of an integer column holding moments since 1970, by name and values: a name saying it
 * holds a moment (`created_at`, `event_ts`, `fecha_unix`) and every sampled value a moment between
 * 2000 and 2100 in seconds or milliseconds; undefined otherwise (ids and amounts in that range are
 * not named so).
 */
export function epochUnit(name: string, values: number[]): 's' | 'ms' | undefined {
  if (!tokens(name).some((w) => MOMENT_WORDS.has(w)) || values.length < 3) return undefined;
  if (!values.every(Number.isInteger)) return undefined;
  for (const unit of ['s', 'ms'] as const) {
    const [lo, hi] = EPOCH_RANGE[unit];
    if (values.every((v) => v >= lo && v < hi)) return unit;
  }
  return undefined;
}

/**
 * The warehouse's reading of moments since 1970 as days (UTC): NULL outside 2000–2100 (a 0 standing
 * for no moment, or a value so large its microseconds would overflow and fail the whole build).
 */
export function epochDateSource(table: string, column: string, unit: 's' | 'ms'): string {
  const ref = columnReference(table, column);
  const [lo, hi] = EPOCH_RANGE[unit];
  return `CASE WHEN ${ref} >= ${lo} AND ${ref} < ${hi} THEN CAST(make_timestamp(CAST(${ref} AS BIGINT) * ${unit === 's' ? 1_000_000 : 1_000}) AS DATE) END`;
}
