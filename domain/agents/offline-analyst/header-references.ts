/**
 * Headers and references by evidence (docs/offline-analyst.md#headers-and-references-by-evidence):
 * a date a table inherits through a reference covers only the rows where that reference is set, so
 * a key set on one row in four dates a quarter of the rows at most, however complete the referenced
 * table's own date is; and a declared key is tried before one only implied by names.
 */
import type { PrdRelationship } from '../../../shared/prd-schema';
import type { SourceTable } from '../../../shared/source-schema';
import {
  percent,
  SUPPORT_ORDER,
  supportOfCoverage,
  type EventTimeCandidate,
  type EventTimeMeaning,
  type EventTimeSupport,
  type OwnEventTime,
} from './event-time';

/** One step of the way to the table holding the date: `table(columns)` references the next. */
export interface ReferenceStep {
  table: SourceTable;
  columns: string[];
}

/**
 * The share of `table`'s rows whose reference through `columns` is set: 1 when every column is
 * NOT NULL, the explorer's count otherwise, undefined when a nullable column was not counted.
 */
export function referenceShare(table: SourceTable, columns: string[]): number | undefined {
  let share = 1;
  for (const name of columns) {
    const column = table.columns.find((c) => c.name === name);
    if (!column || !column.nullable) continue;
    const set = table.non_null?.[name];
    if (set === undefined || table.row_count === 0) return undefined;
    share = Math.min(share, Math.min(1, set / table.row_count));
  }
  return share;
}

const worse = (a: EventTimeSupport, b: EventTimeSupport): EventTimeSupport =>
  SUPPORT_ORDER[Math.max(SUPPORT_ORDER.indexOf(a), SUPPORT_ORDER.indexOf(b))];

/**
 * The holder's best date offered to a table that reaches it through `steps` (the first step leaves
 * from that table): its figures scaled by the share of rows whose references are all set. Without
 * counts, a nullable reference leaves the date partial at best and claims no coverage.
 */
export function inheritedThrough(
  holder: OwnEventTime | undefined,
  steps: ReferenceStep[],
): EventTimeCandidate | undefined {
  if (!holder) return undefined;
  const inherited: EventTimeCandidate = { ...holder.candidate, inherited: true };
  const shares = steps.map((s) => ({ step: s, share: referenceShare(s.table, s.columns) }));
  const unset = shares.filter((s) => s.share !== 1);
  if (!unset.length) return inherited;
  const named = unset.map((s) => `${s.step.table.name}.${s.step.columns.join('+')}`).join(', ');
  if (unset.some((s) => s.share === undefined)) {
    // The header's coverage is not this table's: claim none.
    return {
      ...inherited,
      coverage: undefined,
      support: worse(inherited.support, 'partial'),
      weakness: `${named} may be unset (nullable, not counted)`,
    };
  }
  // Rows reached: the first step's share, then each later step's share of the rows it reaches.
  const reach = unset.reduce((r, s) => r * s.share!, 1);
  const coverage = (inherited.coverage ?? 1) * reach;
  return {
    ...inherited,
    coverage,
    support: worse(inherited.support, supportOfCoverage(coverage)),
    weakness: `${named} set on ${percent(reach)} of rows${inherited.weakness ? `; ${inherited.weakness}` : ''}`,
  };
}

/** References tried in order: declared foreign keys before keys only implied by names. */
export function declaredFirst(references: PrdRelationship[]): PrdRelationship[] {
  return [...references].sort((a, b) => Number(a.origin !== 'declared') - Number(b.origin !== 'declared'));
}

/** Meanings of a date that say it is the table's own business event (`orders.order_date`). */
const BUSINESS_DATES: ReadonlySet<EventTimeMeaning> = new Set<EventTimeMeaning>([
  'names the table itself',
  'names a business event',
]);

/**
 * Whether a table's own date is a business date a header is dated by: naming the table or a
 * business event (an order date, an invoice date), never a creation time (a customer's signup) or
 * a plain date (a product's launch), and set on enough rows to date them.
 */
export function isHeaderDate(own: OwnEventTime | undefined): boolean {
  if (!own) return false;
  const c = own.candidate;
  return BUSINESS_DATES.has(c.meaning) && (c.support === 'complete' || c.support === 'partial');
}
