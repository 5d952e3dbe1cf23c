/**
 * The Athena statements of a layer build: a CTAS into a staging table, the LIMIT 0 probe that
 * tells a SELECT's column names, and the row count. Names are checked rather than quoted: Glue
 * lower-cases names, so anything else would not be found again under the name we asked for.
 */

import { quoteLiteral } from '../../../shared/sql-quoting';

/** Suffix of the table a build writes before it replaces the live one. */
export const stagingSuffix = '__building';

export function stagingTableName(table: string): string {
  return `${table}${stagingSuffix}`;
}

export function isStagingTableName(table: string): boolean {
  return table.endsWith(stagingSuffix);
}

/** Why a table or column name cannot be used as is in Glue and Athena, or undefined when it can. */
export function invalidNameReason(name: string): string | undefined {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    return `"${name}" is not a valid Glue/Athena name (lower-case letters, digits and _ only)`;
  if (name.length > 255 - stagingSuffix.length) return `"${name}" is too long for Glue`;
  return undefined;
}

/** The SELECT without a trailing semicolon (it is embedded in larger statements). */
export function bareSelect(select: string): string {
  return select.trim().replace(/;\s*$/, '');
}

/** Asks for a SELECT's result columns without reading data. */
export function columnProbeStatement(select: string): string {
  return `SELECT * FROM (${bareSelect(select)}) LIMIT 0`;
}

/**
 * Athena's CTAS takes partition columns from the end of the SELECT, in `partitioned_by` order;
 * when they are not there already, wrap the SELECT to move them last.
 */
export function partitionColumnsLast(select: string, columns: string[], partitionBy: string[]): string {
  const missing = partitionBy.filter((p) => !columns.includes(p));
  if (missing.length)
    throw new Error(`partition column(s) ${missing.join(', ')} not in the SELECT's columns`);
  const rest = columns.filter((c) => !partitionBy.includes(c));
  const ordered = [...rest, ...partitionBy];
  if (ordered.every((c, i) => c === columns[i])) return bareSelect(select);
  return `SELECT ${ordered.map((c) => `"${c}"`).join(', ')} FROM (${bareSelect(select)}) AS src`;
}

/** `CREATE TABLE <db>.<table> WITH (format, external_location[, partitioned_by]) AS <select>`. */
export function ctasStatement(opts: {
  database: string;
  table: string;
  location: string;
  partitionBy: string[];
  select: string;
}): string {
  const props = [`format = 'PARQUET'`, `external_location = ${quoteLiteral(opts.location)}`];
  if (opts.partitionBy.length)
    props.push(`partitioned_by = ARRAY[${opts.partitionBy.map((p) => `'${p}'`).join(', ')}]`);
  return `CREATE TABLE ${opts.database}.${opts.table}\nWITH (${props.join(', ')})\nAS ${bareSelect(opts.select)}`;
}

export function countStatement(database: string, table: string): string {
  return `SELECT COUNT(*) AS row_count FROM ${database}.${table}`;
}
