/**
 * Dates found in the values rather than the declared types (docs/offline-analyst.md#dates-read-from-values):
 * text columns whose sampled values are days (`06/01/2020`, `2013-01-01T10:00:00Z`), and integer
 * columns that hold a day's year, month and day. The explorer measures each over the whole table in
 * the same scan as the declared dates.
 */
import type { DateColumnStats, SourceColumn } from '../../shared/source-schema';
import { quoteMysqlIdent } from '../../shared/sql-quoting';
import {
  datePartOfName,
  epochUnit,
  isRealDay,
  textDateShapes,
  valuesFitPart,
  type DateParts,
  type TextDateShape,
} from '../../shared/text-dates';

const TEXT = new Set(['char', 'varchar', 'text', 'tinytext', 'mediumtext']);
const INTEGER = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint', 'year']);

/** A date the values hold: text in one of its shapes, integer parts, or moments since 1970. */
export type ValueDate =
  | { kind: 'text'; column: SourceColumn; shapes: TextDateShape[] }
  | { kind: 'parts'; parts: DateParts }
  | { kind: 'epoch'; column: SourceColumn; unit: 's' | 'ms' };

/** The dates `samples` (rows read for their values) show beyond the declared date types. */
export function valueDates(columns: SourceColumn[], samples: Record<string, unknown>[]): ValueDate[] {
  const values = (c: SourceColumn) =>
    samples.map((r) => r[c.name]).filter((v) => v !== null && v !== undefined && String(v).trim() !== '');
  const out: ValueDate[] = [];
  for (const c of columns.filter((x) => TEXT.has(x.data_type))) {
    const set = values(c).map(String);
    // Enough values to tell a day from a code that happens to look like one.
    if (set.length < 3) continue;
    const shapes = textDateShapes(set);
    if (shapes.length) out.push({ kind: 'text', column: c, shapes });
  }
  // Integer parts named as parts of one date (`year`, `month`, `day`; `birthYear`…) whose values fit.
  const groups = new Map<string, DateParts & { seen: Set<string> }>();
  for (const c of columns.filter((x) => INTEGER.has(x.data_type))) {
    const named = datePartOfName(c.name);
    if (!named) continue;
    const numbers = values(c).map(Number);
    if (!valuesFitPart(named.part, numbers)) continue;
    const group = groups.get(named.of) ?? { year: '', seen: new Set<string>() };
    if (group.seen.has(named.part)) continue;
    group.seen.add(named.part);
    group[named.part] = c.name;
    groups.set(named.of, group);
  }
  // Moments since 1970 kept as integers (`created_at` 1700000000), named as moments.
  for (const c of columns.filter((x) => ['int', 'integer', 'bigint'].includes(x.data_type))) {
    if (groups.size && [...groups.values()].some((g) => Object.values(g).includes(c.name))) continue;
    const unit = epochUnit(c.name, values(c).map(Number));
    if (unit) out.push({ kind: 'epoch', column: c, unit });
  }
  for (const g of groups.values()) {
    // A day without its year, or a day without its month, names no day.
    if (!g.year || (g.day && !g.month)) continue;
    out.push({
      kind: 'parts',
      parts: { year: g.year, ...(g.month ? { month: g.month } : {}), ...(g.day ? { day: g.day } : {}) },
    });
  }
  return out;
}

/** How MySQL reads one value date as a DATE, and when its raw value counts as set. */
function dayOf(d: ValueDate, shape?: TextDateShape): { set: string; day: string } {
  if (d.kind === 'text') {
    const col = `TRIM(${quoteMysqlIdent(d.column.name)})`;
    return {
      set: `(${col} <> '')`,
      day: `(CASE WHEN ${col} REGEXP '${shape!.pattern}' THEN STR_TO_DATE(${col}, '${shape!.mysqlFormat}') END)`,
    };
  }
  if (d.kind === 'epoch') {
    const col = quoteMysqlIdent(d.column.name);
    return {
      set: `(${col} IS NOT NULL)`,
      day: `(DATE('1970-01-01') + INTERVAL (${col} DIV ${d.unit === 's' ? 86_400 : 86_400_000}) DAY)`,
    };
  }
  const q = (c: string | undefined) => (c ? quoteMysqlIdent(c) : '1');
  const { year, month, day } = d.parts;
  return {
    set: `(${quoteMysqlIdent(year)} IS NOT NULL)`,
    day: `STR_TO_DATE(CONCAT_WS('-', ${q(year)}, ${q(month)}, ${q(day)}), '%Y-%m-%d')`,
  };
}

/** The aggregates measuring every reading of each value date, named `v<i>_<j>_*`. */
export function valueDateAggregates(dates: ValueDate[]): string[] {
  return dates.flatMap((d, i) =>
    (d.kind === 'text' ? d.shapes : [undefined]).flatMap((shape, j) => {
      const { set, day } = dayOf(d, shape);
      const yearAlone = d.kind === 'parts' && !d.parts.month && !d.parts.day;
      const real = isRealDay(day, (d) => `'${d}'`, yearAlone);
      const p = `v${i}_${j}`;
      return [
        `COALESCE(SUM(${set}), 0) AS ${p}_n`,
        `COALESCE(SUM(${real}), 0) AS ${p}_r`,
        `DATE_FORMAT(MIN(CASE WHEN ${real} THEN ${day} END), '%Y-%m-%d') AS ${p}_lo`,
        `DATE_FORMAT(MAX(CASE WHEN ${real} THEN ${day} END), '%Y-%m-%d') AS ${p}_hi`,
        `COALESCE(SUM(${real} AND ${day} > NOW()), 0) AS ${p}_f`,
      ];
    }),
  );
}

/**
 * Each value date's figures from the scan's row, by the column that names it (the text column, or
 * the year of a date in parts). Of two day/month orders, the one that reads more rows as days wins.
 */
export function valueDateStats(
  dates: ValueDate[],
  row: Record<string, unknown>,
): Record<string, DateColumnStats> {
  const stats: Record<string, DateColumnStats> = {};
  dates.forEach((d, i) => {
    const readings = (d.kind === 'text' ? d.shapes : [undefined]).map((shape, j) => {
      const p = `v${i}_${j}`;
      const n = Number(row[`${p}_n`]);
      const real = Number(row[`${p}_r`]);
      return {
        shape,
        real,
        figures: {
          non_null: n,
          placeholder: Math.max(0, n - real),
          ...(row[`${p}_lo`] ? { first: String(row[`${p}_lo`]), last: String(row[`${p}_hi`]) } : {}),
          future: Number(row[`${p}_f`]),
        },
      };
    });
    const best = readings.reduce((a, b) => (b.real > a.real ? b : a));
    // Nine in ten set values must read as days over the whole table, not only in the sample.
    if (best.figures.non_null === 0 || best.real < 0.9 * best.figures.non_null) return;
    if (d.kind === 'epoch') stats[d.column.name] = { encoding: 'epoch', unit: d.unit, ...best.figures };
    else if (d.kind === 'text')
      stats[d.column.name] = {
        encoding: 'text',
        format: best.shape!.format,
        ...(readings.length > 1 && readings[0].real === readings[1].real ? { ambiguous: true } : {}),
        ...best.figures,
      };
    else stats[d.parts.year] = { encoding: 'parts', parts: d.parts, ...best.figures };
  });
  return stats;
}
