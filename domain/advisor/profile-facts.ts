/**
 * Everything measured about a project's ODS layer, shared by the scorer, the insight writer and the
 * modeling advisor, plus the column classes they agree on (key, audit, descriptive, categorical).
 */
import type { ColumnProfile, QualitySummary, RelationReport, TableProfileReport } from './data-profile-types';
import type { KeyCheck } from './key-checks';
import type { OdsTableMeta } from './relation-detector';

/** The measurements of one ODS layer, input to scoring, insights and suggestions. */
export interface ProfileFacts {
  tables: TableProfileReport[];
  metas: Map<string, OdsTableMeta>;
  /** Confidence ≥ 0.5. */
  relations: RelationReport[];
  /** Inferred candidates below 0.5. */
  rejected: RelationReport[];
  keyChecks: KeyCheck[];
  quality?: QualitySummary;
}

/** Row-maintenance timestamps and ETL bookkeeping: not business attributes. */
const AUDIT = /^(last_update|last_updated|updated_at|update_time|modified|modified_at|last_modified|etl_.*)$/;
/** A column with at most this many distinct values is a category one can group by. */
export const MAX_CATEGORY_VALUES = 50;

/** Row-maintenance or ETL bookkeeping column (e.g. `last_update`). */
export const isAuditColumn = (name: string): boolean => AUDIT.test(name);

/** Primary-key, foreign-key or id-named columns: identifiers, not attributes. */
export function isKeyColumn(meta: OdsTableMeta | undefined, name: string): boolean {
  if (/(^id$|_id$)/.test(name)) return true;
  if (!meta) return false;
  return (
    meta.source.primary_key.includes(name) || meta.source.foreign_keys.some((fk) => fk.columns.includes(name))
  );
}

const isTimeOrBinary = (type: string) => /^(DATE|TIMESTAMP|TIME|BLOB)/.test(type);

/** Attributes that describe a row: not keys, not audit, not binary, and not constant. */
export function descriptiveColumns(t: TableProfileReport, meta: OdsTableMeta | undefined): ColumnProfile[] {
  return t.columns.filter(
    (c) =>
      !isKeyColumn(meta, c.name) &&
      !isAuditColumn(c.name) &&
      !/^BLOB/.test(c.type) &&
      (c.distinct_count ?? 0) >= 2,
  );
}

/** Descriptive columns with 2–50 values of a groupable type (text, boolean, integer codes). */
export function categoricalColumns(t: TableProfileReport, meta: OdsTableMeta | undefined): ColumnProfile[] {
  return descriptiveColumns(t, meta).filter(
    (c) =>
      !isTimeOrBinary(c.type) &&
      !/^(DECIMAL|DOUBLE|FLOAT|REAL)/.test(c.type) &&
      (c.distinct_count ?? 0) <= MAX_CATEGORY_VALUES,
  );
}

/** `12345` → `12,345`: numbers in text are read by people. */
export const fmt = (n: number): string => n.toLocaleString('en-US');

/** A fraction as a percentage with one decimal, e.g. `1.1%`. */
export const pct = (x: number): string => `${(x * 100).toFixed(x > 0 && x < 0.001 ? 3 : 1)}%`;

/** `3 tables`, `1 table`: counts in sentences. */
export const plural = (n: number, word: string, many = `${word}s`): string =>
  `${fmt(n)} ${n === 1 ? word : many}`;
