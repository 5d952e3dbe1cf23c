/**
 * Derived tables (docs/offline-analyst.md#summary-tables): a roll-up an earlier warehouse left in
 * the source (sales by store and month, by product line) whose rows are sums of another fact's
 * rows. Counting it as a fact re-counts the same sales, so it is role `summary` and gets no metrics.
 *
 * The evidence is structure and data, never a table's name: fewer rows than the fact; nothing
 * references it; every column is a measure, a period, or a dimension the fact reaches (its own
 * columns or those of tables it references, one or two joins away), and no column identifies a
 * fact row; at least one measure reads as an aggregate (`total_`, `sum_`, `_count`, `units_sold`)
 * and every other measure has a counterpart of the same kind on the fact; a period column, when
 * there is one, lies within the fact's dates; a count column adds up to the fact's rows (from the
 * explorer's totals, or a sample that holds every row), and a money total that equals the fact's is
 * reported as reconciling. A plan or target shaped like a roll-up (an amount per store and month) has no
 * aggregate measure, and a genuine event (a refund with its order's key) identifies fact rows.
 */
import { dayGrain } from '../../../shared/date-keys';
import type { PrdRelationship } from '../../../shared/prd-schema';
import type { SourceColumn, SourceTable } from '../../../shared/source-schema';
import { ADDITIVE_MEANINGS, type ColumnMeaning } from './column-meaning';
import { isUsable, type OwnEventTime } from './event-time';
import { columnWords, normalizedColumn } from './name-words';

/** What the classifier knows of a table when it looks for roll-ups. */
export interface SummaryCandidate {
  table: SourceTable;
  meaning: Map<string, ColumnMeaning>;
  ownDate?: OwnEventTime;
  /** N:1 references out of the table (declared and inferred). */
  references: PrdRelationship[];
  /** Tables that reference this one. */
  referencedBy: string[];
}

/** A roll-up and the fact whose rows it sums. */
export interface SummaryTable {
  fact: string;
  evidence: string;
}

/** Words naming an aggregate of rows: a total, a sum, a count, what was sold. */
const AGGREGATE_WORDS = ['total', 'totals', 'sum', 'count', 'cnt', 'sold', 'aggregate'];
/** Words naming a count of rows (what a summary's count should add up to). */
const COUNT_WORDS = ['count', 'cnt'];
/** Words naming a period column stored as text or a number (`period`, `yyyymm`). */
const PERIOD_WORDS = ['period', 'yyyymm', 'yearmonth', 'ym'];
const AUDIT = /^(last_?update|last_?updated|updated_?at|update_?time|modified|modified_?at|etl_.*)$/i;

const has = (words: string[], vocab: string[]) => words.some((w) => vocab.includes(w));

/**
 * Each table that is a roll-up of another, by name, with the fact it sums and why. `relationships`
 * are every declared and inferred key: a declared key into a table says it is no roll-up.
 */
export function findSummaryTables(
  tables: SummaryCandidate[],
  relationships: PrdRelationship[],
): Map<string, SummaryTable> {
  const byName = new Map(tables.map((t) => [t.table.name, t]));
  const counted = tables.some((t) => t.table.row_count > 0);
  const found = new Map<string, SummaryTable>();
  if (!counted) return found;
  // Facts with more rows first: a roll-up sums the finest table it can.
  const facts = [...tables]
    .filter((f) => datedReach(f, byName).length > 0)
    .sort((a, b) => b.table.row_count - a.table.row_count);
  for (const s of tables) {
    const into = relationships.filter((r) => r.references_table === s.table.name && r.table !== s.table.name);
    // A declared key into it, or a composite key a table holds column for column, says it is an entity.
    if (s.table.row_count === 0 || into.some((r) => r.origin === 'declared' || r.columns.length >= 2))
      continue;
    for (const f of facts) {
      if (f === s || f.table.row_count <= s.table.row_count) continue;
      const evidence = summaryEvidence(s, f, byName, into);
      if (evidence) {
        found.set(s.table.name, { fact: f.table.name, evidence });
        break;
      }
    }
  }
  return found;
}

/** Tables within one join of `f` (itself included) with a usable date of their own. */
function datedReach(f: SummaryCandidate, byName: Map<string, SummaryCandidate>): SummaryCandidate[] {
  const near = [f, ...f.references.map((r) => byName.get(r.references_table)!).filter(Boolean)];
  // A year alone (a store's opening year) describes the row; it dates no event.
  return near.filter(
    (t) => !!t.ownDate && isUsable(t.ownDate.candidate) && dayGrain(t.ownDate.candidate.reading) !== 'year',
  );
}

