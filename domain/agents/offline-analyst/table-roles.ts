/**
 * Each source table's role, from structure and data: event facts (their own business date),
 * header/line pairs (a line has no date and takes its header's through an N:1 key), snapshots
 * (quantities with no time at all), dimensions (entities facts reference, catalogs included),
 * bridges (many-to-many links), lookups (code → label lists) and summaries (roll-ups of a fact's
 * rows, `summary-tables.ts`).
 */
import type { PrdRelationship, TableRole } from '../../../shared/prd-schema';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { ADDITIVE_MEANINGS, columnMeaning, type ColumnMeaning } from './column-meaning';
import { calendarCandidates, calendarEvidence, calendarOf, type Calendar } from './calendar-tables';
import {
  isUsable,
  ownCandidates,
  ownEventTime,
  rankCandidates,
  type EventTimeCandidate,
  type OwnEventTime,
} from './event-time';
import { declaredFirst, inheritedThrough, isHeaderDate, type ReferenceStep } from './header-references';
import { referencesByTable } from './implied-keys';
import { dayGrain } from '../../../shared/date-keys';
import { findSummaryTables, type SummaryTable } from './summary-tables';
import { columnWords } from './name-words';
import { warehouseType } from './warehouse-types';

/** Row-maintenance timestamps and ETL bookkeeping, never modeled. */
export const AUDIT_COLUMN =
  /^(last_?update|last_?updated|updated_?at|update_?time|modified|modified_?at|modified_?date|last_?modified|etl_.*)$/i;
/** Credentials never leave ODS. */
export const SENSITIVE_COLUMN = /(password|passwd|secret|token|hash|salt)/i;

/** The roles of tables that hold business facts. */
export const FACT_ROLES: ReadonlySet<string> = new Set(['event', 'header', 'line', 'snapshot']);

/** Columns worth modeling beyond ODS: not audit bookkeeping, not credentials, not raw bytes. */
export const isModeledColumn = (c: SourceColumn): boolean =>
  !AUDIT_COLUMN.test(c.name) && !SENSITIVE_COLUMN.test(c.name) && warehouseType(c) !== 'BLOB';

/** Words of columns that name or describe an entity (a customer's name, a film's title). */
const LABEL_WORDS = ['name', 'title', 'email', 'username', 'login', 'label', 'firstname', 'lastname'];

export interface TableAnalysis {
  table: SourceTable;
  role: TableRole;
  evidence: string;
  meaning: Map<string, ColumnMeaning>;
  ownDate?: OwnEventTime;
  /** The dates of the calendars its keys reach, offered as its own (docs/offline-analyst.md#calendar-dimensions). */
  calendarDates: EventTimeCandidate[];
  /** N:1 references (declared and inferred), self-references left out. */
  references: PrdRelationship[];
  /** Tables that reference this one. */
  referencedBy: string[];
  /** For a line: its header table. */
  header?: string;
}

/** Text columns that name or describe a row (customer.last_name, film.title, Genre.Name). */
export function labelColumns(table: SourceTable): SourceColumn[] {
  return table.columns.filter(
    (c) =>
      ['varchar', 'char', 'text', 'tinytext', 'mediumtext'].includes(c.data_type) &&
      columnWords(table, c.name).some((w) => LABEL_WORDS.includes(w)) &&
      !SENSITIVE_COLUMN.test(c.name),
  );
}

/** Columns that are neither keys nor row-maintenance bookkeeping. */
function attributeColumns(table: SourceTable, keys: Set<string>): SourceColumn[] {
  return table.columns.filter(
    (c) => !keys.has(c.name) && !table.primary_key.includes(c.name) && !AUDIT_COLUMN.test(c.name),
  );
}

/** A table as read before its role is known, with the columns of its references. */
type TableReading = Omit<TableAnalysis, 'role' | 'evidence' | 'header'> & { keys: Set<string> };

/** What the shape tests read beyond a table itself. */
interface Survey {
  calendars: Map<string, Calendar>;
  summaries: Map<string, SummaryTable>;
  /** Whether row counts are known (some table has rows): an empty table then has nothing to analyse yet. */
  counted: boolean;
}

/** A line's header and the reference that leads to it. */
interface LineOf {
  header: string;
  via: PrdRelationship;
}

/** The tables dated as facts: events by their own date, lines by their header's. */
interface DatedFacts {
  events: Set<string>;
  lines: Map<string, LineOf>;
  headers: Set<string>;
  facts: Set<string>;
}

