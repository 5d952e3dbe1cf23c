/**
 * How each MySQL column travels to the ODS: what the source SELECT reads, how the CSV field is
 * parsed by DuckDB, and the expression that yields the warehouse value. Numbers are parsed straight
 * from MySQL's text (exact DECIMAL, full unsigned BIGINT); dates go through TRY_CAST so zero dates
 * become NULL (counted as warnings) instead of failing the copy; bytes travel as base64.
 */
import type { SourceColumn } from '../../shared/source-schema';
import { warehouseType } from '../agents/offline-analyst/warehouse-types';
import type { ValueKind } from './ods-csv-encoder';
import { quoteMysqlIdent, quoteIdent } from '../../shared/sql-quoting';

export interface ColumnPlan {
  name: string;
  /** The item of the MySQL SELECT list. */
  sourceSelect: string;
  /** What the values may hold, for the CSV encoder. */
  kind: ValueKind;
  /** The type `read_csv` parses the field as. */
  csvType: string;
  /** The DuckDB select item producing the warehouse column from the CSV field. */
  odsSelect: string;
  /** The warehouse type of the ODS column. */
  odsType: string;
  /** Values the cast cannot take (zero dates, TIME beyond a day) become NULL and are reported. */
  lenient: boolean;
  /** The most bytes a value can take in the CSV (quoting or base64 included); undefined: no bound. */
  maxBytes?: number;
}

const SPATIAL = new Set([
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
]);
const BINARY = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const LENIENT = new Set(['date', 'datetime', 'timestamp', 'time']);
/** Types whose MySQL text `read_csv` parses exactly as they are. */
const PARSED_AS_IS = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'UBIGINT', 'FLOAT', 'DOUBLE']);
/** Parsed types whose MySQL text is digits and punctuation only. */
const DIGITS = /^(TINYINT|SMALLINT|INTEGER|BIGINT|UBIGINT|FLOAT|DOUBLE|DECIMAL\(.*)$/;
/** DuckDB's widest DECIMAL. */
const MAX_DECIMAL_PRECISION = 38;

/**
 * The ODS type of a column: the warehouse type, except where DuckDB cannot hold it exactly.
 * DECIMAL wider than 38 digits stays text (every digit kept); BIT(64) needs an unsigned BIGINT.
 */
export function odsType(column: SourceColumn): string {
  const type = warehouseType(column);
  const decimal = /^DECIMAL\((\d+),/.exec(type);
  if (decimal && Number(decimal[1]) > MAX_DECIMAL_PRECISION) return 'VARCHAR';
  if (column.data_type === 'bit' && /\(64\)/.test(column.type)) return 'UBIGINT';
  return type;
}

export function planColumn(column: SourceColumn): ColumnPlan {
  const src = quoteMysqlIdent(column.name);
  const id = quoteIdent(column.name);
  const type = odsType(column);
  const plan = (sourceSelect: string, csvType: string, odsSelect: string, lenient = false): ColumnPlan => ({
    name: column.name,
    sourceSelect,
    kind: BINARY.has(column.data_type) ? 'bytes' : DIGITS.test(csvType) || lenient ? 'digits' : 'text',
    csvType,
    odsSelect: odsSelect === id ? id : `${odsSelect} AS ${id}`,
    odsType: type,
    lenient,
    maxBytes: maxFieldBytes(column),
  });
  if (SPATIAL.has(column.data_type)) return plan(`ST_AsText(${src}) AS ${src}`, 'VARCHAR', id);
  if (column.data_type === 'bit') return plan(`CAST(${src} AS UNSIGNED) AS ${src}`, type, id);
  if (BINARY.has(column.data_type)) return plan(src, 'VARCHAR', `from_base64(${id})`);
  if (LENIENT.has(column.data_type)) return plan(src, 'VARCHAR', `TRY_CAST(${id} AS ${type})`, true);
  if (type === 'BOOLEAN') return plan(src, 'VARCHAR', `(${id} <> '0')`);
  if (PARSED_AS_IS.has(type) || type.startsWith('DECIMAL(')) return plan(src, type, id);
  if (type === 'VARCHAR') return plan(src, 'VARCHAR', id);
  return plan(src, 'VARCHAR', `CAST(${id} AS ${type})`);
}

/** Bytes of the longest MySQL value of a declared size (utf8mb4: 4 bytes a character). */
const SIZED: Record<string, number> = {
  tinytext: 255,
  tinyblob: 255,
  text: 65_535,
  blob: 65_535,
  mediumtext: 16_777_215,
  mediumblob: 16_777_215,
};
/** Numbers, dates and times print in fewer characters than this (DECIMAL(65,30): 67). */
const SHORT_TEXT = 80;

/**
 * An upper bound of a value's bytes in the CSV, from the declared type: twice the value (quoting
 * doubles at worst; base64 adds a third). Undefined for LONGTEXT, LONGBLOB, JSON, spatial and the
 * like, which only the server's max_allowed_packet bounds.
 */
export function maxFieldBytes(column: SourceColumn): number | undefined {
  const size = /\((\d+)\)/.exec(column.type);
  let value: number | undefined;
  if (['char', 'varchar'].includes(column.data_type) && size) value = 4 * Number(size[1]);
  else if (['binary', 'varbinary'].includes(column.data_type) && size) value = Number(size[1]);
  else if (column.data_type in SIZED) value = SIZED[column.data_type];
  else if (['enum', 'set'].includes(column.data_type)) value = 4 * column.type.length;
  else if (DIGITS.test(odsType(column)) || LENIENT.has(column.data_type) || column.data_type === 'year')
    value = SHORT_TEXT;
  else if (column.data_type === 'bit' || odsType(column) === 'BOOLEAN') value = SHORT_TEXT;
  return value === undefined ? undefined : 2 * value + 2;
}
