/**
 * The time a question names, as a UTC range, so retrieval can filter or boost memories by their
 * `created_at` (issue #14's temporal questions). Relative to `now`: "today", "yesterday",
 * "N days/weeks/months/years ago", "last/this week|month|year" (weeks start on Monday); absolute:
 * "in 2023", "in May 2023", "(on) 8 May 2023", "May 8, 2023"; bounds: "before …", "after …",
 * "since …". An impossible day ("31 April 2023") falls back to its month. With `timeline` (the
 * `dates` stage of search/search-stages.ts) also what needs the timeline to be placed: a month
 * without a year ("in June": its last occurrence not after `now`), "last weekend", and "the
 * week/weekend/day before <a date>" (that span up to and including the date, since what happened
 * then is told on the date). Pure, for exact unit tests. Returns the most precise expression
 * found, with its text.
 */
import { MONTH_NAMES } from '../../../shared/text-dates';

export interface TimeRange {
  /** Inclusive start (ISO); absent: open. */
  from?: string;
  /** Exclusive end (ISO); absent: open. */
  to?: string;
  /** The words that named it. */
  text: string;
}

/** Month names, January first (lower case). */
export const MONTHS = MONTH_NAMES;
const MONTH = `(${MONTHS.join('|')}|sept|${MONTHS.map((m) => m.slice(0, 3)).join('|')})\\.?`;
const UNIT = '(day|week|month|year)s?';
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

type Range = { from: Date; to: Date };
const utc = (y: number, m = 0, d = 1) => new Date(Date.UTC(y, m, d));
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
const monthIndex = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));

/** The absolute or relative span an expression names, without bounds words. */
function span(text: string, now: Date): Range | undefined {
  const t = text.toLowerCase().trim();
  const today = utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let m: RegExpExecArray | null;
  if (t === 'today') return { from: today, to: addDays(today, 1) };
  if (t === 'yesterday') return { from: addDays(today, -1), to: today };
  if ((m = new RegExp(`^(\\d+|${Object.keys(NUMBER_WORDS).join('|')}) ${UNIT} ago$`).exec(t))) {
    const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1]];
    const unit = m[2];
    if (unit === 'day') {
      const d = addDays(today, -n);
      return { from: d, to: addDays(d, 1) };
    }
    if (unit === 'week') {
      const start = addDays(weekStart(today), -7 * n);
      return { from: start, to: addDays(start, 7) };
    }
    if (unit === 'month') {
      const s = utc(today.getUTCFullYear(), today.getUTCMonth() - n);
      return { from: s, to: utc(s.getUTCFullYear(), s.getUTCMonth() + 1) };
    }
    return { from: utc(today.getUTCFullYear() - n), to: utc(today.getUTCFullYear() - n + 1) };
  }
  if ((m = /^(last|this|next) (week|month|year)$/.exec(t))) {
    const shift = m[1] === 'last' ? -1 : m[1] === 'next' ? 1 : 0;
    if (m[2] === 'week') {
      const s = addDays(weekStart(today), 7 * shift);
      return { from: s, to: addDays(s, 7) };
    }
    if (m[2] === 'month') {
      const s = utc(today.getUTCFullYear(), today.getUTCMonth() + shift);
      return { from: s, to: utc(s.getUTCFullYear(), s.getUTCMonth() + 1) };
    }
    return { from: utc(today.getUTCFullYear() + shift), to: utc(today.getUTCFullYear() + shift + 1) };
  }
  if ((m = /^(?:in )?(\d{4})$/.exec(t))) return { from: utc(Number(m[1])), to: utc(Number(m[1]) + 1) };
  if ((m = new RegExp(`^(?:in )?${MONTH},? (\\d{4})$`).exec(t))) {
    const s = utc(Number(m[2]), monthIndex(m[1]));
    return { from: s, to: utc(Number(m[2]), monthIndex(m[1]) + 1) };
  }
  if ((m = new RegExp(`^(?:on )?(\\d{1,2})(?:st|nd|rd|th)? ${MONTH},? (\\d{4})$`).exec(t)))
    return day(Number(m[3]), monthIndex(m[2]), Number(m[1]));
  if ((m = new RegExp(`^(?:on )?${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})$`).exec(t)))
    return day(Number(m[3]), monthIndex(m[1]), Number(m[2]));
  return undefined;
}