/** Every table analysed; `relationships` are the declared and inferred foreign keys. */
export function analyseTables(snapshot: SourceSnapshot, relationships: PrdRelationship[]): TableAnalysis[] {
  const refs = referencesByTable(relationships);
  const base = snapshot.tables.map((table): TableReading => {
    const references = (refs.get(table.name) ?? []).filter((r) => r.references_table !== table.name);
    const keys = new Set(references.flatMap((r) => r.columns));
    const meaning = new Map(table.columns.map((c) => [c.name, columnMeaning(table, c, keys)]));
    const referencedBy = relationships
      .filter((r) => r.references_table === table.name && r.table !== table.name)
      .map((r) => r.table);
    return {
      table,
      meaning,
      keys,
      references,
      referencedBy: [...new Set(referencedBy)],
      ownDate: ownEventTime(table),
      calendarDates: [],
    };
  });
  // Roll-ups re-count a fact's rows: never facts, never headers.
  const summaries = findSummaryTables(base, relationships);
  const survey: Survey = {
    summaries,
    calendars: datedByCalendars(base),
    counted: snapshot.tables.some((t) => t.row_count > 0),
  };
  const dated = datedFacts(base, survey);
  return base.map((b) => analysed(b, survey, dated));
}

/**
 * Calendars (one row per day and its parts, no measures) date the tables whose keys reach them:
 * each other table is given their dates as its own.
 */
function datedByCalendars(base: TableReading[]): Map<string, Calendar> {
  const calendars = new Map<string, Calendar>(
    base.flatMap((b) => {
      const calendar = additive(b) ? undefined : calendarOf(b.table);
      return calendar ? [[b.table.name, calendar] as const] : [];
    }),
  );
  for (const b of base) {
    if (calendars.has(b.table.name)) continue;
    b.calendarDates = calendarCandidates(b.table, b.references, calendars);
    if (b.calendarDates.length) b.ownDate = ownEventTime(b.table, b.calendarDates);
  }
  return calendars;
}

/** Whether a column of the table has one of these meanings. */
const holds = (b: TableReading, meanings: readonly string[]) =>
  b.table.columns.some((c) => meanings.includes(b.meaning.get(c.name)!));
const additive = (b: TableReading) =>
  b.table.columns.some((c) => ADDITIVE_MEANINGS.has(b.meaning.get(c.name)!));
const entityLike = (b: TableReading) => labelColumns(b.table).length > 0;
const empty = (b: TableReading, s: Survey) => s.counted && b.table.row_count === 0;
/** An own date the figures support (set on at least half the rows, plausible). */
const usableOwn = (b: TableReading) => !!b.ownDate && isUsable(b.ownDate.candidate);

function isBridge(b: TableReading): boolean {
  const targets = b.references.map((r) => r.references_table);
  const attrs = attributeColumns(b.table, b.keys).filter((c) => b.meaning.get(c.name) !== 'temporal');
  // A link with its own key that facts reference (Sakila's inventory) is an entity, not a bridge.
  const keyIsLinks = b.table.primary_key.every((c) => b.keys.has(c));
  return (
    targets.length >= 2 &&
    attrs.length <= 1 &&
    !additive(b) &&
    !b.ownDate &&
    !entityLike(b) &&
    (keyIsLinks || b.referencedBy.length === 0)
  );
}

function isLookup(b: TableReading): boolean {
  const attrs = attributeColumns(b.table, b.keys);
  return (
    b.references.length === 0 &&
    !personNameColumns(b.table) &&
    b.table.row_count <= 30 &&
    attrs.length >= 1 &&
    attrs.length <= 2 &&
    attrs.every((c) => b.meaning.get(c.name) === 'text')
  );
}

/** An entity with a date (customer.signup_date, film.release_date) that facts reference is a dimension. */
function eventShaped(b: TableReading, s: Survey): boolean {
  return (
    !!b.ownDate &&
    !s.calendars.has(b.table.name) &&
    !empty(b, s) &&
    !s.summaries.has(b.table.name) &&
    !isBridge(b) &&
    !isLookup(b) &&
    // A dated table of readings (prices, temperatures) is a fact too: a series of what they stood at.
    (b.references.length > 0 || additive(b) || holds(b, ['level', 'unit_price', 'rate'])) &&
    !(entityLike(b) && b.referencedBy.length > 0) &&
    // A year alone on a row others reference (a plane's build year) describes the thing, not an event.
    !(b.referencedBy.length > 0 && yearOnly(b.ownDate)) &&
    // Events recur: a year alone dates a table only when its years hold several rows each (a
    // company's founding year on its one row is an attribute).
    !(yearOnly(b.ownDate) && b.table.row_count < 2 * yearSpan(b.ownDate))
  );
}

const lineShaped = (b: TableReading, s: Survey) =>
  !empty(b, s) &&
  !isBridge(b) &&
  (additive(b) || holds(b, ['unit_price', 'quantity']) || lineNumbered(b.table));

