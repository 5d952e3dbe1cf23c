/**
 * Reads everything the PRD needs from a MySQL source through information_schema: tables, columns,
 * keys, foreign keys, exact row counts and a few sample rows. Read-only.
 */
import type { Connection, RowDataPacket } from 'mysql2/promise';
import type {
  DateColumnStats,
  SourceColumn,
  SourceForeignKey,
  SourceSnapshot,
  SourceTable,
} from '../../shared/source-schema';
import { quoteMysqlIdent } from '../../shared/sql-quoting';
import { DATE_KEY_MAX, DATE_KEY_MIN, DATE_KEY_TYPES, dateKeyDay } from '../../shared/date-keys';
import { keyOrder, keyOrderReads } from './key-order';
import { isNumberColumn, numberBehaviour } from './value-behaviour';
import { valueDateAggregates, valueDates, valueDateStats, type ValueDate } from './value-dates';
import { uniqueColumns, valueReferences, type ColumnSamples } from './value-keys';

/** One tool call of the exploring agent, for the agent work log. */
export interface ToolCallRecord {
  tool: string;
  params: Record<string, unknown>;
  summary: string;
  duration_ms: number;
}

export interface ExploreOptions {
  /** Sample rows per table (default 5); 0 skips the sample query. */
  sampleRows?: number;
  /** Count rows exactly (default true). The ODS copy counts inside its own snapshot, so it skips this; row_count is then 0. */
  countRows?: boolean;
  onToolCall?: (call: ToolCallRecord) => void;
}

/** Why a database without readable tables cannot become a project. */
export function emptySourceMessage(database: string): string {
  return `database ${database} has no tables this account can read: nothing to analyse (check the database name and the account's SELECT grants)`;
}

/** How many tables of `database` the connected account can see. */
export async function readableTableCount(db: Connection, database: string): Promise<number> {
  const [[row]] = await db.query<RowDataPacket[]>(
    "SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'",
    [database],
  );
  return Number(row.n);
}

/** Runs one query of the exploring agent and logs it as a tool call. */
function toolTimer(log: (call: ToolCallRecord) => void) {
  return async <T>(
    tool: string,
    params: Record<string, unknown>,
    run: () => Promise<T>,
    summarize: (r: T) => string,
  ) => {
    const started = Date.now();
    const result = await run();
    log({ tool, params, summary: summarize(result), duration_ms: Date.now() - started });
    return result;
  };
}

interface ExploreContext {
  db: Connection;
  timed: ReturnType<typeof toolTimer>;
  sampleRows: number;
  countRows: boolean;
}

/** One table being explored: its name and columns. */
interface TableScan extends ExploreContext {
  name: string;
  columns: SourceColumn[];
}

/**
 * The database's information_schema rows: tables and views, columns, foreign and primary keys, and
 * the columns that lead an index.
 */
type Catalog = Awaited<ReturnType<typeof readCatalog>>;

export async function exploreSource(
  db: Connection,
  database: string,
  opts: ExploreOptions = {},
): Promise<SourceSnapshot> {
  const ctx: ExploreContext = {
    db,
    timed: toolTimer(opts.onToolCall ?? (() => {})),
    sampleRows: opts.sampleRows ?? 5,
    countRows: opts.countRows !== false,
  };
  const catalog = await readCatalog(ctx, database);
  const tables: SourceTable[] = [];
  const valuesByTable = new Map<string, ColumnSamples>();
  for (const t of catalog.tableRows.filter((r) => r.type === 'BASE TABLE')) {
    const { table, values } = await exploreTable(ctx, catalog, String(t.name));
    valuesByTable.set(table.name, values);
    tables.push(table);
  }
  const references =
    ctx.sampleRows === 0
      ? undefined
      : await ctx.timed(
          'value_references',
          { tables: tables.length },
          () => valueReferences(db, tables, valuesByTable),
          (r) => `${r.length} references shown by the values`,
        );
  return {
    database,
    server_version: String(catalog.version.v),
    tables,
    views: catalog.tableRows.filter((r) => r.type === 'VIEW').map((r) => String(r.name)),
    ...(references?.length ? { value_references: references } : {}),
  };
}

