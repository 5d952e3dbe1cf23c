/**
 * Classifies source tables as facts, dimensions or bridges from the foreign-key graph, column types
 * and relative size, and finds each table's event-date column and numeric measures.
 */
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';

/** Timestamps that record row maintenance, not business events. */
const AUDIT_COLUMNS =
  /^(last_update|last_updated|updated_at|update_time|modified|modified_at|last_modified|created_at|create_time|insert_time|etl_.*)$/;
const NUMERIC = new Set([
  'decimal',
  'numeric',
  'float',
  'double',
  'real',
  'int',
  'integer',
  'smallint',
  'mediumint',
  'bigint',
  'tinyint',
]);
const TEMPORAL = new Set(['date', 'datetime', 'timestamp']);

export type TableRole = 'fact' | 'dimension' | 'bridge' | 'other';

export interface TableProfile {
  table: SourceTable;
  role: TableRole;
  /** Business event time, e.g. rental.rental_date; undefined when the table has none. */
  event_date?: string;
  measures: string[];
  fact_score: number;
  referenced_by: string[];
}

export function isKeyColumn(table: SourceTable, column: SourceColumn): boolean {
  return (
    table.primary_key.includes(column.name) ||
    table.foreign_keys.some((fk) => fk.columns.includes(column.name)) ||
    /(^id$|_id$)/.test(column.name)
  );
}

export function measuresOf(table: SourceTable): string[] {
  return table.columns
    .filter((c) => NUMERIC.has(c.data_type) && !isKeyColumn(table, c))
    .filter(
      (c) => !(c.data_type === 'tinyint' && /\(1\)/.test(c.type)) && !/^(is_|has_|active$|flag)/.test(c.name),
    )
    .filter((c) => c.data_type !== 'year')
    .map((c) => c.name);
}

export function eventDateOf(table: SourceTable): string | undefined {
  const candidates = table.columns.filter((c) => TEMPORAL.has(c.data_type) && !AUDIT_COLUMNS.test(c.name));
  // Prefer a column named after the table (rental.rental_date), then any *_date/*_time column.
  const stem = table.name.replace(/s$/, '');
  return (
    candidates.find((c) => c.name.startsWith(stem)) ??
    candidates.find((c) => /(date|time|_at)$/.test(c.name)) ??
    candidates[0]
  )?.name;
}

export function profileTables(snapshot: SourceSnapshot): TableProfile[] {
  const maxRows = Math.max(1, ...snapshot.tables.map((t) => t.row_count));
  return snapshot.tables.map((table) => {
    const referencedBy = snapshot.tables
      .filter((t) => t.foreign_keys.some((fk) => fk.references_table === table.name))
      .map((t) => t.name);
    const measures = measuresOf(table);
    const eventDate = eventDateOf(table);
    const fkCount = table.foreign_keys.length;
    const nonKeyColumns = table.columns.filter((c) => !isKeyColumn(table, c) && !AUDIT_COLUMNS.test(c.name));
    const isBridge = fkCount >= 2 && table.primary_key.length >= 2 && nonKeyColumns.length === 0;
    const factScore =
      (fkCount >= 2 ? 1 : 0) +
      (eventDate ? 1 : 0) +
      (measures.length > 0 ? 1 : 0) +
      (table.row_count >= 0.25 * maxRows ? 1 : 0);
    let role: TableRole;
    if (isBridge) role = 'bridge';
    else if (fkCount >= 1 && factScore >= 3) role = 'fact';
    else if (referencedBy.length > 0 || nonKeyColumns.length > 0) role = 'dimension';
    else role = 'other';
    return {
      table,
      role,
      event_date: eventDate,
      measures,
      fact_score: factScore,
      referenced_by: referencedBy,
    };
  });
}