/**
 * A table with its own business date that a line-shaped table references through a declared key
 * is a header whatever its size or its labels (an order with a ship-to name): tried as one, and
 * left a dimension if no line takes its date.
 */
const headerByEvidence = (b: TableReading, base: TableReading[], s: Survey) =>
  isHeaderDate(b.ownDate) &&
  !empty(b, s) &&
  !isBridge(b) &&
  !isLookup(b) &&
  base.some(
    (x) =>
      x !== b &&
      lineShaped(x, s) &&
      // A declared key, or a composite key the line holds column for column (as strong as declared).
      x.references.some(
        (r) => (r.origin === 'declared' || r.columns.length >= 2) && r.references_table === b.table.name,
      ),
  );

/** The events (dated by their own date), the lines (dated by their header's) and those headers. */
function datedFacts(base: TableReading[], survey: Survey): DatedFacts {
  const byName = new Map(base.map((b) => [b.table.name, b]));
  const events = new Set(base.filter((b) => usableOwn(b) && eventShaped(b, survey)).map((b) => b.table.name));
  const tried = base
    .filter((b) => !events.has(b.table.name) && headerByEvidence(b, base, survey))
    .map((b) => b.table.name);
  for (const name of tried) events.add(name);
  // A table that became a line is no header for others: find the lines again without it, until
  // none changes (a line under a line would otherwise take the first line's own date).
  let lines = new Map<string, LineOf>();
  for (let round = 0; round < 4; round++) {
    const found = new Map(
      base.flatMap((b) => {
        const h = headerOf(b, byName, events, survey);
        return h ? [[b.table.name, h] as const] : [];
      }),
    );
    const moved = [...found.keys()].filter((name) => events.delete(name));
    lines = found;
    if (!moved.length) break;
  }
  const headers = new Set([...lines.values()].map((h) => h.header));
  for (const name of tried) if (!headers.has(name)) events.delete(name);
  // A table whose own date the figures hardly support, and that belongs to no header, is still
  // dated by it: the PRD says how weak it is.
  for (const b of base)
    if (
      !lines.has(b.table.name) &&
      !events.has(b.table.name) &&
      b.ownDate &&
      // A date set on no row at all (only placeholders such as 0000-00-00) dates nothing.
      b.ownDate.candidate.coverage !== 0 &&
      eventShaped(b, survey)
    )
      events.add(b.table.name);
  return { events, lines, headers, facts: new Set([...events, ...lines.keys()]) };
}

/**
 * The header's date dates the table when the references reaching it are set on enough rows and
 * it ranks above every date of the table's own.
 */
function headerDateWins(b: TableReading, header: TableReading, steps: ReferenceStep[]): boolean {
  const inherited = inheritedThrough(header.ownDate, steps);
  return (
    !!inherited &&
    isUsable(inherited) &&
    rankCandidates([...ownCandidates(b.table, b.calendarDates), inherited])[0] === inherited
  );
}

/**
 * A line belongs to a dated event (its header), directly or via one hop, and has no date of its
 * own that ranks above the header's (none, or one set on a handful of rows, or a later moment).
 */
function headerOf(
  b: TableReading,
  byName: Map<string, TableReading>,
  events: Set<string>,
  survey: Survey,
): LineOf | undefined {
  if (!lineShaped(b, survey) || survey.summaries.has(b.table.name)) return undefined;
  // Declared keys first: a key only implied by names dates the line when no declared one can.
  const references = declaredFirst(b.references);
  for (const origin of ['declared', 'inferred'] as const) {
    for (const r of references.filter((x) => x.origin === origin)) {
      const step = { table: b.table, columns: r.columns };
      if (events.has(r.references_table) && headerDateWins(b, byName.get(r.references_table)!, [step]))
        return { header: r.references_table, via: r };
    }
    for (const r of references.filter((x) => x.origin === origin)) {
      const mid = byName.get(r.references_table);
      if (!mid || usableOwn(mid) || entityLike(mid)) continue;
      const up = declaredFirst(mid.references).find((x) => events.has(x.references_table));
      const steps = [
        { table: b.table, columns: r.columns },
        { table: mid.table, columns: up?.columns ?? [] },
      ];
      if (up && headerDateWins(b, byName.get(up.references_table)!, steps))
        return { header: up.references_table, via: r };
    }
  }
  return undefined;
}