/** The tables a fact reaches through N:1 references, at most two joins away (itself first). */
function reach(f: SummaryCandidate, byName: Map<string, SummaryCandidate>): SummaryCandidate[] {
  const seen = new Map<string, SummaryCandidate>([[f.table.name, f]]);
  let frontier = [f];
  for (let hop = 0; hop < 2; hop++) {
    const next: SummaryCandidate[] = [];
    for (const t of frontier)
      for (const r of t.references) {
        const target = byName.get(r.references_table);
        if (target && !seen.has(target.table.name)) {
          seen.set(target.table.name, target);
          next.push(target);
        }
      }
    frontier = next;
  }
  return [...seen.values()];
}

/** Why `s` is a roll-up of `f`, or undefined when the evidence does not hold. */
function summaryEvidence(
  s: SummaryCandidate,
  f: SummaryCandidate,
  byName: Map<string, SummaryCandidate>,
  into: PrdRelationship[],
): string | undefined {
  const columns = s.table.columns.filter((c) => !AUDIT.test(c.name));
  // A roll-up's period is a day or coarser: a time of day belongs to an event.
  if (columns.some((c) => c.data_type === 'datetime' || c.data_type === 'timestamp')) return undefined;
  const words = (c: SourceColumn) => columnWords(s.table, c.name);
  const measures = columns.filter((c) => ADDITIVE_MEANINGS.has(s.meaning.get(c.name)!));
  const periods = columns.filter(
    (c) => c.data_type === 'date' || s.meaning.get(c.name) === 'calendar' || has(words(c), PERIOD_WORDS),
  );
  const dims = columns.filter((c) => !measures.includes(c) && !periods.includes(c));
  const aggregates = measures.filter((c) => has(words(c), AGGREGATE_WORDS));
  if (!aggregates.length || (!periods.length && !dims.length)) return undefined;

  // Every dimension is one the fact reaches, and none identifies a row of a dated table.
  const reached = reach(f, byName);
  const reachedNames = new Set(reached.map((t) => t.table.name));
  const dated = new Set(datedReach(f, byName).map((t) => t.table.name));
  if (s.references.some((r) => !reachedNames.has(r.references_table) || dated.has(r.references_table)))
    return undefined;
  const rowKeys = new Set(
    reached
      .filter((t) => dated.has(t.table.name) && t.table.primary_key.length === 1)
      .map((t) => normalizedColumn(t.table, t.table.primary_key[0])),
  );
  const reachedColumns = new Set(
    reached.flatMap((t) => t.table.columns.map((c) => normalizedColumn(t.table, c.name))),
  );
  const viaKey = new Set(s.references.flatMap((r) => r.columns));
  for (const d of dims) {
    const name = normalizedColumn(s.table, d.name);
    if (rowKeys.has(name)) return undefined;
    if (!viaKey.has(d.name) && !reachedColumns.has(name)) return undefined;
  }
  // A key inferred into it only from the attribute it is grouped by (products.product_line) is
  // no reference: the roll-up repeats the attribute, it does not describe it.
  const grouped = new Set(dims.map((d) => d.name));
  if (into.some((r) => !reachedNames.has(r.table) || !r.references_columns.every((c) => grouped.has(c))))
    return undefined;

  // Each measure sums something the fact measures: money from money (or a quantity times a price).
  const factMeanings = new Set(f.table.columns.map((c) => f.meaning.get(c.name)!));
  const counterpart = (m: ColumnMeaning) =>
    factMeanings.has(m) || (m === 'money' && factMeanings.has('unit_price') && factMeanings.has('quantity'));
  const counts = measures.filter((c) => has(words(c), COUNT_WORDS));
  for (const m of measures) if (!counts.includes(m) && !counterpart(s.meaning.get(m.name)!)) return undefined;

  const period = periodEvidence(s, periods, f, byName);
  if (period === false) return undefined;
  const reconciled = countEvidence(s, counts, f, reached);
  if (reconciled === false) return undefined;
  const totals = totalsEvidence(
    s,
    aggregates.filter((c) => !counts.includes(c)),
    reached,
  );

  const grain = [...dims.map((d) => d.name), ...periods.map((p) => p.name)].join(' × ');
  return [
    `a roll-up of ${f.table.name}: ${s.table.row_count} rows against its ${f.table.row_count}`,
    `one row per ${grain}, dimensions ${f.table.name} reaches`,
    `aggregate measures ${aggregates.map((c) => c.name).join(', ')}`,
    ...(period ? [period] : []),
    ...(reconciled ? [reconciled] : []),
    ...(totals ? [totals] : []),
    into.length
      ? `referenced by no declared key (keys inferred from ${into.map((r) => `${r.table}.${r.columns.join('+')}`).join(', ')} only repeat its grouping)`
      : 'nothing references it',
    'no metrics of its own (they would re-count the fact)',
  ].join('; ');
}