async function readCatalog({ db, timed }: ExploreContext, database: string) {
  const [[version]] = await db.query<RowDataPacket[]>('SELECT VERSION() AS v');
  const tableRows = await timed(
    'list_tables',
    { database },
    async () =>
      (
        await db.query<RowDataPacket[]>(
          'SELECT table_name AS name, table_type AS type FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
          [database],
        )
      )[0],
    (rows) =>
      `${rows.filter((r) => r.type === 'BASE TABLE').length} tables, ${rows.filter((r) => r.type === 'VIEW').length} views`,
  );
  const [columnRows] = await db.query<RowDataPacket[]>(
    `SELECT table_name AS tbl, column_name AS name, column_type AS type, data_type AS data_type,
            is_nullable AS nullable, column_key AS col_key, column_comment AS comment, extra AS extra
       FROM information_schema.columns WHERE table_schema = ? ORDER BY table_name, ordinal_position`,
    [database],
  );
  const [fkRows] = await db.query<RowDataPacket[]>(
    `SELECT table_name AS tbl, constraint_name AS name, column_name AS col,
            referenced_table_name AS ref_table, referenced_column_name AS ref_col
       FROM information_schema.key_column_usage
      WHERE table_schema = ? AND referenced_table_name IS NOT NULL
      ORDER BY table_name, constraint_name, ordinal_position`,
    [database],
  );
  const [pkRows] = await db.query<RowDataPacket[]>(
    `SELECT table_name AS tbl, column_name AS col FROM information_schema.key_column_usage
      WHERE table_schema = ? AND constraint_name = 'PRIMARY' ORDER BY table_name, ordinal_position`,
    [database],
  );
  // Only an index's first column lets the source read a range of it without a scan.
  const [indexRows] = await db.query<RowDataPacket[]>(
    `SELECT DISTINCT table_name AS tbl, column_name AS col FROM information_schema.statistics
      WHERE table_schema = ? AND seq_in_index = 1 ORDER BY table_name, column_name`,
    [database],
  );
  return { version, tableRows, columnRows, fkRows, pkRows, indexRows };
}

/** One table as the snapshot holds it, and the values read from it for {@link valueReferences}. */
async function exploreTable(
  ctx: ExploreContext,
  catalog: Catalog,
  name: string,
): Promise<{ table: SourceTable; values: ColumnSamples }> {
  const columns = tableColumns(catalog.columnRows, name);
  const scan: TableScan = { ...ctx, name, columns };
  const fks = tableForeignKeys(catalog.fkRows, name);
  await ctx.timed(
    'describe_table',
    { table: name },
    async () => columns,
    (cols) => `${cols.length} columns, ${fks.size} foreign keys`,
  );
  const counted = await countTable(scan, catalog.pkRows, fks);
  const read = await readValues(scan);
  const dateStats = await profileTableDates(scan, counted.rows, read);
  const primaryKey = catalog.pkRows.filter((p) => p.tbl === name).map((p) => String(p.col));
  const order = await readKeyOrder(scan, primaryKey, dateStats);
  const table: SourceTable = {
    name,
    row_count: counted.rows,
    columns,
    primary_key: primaryKey,
    foreign_keys: [...fks.values()],
    sample_rows: read.rendered,
    ...(dateStats ? { date_stats: dateStats } : {}),
    ...(counted.nonNull ? { non_null: counted.nonNull } : {}),
    ...(counted.sums ? { sums: counted.sums } : {}),
    ...(order ? { key_order: order } : {}),
    indexed_columns: catalog.indexRows.filter((r) => r.tbl === name).map((r) => String(r.col)),
  };
  if (read.samples.length) await addValueFindings(scan, table, read, dateStats);
  return { table, values: read.values };
}