/** A table's role and the evidence for it. */
function analysed(b: TableReading, survey: Survey, d: DatedFacts): TableAnalysis {
  const name = b.table.name;
  const out = (role: TableRole, evidence: string, header?: string): TableAnalysis => ({
    table: b.table,
    role,
    evidence,
    meaning: b.meaning,
    ownDate: b.ownDate,
    calendarDates: b.calendarDates,
    references: b.references,
    referencedBy: b.referencedBy,
    header,
  });
  const measures = b.table.columns
    .filter((c) => ADDITIVE_MEANINGS.has(b.meaning.get(c.name)!))
    .map((c) => c.name);
  const measureText = measures.length ? `measures ${measures.join(', ')}` : 'no additive measures';
  const summary = survey.summaries.get(name);
  if (summary) return out('summary', summary.evidence);
  const line = d.lines.get(name);
  if (line) {
    const { header, via } = line;
    return out(
      'line',
      `${b.ownDate ? `its own dates rank below ${header}'s (${b.ownDate.evidence})` : 'no date of its own'}; ${measureText}; belongs to ${header} through ${via.table}.${via.columns.join('+')} (${via.origin})`,
      header,
    );
  }
  if (d.headers.has(name))
    return out(
      'header',
      `dated by ${datedBy(b.ownDate!)}; lines ${[...d.lines]
        .filter(([, h]) => h.header === name)
        .map(([l]) => l)
        .join(', ')} reference it`,
    );
  if (d.events.has(name))
    return out(
      'event',
      `dated by ${datedBy(b.ownDate!)}; references ${b.references.map((r) => r.references_table).join(', ') || 'nothing'}; ${measureText}`,
    );
  const calendar = survey.calendars.get(name);
  if (calendar) return out('dimension', calendarEvidence(calendar, b.table));
  if (isBridge(b))
    return out(
      'bridge',
      `links ${[...new Set(b.references.map((r) => r.references_table))].join(' and ')} (many-to-many) and carries no measures`,
    );
  if (empty(b, survey)) return out('other', 'empty: no rows to analyse yet, kept in ODS only');
  // Levels (stock on hand) make a table of what things stand at: a snapshot when nothing dates it.
  if (
    !b.ownDate &&
    (additive(b) || holds(b, ['level'])) &&
    b.references.length > 0 &&
    !entityLike(b) &&
    !b.referencedBy.some((t) => d.facts.has(t))
  )
    return out(
      'snapshot',
      `no date column; ${measureText} per ${b.references.map((r) => r.references_table).join(' × ')}: reported as of the warehouse build`,
    );
  if (isLookup(b)) return out('lookup', `${b.table.row_count} rows of code and label`);
  if (b.referencedBy.length > 0 || entityLike(b)) return out('dimension', dimensionEvidence(b));
  return out('other', 'no date, no measures and no references: kept in ODS only');
}

/** Who references a dimension, and the columns that describe it. */
function dimensionEvidence(b: TableReading): string {
  const labels = labelColumns(b.table)
    .map((c) => c.name)
    .join(', ');
  return b.referencedBy.length
    ? `referenced by ${b.referencedBy.join(', ')}${entityLike(b) ? `; described by ${labels}` : ''}`
    : `describes entities (${labels}); nothing references it`;
}

/** Whether a table's best date is a year alone (no month, no day). */
const yearOnly = (d: OwnEventTime | undefined): boolean => !!d && dayGrain(d.candidate.reading) === 'year';

/** The years from a date's first to its last (1 when the figures are missing). */
const yearSpan = (d: OwnEventTime): number =>
  d.candidate.first && d.candidate.last
    ? Number(d.candidate.last.slice(0, 4)) - Number(d.candidate.first.slice(0, 4)) + 1
    : 1;

/** `order_date`, or `dim_date.full_date through date_key` for a calendar's date. */
const datedBy = (d: OwnEventTime) =>
  d.candidate.via ? `${d.candidate.table}.${d.column} through ${d.candidate.via}` : d.column;

/** The `first_name` and `last_name` columns of a table naming people (an entity, never a lookup). */
export function personNameColumns(
  table: SourceTable,
): { first: SourceColumn; last: SourceColumn } | undefined {
  const find = (w: string) => table.columns.find((c) => columnWords(table, c.name).join('') === `${w}name`);
  const first = find('first');
  const last = find('last');
  return first && last ? { first, last } : undefined;
}

/** A table with a line-number column (`orderLineNumber`, `line_no`): the mark of order lines. */
function lineNumbered(table: SourceTable): boolean {
  return table.columns.some((c) => {
    const w = columnWords(table, c.name);
    return w.includes('line') && w.some((x) => ['number', 'no', 'num', 'nr', 'seq', 'id'].includes(x));
  });
}

/** The additive measure columns of a source table (money, quantity, duration, size). */
export function measuresOf(table: SourceTable): string[] {
  const keys = new Set(table.foreign_keys.flatMap((fk) => fk.columns));
  return table.columns.filter((c) => ADDITIVE_MEANINGS.has(columnMeaning(table, c, keys))).map((c) => c.name);
}

/** The table's own business date column (for the data profile of tables the PRD does not date). */
export function eventDateOf(table: SourceTable): string | undefined {
  return ownEventTime(table)?.column;
}
