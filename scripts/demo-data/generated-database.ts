/**
 * What a database generator produces: the SQL to build it, and the ground truth a test can hold an
 * analyst's output against (facts, columns never to aggregate, table roles, industry), written by
 * the generator itself so it never depends on the analyst being tested.
 */

/** A generated MySQL/MariaDB database: its DDL and data as SQL, and what is true about it. */
export interface GeneratedDatabase {
  /** MySQL database name. */
  name: string;
  /** What a user would type as the project description ("" allowed for some). */
  description: string;
  /** SQL statements (DDL then INSERT batches), without CREATE DATABASE/USE; the loader creates the database. */
  statements: string[];
  truth: SchemaTruth;
}

/** The role a table plays in the business, as an analyst should classify it. */
export type TableRole =
  'header' | 'line' | 'event' | 'snapshot' | 'dimension' | 'bridge' | 'lookup' | 'summary';

/** Ground truth about a generated database, independent of any analyst. */
export interface SchemaTruth {
  /** Fact tables (events a business counts). */
  facts: FactTruth[];
  /** `table.column` pairs that no metric may SUM or AVG: keys, codes, line numbers, years, phone/postal numbers, flags. */
  never_aggregate: string[];
  /** Expected table roles for tables whose role is unambiguous. */
  roles: Record<string, TableRole>;
  /**
   * A word the detected industry name should contain (case-insensitive), or 'general'; several
   * words when any of them is right. Omitted: the source names no clear business.
   */
  industry?: string | string[];
  /**
   * Levels (stock on hand, a balance, a credit limit, a temperature), as `table.column`: never summed
   * over the days of a dated fact, and no metric of them is additive across days.
   */
  levels?: string[];
  /** Flows a fact's days add up (rain, deaths, goals), as `table.column`: some daily aggregate sums each. */
  flows?: string[];
  /** Tables that record no business event and must not be facts (per-customer summaries, settings). */
  not_facts?: string[];
  /**
   * Roll-up tables whose rows are sums of a fact's rows: when given, these (and no other table) are
   * role `summary`, and no metric reads them. Omitted: the schema says nothing about summaries.
   */
  summaries?: string[];
  /**
   * Money stored as text, and SQL on the source counting (as `n`) its rows whose text is no amount:
   * the quality report must count exactly those.
   */
  unparsed_money?: { table: string; column: string; count_sql: string }[];
  /**
   * An event date read from text (or numbers, or parts), and SQL on the source counting (as `n`) the
   * rows it gives no day (unset, no day, a placeholder): the quality report must count exactly those.
   */
  undated?: { table: string; column: string; count_sql: string }[];
}

/** One fact table and how to measure it directly on the source database. */
export interface FactTruth {
  table: string;
  /**
   * SQL on the source database returning one DATE column `d` per fact row that has an event time
   * (for a line table, the header's date through a join); null when the fact is not time-based (snapshot).
   */
  event_date_sql: string | null;
  /**
   * Source column holding the event time, as `table.column` (the header's column for lines); several
   * when any of them is right (a date kept in year, month and day parts names any of the parts).
   */
  event_time_column: string | string[] | null;
  /**
   * SQL returning one value `revenue` (money, in currency units, cents converted) to the cent, in
   * the source's own arithmetic: SUM(quantity*unit_price*(1-discount)) for lines (nothing rounded
   * before the sum), SUM(amount) for payments; omitted when the fact carries no money.
   */
  revenue_sql?: string;
  /**
   * The ADS column that must hold `revenue_sql` (`revenue`, when it is derived from quantity × a
   * price); omitted: any currency measure of the fact (a line's must be `revenue`).
   */
  revenue_column?: string;
  /** The fact is no sale (stock moving): no currency measure at all, however it could be priced. */
  unpriced?: boolean;
  /**
   * When the fact is kept in several tables (one per year, region…): every one of them, `table`
   * first, which the fact's DWD must read as one; the event dates and revenue above cover them all.
   */
  union?: string[];
  /**
   * For a line fact whose header is kept in several tables too: every header table, the first
   * first, which the fact's DWD must join as one (within each part: ids may restart every year).
   */
  joined_union?: string[];
  /**
   * SQL returning one value `n`: the fact's rows on the source. Its DWD holds exactly as many (a
   * line joined to headers of another part would be counted twice).
   */
  rows_sql?: string;
  /** Source columns (`table.column`), any one of which the fact must be broken down by. */
  breakdown_columns?: string[];
}

/**
 * One query over every table of a family: `select` with `{t}` standing for each table in turn,
 * joined by UNION ALL.
 */
export function unionAll(tables: readonly string[], select: string): string {
  return tables.map((t) => select.replaceAll('{t}', t)).join(' UNION ALL ');
}

/**
 * A fact dated by a column of its own, `table.column`: its day is the column itself when it holds
 * a day (a DATE), else the DATE() of the instant it holds (a DATETIME or TIMESTAMP).
 */
export function datedFact(table: string, column: string, holds: 'day' | 'instant'): FactTruth {
  const day = holds === 'day' ? column : `DATE(${column})`;
  return {
    table,
    event_date_sql: `SELECT ${day} AS d FROM ${table}`,
    event_time_column: `${table}.${column}`,
  };
}

/** `table.column` names for several columns of one table (keeps truth lists short). */
export function columnsOf(table: string, ...columns: string[]): string[] {
  return columns.map((column) => `${table}.${column}`);
}