function tableColumns(columnRows: RowDataPacket[], name: string): SourceColumn[] {
  return columnRows
    .filter((c) => c.tbl === name)
    .map((c) => ({
      name: String(c.name),
      type: String(c.type),
      data_type: String(c.data_type).toLowerCase(),
      nullable: c.nullable === 'YES',
      key: (String(c.col_key) as SourceColumn['key']) || '',
      ...(c.comment ? { comment: String(c.comment) } : {}),
      ...(c.extra ? { extra: String(c.extra).toLowerCase() } : {}),
    }));
}

/**
 * The `key_order` reads of a table with rows (when its values are read at all), logged only for a
 * table with an integer key and a date to read along it.
 */
async function readKeyOrder(
  { db, timed, name, columns, sampleRows, countRows: counted }: TableScan,
  primaryKey: string[],
  dateStats: Record<string, DateColumnStats> | undefined,
) {
  const table = { name, columns, primaryKey, dateStats };
  const reads = sampleRows > 0 && counted ? keyOrderReads(table) : undefined;
  if (!reads) return undefined;
  return timed(
    'key_order',
    { table: name, key: reads.key, along: reads.dates },
    () => keyOrder(db, table),
    (o) =>
      o
        ? `last ${o.rows} rows by ${o.key} along ${o.along}: ${o.forward} steps forward, ${o.backward} back`
        : 'no rows to read',
  );
}

/** The table's foreign keys by constraint name, their columns in order. */
function tableForeignKeys(fkRows: RowDataPacket[], name: string): Map<string, SourceForeignKey> {
  const fks = new Map<string, SourceForeignKey>();
  for (const fk of fkRows.filter((r) => r.tbl === name)) {
    const entry = fks.get(fk.name) ?? {
      columns: [],
      references_table: String(fk.ref_table),
      references_columns: [],
    };
    entry.columns.push(String(fk.col));
    entry.references_columns.push(String(fk.ref_col));
    fks.set(fk.name, entry);
  }
  return fks;
}

/** The `count_rows` scan of {@link countRows}, unless the caller counts elsewhere. */
async function countTable(
  { db, timed, name, columns, countRows: count }: TableScan,
  pkRows: RowDataPacket[],
  fks: Map<string, SourceForeignKey>,
): Promise<{ rows: number; nonNull?: Record<string, number>; sums?: Record<string, string> }> {
  // A nullable reference may be set on few rows: what a date inherited through it can cover. The
  // rows where each is set are counted in the same scan as the rows.
  const keyLike = columns.filter(
    (c) =>
      c.nullable && KEY_TYPES.test(c.data_type) && !pkRows.some((p) => p.tbl === name && p.col === c.name),
  );
  // Totals of the numbers that are no keys, in that scan too: a roll-up's totals reconcile with them.
  const keyColumns = new Set([...fks.values()].flatMap((fk) => fk.columns));
  const summed = columns
    .filter((c) => NUMERIC_TYPES.test(c.data_type) && c.key === '' && !keyColumns.has(c.name))
    .slice(0, MAX_SUMMED_COLUMNS);
  const counted = !count
    ? { rows: 0, set: {}, sums: {} }
    : await timed(
        'count_rows',
        {
          table: name,
          ...(keyLike.length ? { set_of: keyLike.map((c) => c.name) } : {}),
          ...(summed.length ? { sum_of: summed.map((c) => c.name) } : {}),
        },
        () => countRows(db, name, keyLike, summed),
        ({ rows, set }) =>
          [
            `${rows} rows`,
            ...Object.entries(set).map(([c, n]) => `${c} set on ${rows ? Math.round((100 * n) / rows) : 0}%`),
            ...(summed.length ? [`totals of ${summed.length} numeric columns`] : []),
          ].join('; '),
      );
  return {
    rows: counted.rows,
    nonNull: counted.rows > 0 && keyLike.length ? counted.set : undefined,
    sums: counted.rows > 0 && summed.length ? counted.sums : undefined,
  };
}