function day(y: number, m: number, d: number): Range | undefined {
  const from = utc(y, m, d);
  return from.getUTCMonth() === m ? { from, to: addDays(from, 1) } : undefined; // 31 April: none
}

function weekStart(d: Date): Date {
  return addDays(d, -((d.getUTCDay() + 6) % 7));
}

/** Candidate phrases, longest first, so "8 May 2023" wins over "May 2023" and "2023". */
const PHRASES = [
  `(?:on )?\\d{1,2}(?:st|nd|rd|th)? ${MONTH},? \\d{4}`,
  `(?:on )?${MONTH} \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}`,
  `(?:in )?${MONTH},? \\d{4}`,
  `(?:\\d+|${Object.keys(NUMBER_WORDS).join('|')}) ${UNIT} ago`,
  '(?:last|this|next) (?:week|month|year)',
  'today|yesterday',
  'in \\d{4}',
];

/** Expressions placed on the timeline (`timeline` option), most precise first. */
function timelineRange(
  q: string,
  now: Date,
): { from: Date; to: Date; at: number; length: number } | undefined {
  let m: RegExpExecArray | null;
  const before = new RegExp(
    `\\b(?:the )?(?:last )?(week|weekend|day) (?:right )?before ((?:on )?\\d{1,2}(?:st|nd|rd|th)? ${MONTH},? \\d{4}|(?:on )?${MONTH} \\d{1,2}(?:st|nd|rd|th)?,? \\d{4})\\b`,
  );
  if ((m = before.exec(q))) {
    const date = span(m[2], now);
    if (date) {
      const days = m[1] === 'week' ? 7 : m[1] === 'weekend' ? 3 : 1;
      return { from: addDays(date.from, -days), to: date.to, at: m.index, length: m[0].length };
    }
  }
  if ((m = /\blast weekend\b/.exec(q))) {
    const monday = weekStart(utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { from: addDays(monday, -2), to: monday, at: m.index, length: m[0].length };
  }
  if ((m = new RegExp(`\\b(?:in|during) ${MONTH}(?!,? \\d)\\b`).exec(q))) {
    const month = monthIndex(m[1]);
    const year = now.getUTCFullYear() - (month > now.getUTCMonth() ? 1 : 0);
    return { from: utc(year, month), to: utc(year, month + 1), at: m.index, length: m[0].length };
  }
  return undefined;
}

export function timeRangeOf(
  question: string,
  now: Date,
  opts: { timeline?: boolean } = {},
): TimeRange | undefined {
  const q = question.toLowerCase();
  const placed = opts.timeline ? timelineRange(q, now) : undefined;
  if (placed)
    return {
      from: placed.from.toISOString(),
      to: placed.to.toISOString(),
      text: question.slice(placed.at, placed.at + placed.length).trim(),
    };
  const bound = '(before|after|since|until|by)? ?';
  for (const phrase of PHRASES) {
    const m = new RegExp(`\\b${bound}(${phrase})\\b`).exec(q);
    if (!m) continue;
    const s = span(m[2], now);
    if (!s) continue;
    const text = question.slice(m.index, m.index + m[0].length).trim();
    const word = m[1];
    if (word === 'before' || word === 'until' || word === 'by') return { to: s.from.toISOString(), text };
    if (word === 'after') return { from: s.to.toISOString(), text };
    if (word === 'since') return { from: s.from.toISOString(), text };
    return { from: s.from.toISOString(), to: s.to.toISOString(), text };
  }
  return undefined;
}