/**
 * The period against the fact's dates: a DATE within the fact's first and last day, a year within
 * its years (`false` when outside). Undefined when there is no period or nothing to compare.
 */
function periodEvidence(
  s: SummaryCandidate,
  periods: SourceColumn[],
  f: SummaryCandidate,
  byName: Map<string, SummaryCandidate>,
): string | false | undefined {
  const date = datedReach(f, byName)[0]?.ownDate?.candidate;
  if (!periods.length) return undefined;
  if (!date?.first || !date.last) return `period ${periods.map((p) => p.name).join(', ')}`;
  const [first, last] = [date.first, date.last];
  for (const p of periods) {
    if (p.data_type === 'date') {
      const stats = s.table.date_stats?.[p.name];
      if (stats?.first && stats.last && (stats.first < first.slice(0, 7) || stats.last > last)) return false;
      const days = s.table.sample_rows.map((r) => r[p.name]).filter((v): v is string => !!v);
      const monthly = days.length > 1 && days.every((d) => d.slice(8, 10) === '01');
      return `period ${p.name}${monthly ? ' (first of each month)' : ''} within ${date.table}.${date.column} (${first} … ${last})`;
    }
    if (has(columnWords(s.table, p.name), ['year', 'yr'])) {
      const years = s.table.sample_rows.map((r) => Number(r[p.name])).filter((y) => y > 999);
      if (years.some((y) => y < Number(first.slice(0, 4)) || y > Number(last.slice(0, 4)))) return false;
    }
  }
  return `period ${periods.map((p) => p.name).join(', ')} coarser than ${date.table}.${date.column}`;
}

/**
 * Totals that reconcile where the sample shows them whole: a count column of a table sampled in
 * full adds up to the rows of the fact or of a dated table it reaches (`false` when it adds up to
 * neither). Undefined when no count can be checked.
 */
function countEvidence(
  s: SummaryCandidate,
  counts: SourceColumn[],
  f: SummaryCandidate,
  reached: SummaryCandidate[],
): string | false | undefined {
  const whole = s.table.sample_rows.length === s.table.row_count;
  // The explorer's total of the column, else the sum of a sample that holds every row.
  const totalOf = (c: SourceColumn) =>
    s.table.sums?.[c.name] !== undefined
      ? Number(s.table.sums[c.name])
      : whole
        ? s.table.sample_rows.reduce((n, r) => n + Number(r[c.name] ?? 0), 0)
        : undefined;
  const checked = counts.filter((c) => totalOf(c) !== undefined);
  if (!checked.length) return undefined;
  const targets = [f, ...reached.filter((t) => t !== f && !!t.ownDate)];
  for (const c of checked) {
    const total = totalOf(c)!;
    const match = targets.find((t) => t.table.row_count === total);
    if (match) return `its ${c.name} adds up to the ${total} rows of ${match.table.name}`;
  }
  return false;
}

/** Two totals equal to the cent (a float column's total may differ in its last digits). */
const sameTotal = (a: number, b: number) => Math.abs(a - b) <= 0.005 + 1e-9 * Math.abs(b);

/**
 * Totals that reconcile: an aggregate measure of the roll-up whose total equals, to the cent, the
 * total of a column of the same meaning on the fact or a dated table it reaches (the explorer's
 * `sums`). Undefined when no total matches or none was taken: a roll-up may cover fewer periods
 * than the fact, and a fact's revenue may be a quantity times a price, which no column totals.
 */
function totalsEvidence(
  s: SummaryCandidate,
  aggregates: SourceColumn[],
  reached: SummaryCandidate[],
): string | undefined {
  const matches = aggregates.flatMap((m) => {
    const mine = s.table.sums?.[m.name];
    if (mine === undefined) return [];
    const match = reached
      .flatMap((t) => t.table.columns.map((c) => ({ t, c, theirs: t.table.sums?.[c.name] })))
      .find(
        ({ t, c, theirs }) =>
          theirs !== undefined &&
          t.meaning.get(c.name) === s.meaning.get(m.name) &&
          sameTotal(Number(mine), Number(theirs)),
      );
    return match ? [`${m.name} = ${match.t.table.name}.${match.c.name} (${mine})`] : [];
  });
  return matches.length ? `totals reconcile: ${matches.join(', ')}` : undefined;
}

/**
 * The relationships without the keys inferred into roll-ups: a dimension's attribute named like a
 * roll-up's grouping column (`products.product_line` → `sales_by_product_line`) joins nothing.
 */
export function withoutKeysIntoSummaries(
  relationships: PrdRelationship[],
  summaries: ReadonlySet<string>,
): PrdRelationship[] {
  const kept = relationships.filter((r) => r.origin === 'declared' || !summaries.has(r.references_table));
  return kept.length === relationships.length ? relationships : kept;
}