/** What {@link readValues} read of a table: the sample rows shown, and the values of the columns that can tell. */
type ReadValues = Awaited<ReturnType<typeof readValues>>;

/** The `sample_rows` and `read_values` queries; neither when no samples are asked for. */
async function readValues({ db, timed, name, columns, sampleRows }: TableScan) {
  const sampled =
    sampleRows === 0
      ? []
      : await timed(
          'sample_rows',
          { table: name, limit: sampleRows },
          async () =>
            (
              await db.query<RowDataPacket[]>(`SELECT * FROM ${quoteMysqlIdent(name)} LIMIT ?`, [sampleRows])
            )[0],
          (rows) => `${rows.length} rows`,
        );
  // The values the analyst reads types, keys and categories from (docs/offline-analyst.md#dates-read-from-values):
  // more rows, but only of the columns that can tell, text cut short, so a source of wide
  // values costs a few kilobytes a table, not its largest cells two hundred times.
  const valueColumns = columns.filter((c) => VALUE_TYPES.test(c.data_type));
  // Dates and every number are read too, to follow numbers over time (value-behaviour.ts).
  const readColumns = columns.filter(
    (c) => VALUE_TYPES.test(c.data_type) || isNumberColumn(c) || TEMPORAL.has(c.data_type),
  );
  const samples =
    sampleRows === 0 || !valueColumns.length
      ? []
      : await timed(
          'read_values',
          { table: name, limit: VALUE_SAMPLE_ROWS, columns: readColumns.length },
          async () =>
            (
              await db.query<RowDataPacket[]>(
                `SELECT ${readColumns.map(valueSelect).join(', ')} FROM ${quoteMysqlIdent(name)} LIMIT ?`,
                [VALUE_SAMPLE_ROWS],
              )
            )[0],
          (rows) => `${rows.length} rows of ${readColumns.length} columns`,
        );
  const values: ColumnSamples = new Map(valueColumns.map((c) => [c.name, samples.map((r) => r[c.name])]));
  return { rendered: sampled.map(renderRow), samples, valueColumns, values };
}

/** The `profile_dates` scan of {@link profileDates} over the date columns and the dates read from values. */
async function profileTableDates(
  { db, timed, name, columns }: TableScan,
  rowCount: number,
  { rendered, samples }: ReadValues,
): Promise<Record<string, DateColumnStats> | undefined> {
  // Integer columns whose every sampled value is a `yyyymmdd` day are profiled as dates too.
  const dateColumns = columns.filter((c) => TEMPORAL.has(c.data_type) || looksLikeDateKey(c, rendered));
  // And text whose values are days, and integers holding a day's year, month and day.
  const fromValues = valueDates(
    columns.filter((c) => !dateColumns.includes(c)),
    samples as Record<string, unknown>[],
  );
  if (!(rowCount > 0 && (dateColumns.length || fromValues.length))) return undefined;
  return timed(
    'profile_dates',
    {
      table: name,
      columns: [
        ...dateColumns.map((c) => c.name),
        ...fromValues.map((d) => (d.kind === 'parts' ? Object.values(d.parts).join('+') : d.column.name)),
      ],
    },
    () => profileDates(db, name, dateColumns, fromValues),
    (stats) =>
      Object.entries(stats)
        .map(
          ([c, s]) =>
            `${c}${s.format ? ` (text ${s.format})` : s.parts ? ` (parts ${Object.values(s.parts).join(', ')})` : ''}: ${Math.round((100 * s.non_null) / rowCount)}% set${s.first ? `, ${s.first} … ${s.last}` : ''}`,
        )
        .join('; '),
  );
}

