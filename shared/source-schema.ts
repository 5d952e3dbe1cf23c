/** What the product-manager agent learns about a source database (plain data, workflow-safe). */

export interface SourceColumn {
  name: string;
  /** MySQL column type as declared, e.g. `decimal(5,2)`, `enum('G','PG')`, `smallint unsigned`. */
  type: string;
  /** MySQL data type without size, e.g. `decimal`, `enum`, `smallint`. */
  data_type: string;
  nullable: boolean;
  key: 'PRI' | 'UNI' | 'MUL' | '';
  comment?: string;
  /**
   * What MySQL does to the column by itself (information_schema's EXTRA, lower-cased), when anything:
   * `auto_increment`, `on update current_timestamp()`... Evidence of how rows change
   * (docs/offline-analyst.md#change-detection).
   */
  extra?: string;
}

export interface SourceForeignKey {
  columns: string[];
  references_table: string;
  references_columns: string[];
}

/**
 * What the explorer measured of one date or timestamp column, over every row of its table; or of
 * an integer column whose sampled values are all `yyyymmdd` days (`encoding: 'yyyymmdd'`).
 */
export interface DateColumnStats {
  /**
   * How the column holds days, when its type is no date: an integer read as `yyyymmdd` (20240131),
   * text in `format` (`06/01/2020`), or the year of a day kept in integer `parts`; absent for dates
   * and timestamps (docs/offline-analyst.md#dates-read-from-values).
   */
  encoding?: 'yyyymmdd' | 'text' | 'parts' | 'epoch';
  /** For epoch: seconds or milliseconds since 1970-01-01 UTC. */
  unit?: 's' | 'ms';
  /** For text: the strptime format of the day at the start of each value (`%d/%m/%Y`). */
  format?: string;
  /** For text: set when every value reads as a day in both day/month orders (the first was taken). */
  ambiguous?: boolean;
  /** For parts: the columns holding the year, month and day (this column is the year). */
  parts?: { year: string; month?: string; day?: string };
  /** Rows where the column is set (not NULL), placeholders included. */
  non_null: number;
  /**
   * Rows holding a placeholder rather than a date: on or before 1900-01-01 (`0000-00-00` too); for
   * a `yyyymmdd` column, any value that is no day between 1900-01-02 and 2100-12-31 (0, 99991231).
   */
  placeholder?: number;
  /** The earliest and latest real value, `YYYY-MM-DD`; absent when no row has one. */
  first?: string;
  last?: string;
  /** Rows dated after the moment of exploring. */
  future: number;
}

export interface SourceTable {
  name: string;
  row_count: number;
  columns: SourceColumn[];
  primary_key: string[];
  foreign_keys: SourceForeignKey[];
  /** A few rows, values rendered as short strings (binary as `<n bytes>`). */
  sample_rows: Record<string, string | null>[];
  /**
   * Figures of each date and timestamp column (and `yyyymmdd` integer column), by column name;
   * absent when rows were not counted.
   */
  date_stats?: Record<string, DateColumnStats>;
  /**
   * Rows where each nullable column that could hold a key (integer or short text) is set, by column
   * name; absent when rows were not counted. A NOT NULL column is set on every row.
   */
  non_null?: Record<string, number>;
  /**
   * The total of each numeric column that is no key (its primary, unique or foreign), as exact
   * decimal text, by column name; absent when rows were not counted. A column with no value set
   * has none.
   */
  sums?: Record<string, string>;
  /**
   * Columns set on every row whose values never repeat, over the whole table: keys by evidence, for
   * a table with no declared single-column primary key (docs/offline-analyst.md#keys-and-references-by-values).
   */
  unique_columns?: string[];
  /**
   * How many rows were read for their values, and the distinct values each text or integer column
   * shows among them: low-cardinality attributes and repeated ids by evidence
   * (docs/offline-analyst.md#flat-exports); absent when no rows were read.
   */
  sampled?: { rows: number; distinct: Record<string, number> };
  /**
   * How each number column (no date) behaves in the rows read: levels, flows and attributes by
   * their values (docs/offline-analyst.md#levels-and-flows); absent when no rows were read.
   */
  number_behaviour?: Record<string, NumberBehaviour>;
  /** The series the rows read make: readings of things (`by`) over a date (`along`), one per day each. */
  value_series?: ValueSeries;
  /**
   * Whether later keys come later in time: the table's last rows by its integer key, read in key
   * order along the date that follows it best (docs/offline-analyst.md#change-detection); absent
   * without a one-column integer key and a date that varies.
   */
  key_order?: KeyOrder;
  /**
   * The columns that lead one of the table's indexes (the primary key's first column included): the
   * source finds a range of their values without scanning the table. Absent in snapshots taken
   * before it was read.
   */
  indexed_columns?: string[];
}

/** How a table's last rows by key move along one of its dates. */
export interface KeyOrder {
  /** The one-column integer primary key. */
  key: string;
  /** The date or timestamp column read along it. */
  along: string;
  /** Rows read (the last ones by key, with the date set). */
  rows: number;
  /** Steps from one key to the next where the date goes forward, and where it goes back. */
  forward: number;
  backward: number;
}

/** How a number column's sampled values behave. */
export interface NumberBehaviour {
  /** Rows read that hold a number. */
  rows: number;
  /** Distinct numbers among them. */
  distinct: number;
  /** Whether every one is whole. */
  integers: boolean;
  min: number;
  max: number;
  /** The share of them that are exactly 0. */
  zeros: number;
  /** The share of them below 0. */
  negatives: number;
  /** Their standard deviation over their mean's size (0 when the mean is 0). */
  spread: number;
  /**
   * Followed through the table's series: the mean squared step between following readings of one
   * thing over twice their variance around its mean. About 1 when values jump about (a flow), near
   * 0 when they move by small steps (a level).
   */
  steps?: { pairs: number; ratio: number };
  /** Every value reads as a time of day written `hhmm` (0–2400, minutes below 60). */
  clock?: boolean;
  /** A text column within each of whose values this number never changes: an attribute of it. */
  constant_within?: string;
}

/** Rows that are readings of things over time: one row per thing (`by`) and day (`along`). */
export interface ValueSeries {
  /** The date column ordering each thing's readings. */
  along: string;
  /** The columns telling the things apart (none: the table is one series). */
  by: string[];
  /** Rows read that were dated. */
  rows: number;
  /** Things seen. */
  series: number;
}

/** A reference no foreign key declares, shown by the values: the column's sampled values found in a key. */
export interface ValueReference {
  table: string;
  column: string;
  references_table: string;
  references_column: string;
  /** The share of the column's distinct sampled values found in the key (0..1). */
  included: number;
  /** How many distinct values were looked up. */
  sampled: number;
  /** Whether the names agree too (the column is named like the key or its table). */
  named: boolean;
}

export interface SourceSnapshot {
  database: string;
  server_version: string;
  tables: SourceTable[];
  views: string[];
  /** References shown by value inclusion (absent when the values were not sampled). */
  value_references?: ValueReference[];
}