/** What the values read tell of the table: distinct counts, how its numbers behave, unique columns. */
async function addValueFindings(
  { db, timed, name, columns }: TableScan,
  table: SourceTable,
  { samples, valueColumns, values }: ReadValues,
  dateStats: Record<string, DateColumnStats> | undefined,
): Promise<void> {
  table.sampled = { rows: samples.length, distinct: sampledDistinct(valueColumns, values) };
  const { behaviour, series } = numberBehaviour(
    columns,
    samples as Record<string, unknown>[],
    dateStats,
    table.sampled.distinct,
  );
  if (Object.keys(behaviour).length) table.number_behaviour = behaviour;
  if (series) table.value_series = series;
  const unique = await timed(
    'unique_columns',
    { table: name },
    () => uniqueColumns(db, table, values),
    (u) => (u.length ? `unique on every row: ${u.join(', ')}` : 'no column unique on every row'),
  );
  if (unique.length) table.unique_columns = unique;
}

const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);
/** Types a key can have (integers, short text): `count_rows` counts where the nullable ones are set. */
const KEY_TYPES = /^(tinyint|smallint|mediumint|int|integer|bigint|char|varchar|binary|varbinary)$/;
/** Types whose totals `count_rows` takes (on columns that are no keys), at most this many a table. */
const NUMERIC_TYPES = /^(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric|float|double|real)$/;
const MAX_SUMMED_COLUMNS = 40;
/** Rows read for their values: enough to tell a day, a code or an amount by how values are written. */
const VALUE_SAMPLE_ROWS = 200;
/** Columns whose values tell a type, a key or a category: integers and text. */
const VALUE_TYPES =
  /^(tinyint|smallint|mediumint|int|integer|bigint|year|char|varchar|tinytext|text|mediumtext|longtext)$/;
/** Text longer than this says nothing more about its type; a key or a day is shorter. */
const VALUE_CHARS = 100;
/** A column as read for its values: text cut to {@link VALUE_CHARS} characters, under its own name. */
const valueSelect = (c: SourceColumn) =>
  /char|text/.test(c.data_type)
    ? `LEFT(${quoteMysqlIdent(c.name)}, ${VALUE_CHARS}) AS ${quoteMysqlIdent(c.name)}`
    : quoteMysqlIdent(c.name);

/**
 * The table's rows, the rows where each of `keyLike` is set and the total of each of `summed`, in
 * one scan: how far a nullable reference reaches, so a date a table inherits through it is credited
 * only with those rows (docs/offline-analyst.md#headers-and-references-by-evidence), and the totals a
 * roll-up's must add up to (docs/offline-analyst.md#summary-tables).
 */
async function countRows(
  db: Connection,
  table: string,
  keyLike: SourceColumn[],
  summed: SourceColumn[],
): Promise<{ rows: number; set: Record<string, number>; sums: Record<string, string> }> {
  const parts = [
    'COUNT(*) AS n',
    ...keyLike.map((c, i) => `COUNT(${quoteMysqlIdent(c.name)}) AS n${i}`),
    ...summed.map((c, i) => `SUM(${quoteMysqlIdent(c.name)}) AS s${i}`),
  ];
  const [[row]] = await db.query<RowDataPacket[]>(
    `SELECT ${parts.join(', ')} FROM ${quoteMysqlIdent(table)}`,
  );
  return {
    rows: Number(row.n),
    set: Object.fromEntries(keyLike.map((c, i) => [c.name, Number(row[`n${i}`])])),
    // Totals stay exact decimal text (a DOUBLE column's total is written as MariaDB prints it).
    sums: Object.fromEntries(
      summed.flatMap((c, i) => (row[`s${i}`] === null ? [] : [[c.name, String(row[`s${i}`])]])),
    ),
  };
}

/**
 * How well each date column is filled and what it spans, in one scan of the table: the evidence
 * the analyst ranks event-time candidates by (docs/offline-analyst.md#event-time-by-evidence).
 */
async function profileDates(
  db: Connection,
  table: string,
  columns: SourceColumn[],
  fromValues: ValueDate[],
): Promise<Record<string, DateColumnStats>> {
  const parts = columns.flatMap((c, i) => {
    const col = quoteMysqlIdent(c.name);
    if (!TEMPORAL.has(c.data_type)) {
      // A `yyyymmdd` key: a value that is no day in range is a placeholder; first and last stay integers.
      const day = `(${col} BETWEEN ${DATE_KEY_MIN} AND ${DATE_KEY_MAX} AND (${col} DIV 100) % 100 BETWEEN 1 AND 12 AND ${col} % 100 BETWEEN 1 AND 31)`;
      const real = `CASE WHEN ${day} THEN ${col} END`;
      return [
        `COUNT(${col}) AS n${i}`,
        `COALESCE(SUM(NOT ${day}), 0) AS p${i}`,
        `MIN(${real}) AS lo${i}`,
        `MAX(${real}) AS hi${i}`,
        `COALESCE(SUM(${day} AND ${col} > CAST(DATE_FORMAT(NOW(), '%Y%m%d') AS UNSIGNED)), 0) AS f${i}`,
      ];
    }
    const real = `CASE WHEN ${col} > '1900-01-01' THEN ${col} END`;
    return [
      `COUNT(${col}) AS n${i}`,
      `COALESCE(SUM(${col} <= '1900-01-01'), 0) AS p${i}`,
      `DATE_FORMAT(MIN(${real}), '%Y-%m-%d') AS lo${i}`,
      `DATE_FORMAT(MAX(${real}), '%Y-%m-%d') AS hi${i}`,
      `COALESCE(SUM(${col} > NOW()), 0) AS f${i}`,
    ];
  });
  parts.push(...valueDateAggregates(fromValues));
  const [[row]] = await db.query<RowDataPacket[]>(
    `SELECT ${parts.join(', ')} FROM ${quoteMysqlIdent(table)}`,
  );
  const stats: Record<string, DateColumnStats> = valueDateStats(fromValues, row);
  columns.forEach((c, i) => {
    const key = !TEMPORAL.has(c.data_type);
    const text = (v: unknown) =>
      v === null || v === undefined ? undefined : key ? dateKeyDay(String(v)) : String(v);
    stats[c.name] = {
      ...(key ? { encoding: 'yyyymmdd' as const } : {}),
      non_null: Number(row[`n${i}`]),
      placeholder: Number(row[`p${i}`]),
      ...(text(row[`lo${i}`]) ? { first: text(row[`lo${i}`]), last: text(row[`hi${i}`]) } : {}),
      future: Number(row[`f${i}`]),
    };
  });
  return stats;
}

/**
 * Whether an integer column may hold `yyyymmdd` days: every sampled value is one (a key counting
 * from 1, an amount or a code is not), so the one profiling scan also measures it.
 */
function looksLikeDateKey(column: SourceColumn, samples: Record<string, string | null>[]): boolean {
  if (!DATE_KEY_TYPES.has(column.data_type)) return false;
  const values = samples.map((r) => r[column.name]).filter((v): v is string => v !== null && v !== undefined);
  return values.length > 0 && values.every((v) => dateKeyDay(v) !== undefined);
}

/** Distinct values (NULL and blanks left out) of each text or integer column among the rows read. */
function sampledDistinct(columns: SourceColumn[], values: ColumnSamples): Record<string, number> {
  return Object.fromEntries(
    columns.map((c) => [
      c.name,
      new Set(
        (values.get(c.name) ?? [])
          .filter((v) => v !== null && v !== undefined && String(v).trim() !== '')
          .map(String),
      ).size,
    ]),
  );
}

function renderRow(row: RowDataPacket): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined) out[k] = null;
    else if (Buffer.isBuffer(v)) out[k] = `<${v.length} bytes>`;
    else if (v instanceof Date) out[k] = isNaN(v.getTime()) ? null : v.toISOString();
    else {
      const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
      out[k] = s.length > 80 ? `${s.slice(0, 77)}...` : s;
    }
  }
  return out;
}
