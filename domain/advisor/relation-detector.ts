/**
 * Relations between ODS tables: the source's declared foreign keys, each measured on the copied
 * data, plus relations inferred from column names (`x_id` → the table whose key is `x_id`) that the
 * data confirms by value containment. Only confidence ≥ 0.5 is reported (docs/requirements.md#data-profile).
 */
import type { SourceTable } from '../../shared/source-schema';
import { MIN_RELATION_CONFIDENCE, type RelationReport } from './data-profile-types';
import { type JsonRow, type OdsCatalog } from './ods-catalog-reader';
import { quoteIdent } from '../../shared/sql-quoting';

/** An ODS table with the source schema it was copied from (keys and foreign keys live there). */
export interface OdsTableMeta {
  ods: string;
  source: SourceTable;
  columns: { name: string; type: string }[];
}

interface Candidate {
  from: OdsTableMeta;
  fromColumns: string[];
  to: OdsTableMeta;
  toColumns: string[];
  declared: boolean;
  /** Inferred only: 1 for an exact key-name match, lower for a role-prefixed one (`manager_staff_id`). */
  nameWeight: number;
}

/** What the data says about one candidate relation. */
export interface RelationMeasure {
  /** Non-NULL referencing rows. */
  checked_rows: number;
  /** Of those, rows whose value exists in the referenced key. */
  matched_rows: number;
  /** Distinct non-NULL referencing values. */
  distinct_values: number;
  /** Of those, values present in the referenced key. */
  contained_values: number;
}

/** Reported relations and the inferred candidates the data rejected. */
export interface DetectedRelations {
  /** Confidence ≥ 0.5, declared first. */
  relations: RelationReport[];
  /** Inferred candidates the data did not confirm (kept for the explanation, never shown as relations). */
  rejected: RelationReport[];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Declared foreign key: the declaration alone is worth 0.5, the measured match rate the other 0.5,
 * so a declared key is always reported and orphans lower its confidence. With no non-NULL value to
 * check (e.g. an all-NULL column) only the declaration counts.
 */
export function declaredConfidence(m: RelationMeasure): number {
  if (m.checked_rows === 0) return 0.5;
  return round3(0.5 + 0.5 * (m.matched_rows / m.checked_rows));
}

/**
 * Inferred relation: containment (share of distinct referencing values found in the key) × name
 * weight × support, where support = min(1, 0.6 + 0.15 × distinct values) discounts columns with one
 * or two values, which any key would contain by chance.
 */
export function inferredConfidence(m: RelationMeasure, nameWeight: number): number {
  if (m.distinct_values === 0) return 0;
  const containment = m.contained_values / m.distinct_values;
  const support = Math.min(1, 0.6 + 0.15 * m.distinct_values);
  return round3(containment * nameWeight * support);
}

/** Integer, decimal, text and time values only join with their own kind. */
function typeFamily(type: string): string {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(type))
    return 'integer';
  if (/^DECIMAL/.test(type)) return 'decimal';
  if (/^(VARCHAR|CHAR|TEXT)/.test(type)) return 'text';
  if (/^(DATE|TIMESTAMP)/.test(type)) return 'time';
  return type;
}

const typeOf = (t: OdsTableMeta, column: string) => t.columns.find((c) => c.name === column)?.type;

/** The key column of a single-column primary key, if any. */
const soleKey = (t: OdsTableMeta) =>
  t.source.primary_key.length === 1 ? t.source.primary_key[0] : undefined;

function declaredCandidates(tables: OdsTableMeta[]): Candidate[] {
  const bySource = new Map(tables.map((t) => [t.source.name, t]));
  return tables.flatMap((from) =>
    from.source.foreign_keys.flatMap((fk) => {
      const to = bySource.get(fk.references_table);
      if (!to) return [];
      return [
        {
          from,
          fromColumns: fk.columns,
          to,
          toColumns: fk.references_columns,
          declared: true,
          nameWeight: 1,
        },
      ];
    }),
  );
}

/**
 * Name matches: column `c` of table A against every other table B with a single-column key `k`,
 * when c = k, or c = `<B>_id` and k = `id`, (weight 1) or c ends with `_<k>` (weight 0.9). A's own
 * key named after A is its identity, not a reference; columns already covered by a declared key
 * are skipped. When several tables share the key name, the one the name belongs to (`film_id` →
 * film, not film_text) wins.
 */
export function inferredCandidates(tables: OdsTableMeta[]): Candidate[] {
  const out: Candidate[] = [];
  for (const from of tables) {
    const declared = new Set(
      from.source.foreign_keys.filter((fk) => fk.columns.length === 1).map((fk) => fk.columns[0]),
    );
    const ownKey = soleKey(from);
    for (const col of from.columns) {
      if (declared.has(col.name)) continue;
      if (col.name === ownKey && (col.name === `${from.source.name}_id` || col.name === 'id')) continue;
      const matches: { to: OdsTableMeta; key: string; weight: number; owner: boolean }[] = [];
      for (const to of tables) {
        const key = soleKey(to);
        if (to === from || !key) continue;
        const keyType = typeOf(to, key);
        if (!keyType || typeFamily(keyType) !== typeFamily(col.type)) continue;
        const owner = key === `${to.source.name}_id` || (key === 'id' && col.name === `${to.source.name}_id`);
        if (col.name === key || (key === 'id' && col.name === `${to.source.name}_id`))
          matches.push({ to, key, weight: 1, owner });
        else if (key !== 'id' && col.name.endsWith(`_${key}`)) matches.push({ to, key, weight: 0.9, owner });
      }
      const preferred = matches.some((m) => m.owner) ? matches.filter((m) => m.owner) : matches;
      for (const m of preferred) {
        out.push({
          from,
          fromColumns: [col.name],
          to: m.to,
          toColumns: [m.key],
          declared: false,
          nameWeight: m.weight,
        });
      }
    }
  }
  return out;
}

/** Row-level match and value-level containment of one candidate, as one SELECT yielding one row. */
function measureSql(c: Candidate, k: number): string {
  const fromCols = c.fromColumns.map(quoteIdent);
  const toCols = c.toColumns.map(quoteIdent);
  const aliases = fromCols.map((_, i) => `v${i}`);
  return `SELECT ${k} AS k, count(*) AS distinct_values, count(b.hit) AS contained_values,
      coalesce(sum(a.n), 0) AS checked_rows, coalesce(sum(a.n) FILTER (WHERE b.hit IS NOT NULL), 0) AS matched_rows
    FROM (SELECT ${fromCols.map((col, i) => `${col} AS ${aliases[i]}`).join(', ')}, count(*) AS n
          FROM ${quoteIdent(c.from.ods)} WHERE ${fromCols.map((col) => `${col} IS NOT NULL`).join(' AND ')}
          GROUP BY ALL) a
    LEFT JOIN (SELECT DISTINCT ${toCols.map((col, i) => `${col} AS ${aliases[i]}`).join(', ')}, 1 AS hit
          FROM ${quoteIdent(c.to.ods)}) b
    ON ${aliases.map((v) => `a.${v} = b.${v}`).join(' AND ')}`;
}

/** Every candidate measured in one UNION ALL query: one round trip instead of one per relation. */
async function measureAll(catalog: OdsCatalog, candidates: Candidate[]): Promise<RelationMeasure[]> {
  if (!candidates.length) return [];
  const rows: JsonRow[] = await catalog.query(
    candidates.map((c, k) => `(${measureSql(c, k)})`).join('\nUNION ALL\n'),
  );
  const out: RelationMeasure[] = [];
  for (const row of rows) {
    out[Number(row.k)] = {
      checked_rows: Number(row.checked_rows),
      matched_rows: Number(row.matched_rows),
      distinct_values: Number(row.distinct_values),
      contained_values: Number(row.contained_values),
    };
  }
  return out;
}

/** Declared and inferred relations, measured in one query and split at confidence 0.5. */
export async function detectRelations(
  catalog: OdsCatalog,
  tables: OdsTableMeta[],
): Promise<DetectedRelations> {
  const relations: RelationReport[] = [];
  const rejected: RelationReport[] = [];
  const candidates = [...declaredCandidates(tables), ...inferredCandidates(tables)];
  const measures = await measureAll(catalog, candidates);
  candidates.forEach((c, i) => {
    const m = measures[i];
    const report: RelationReport = {
      from_table: c.from.ods,
      from_column: c.fromColumns.join(','),
      to_table: c.to.ods,
      to_column: c.toColumns.join(','),
      confidence: c.declared ? declaredConfidence(m) : inferredConfidence(m, c.nameWeight),
      evidence: c.declared ? 'foreign_key' : 'name_match+containment',
      match_rate: m.checked_rows ? round3(m.matched_rows / m.checked_rows) : 1,
      checked_rows: m.checked_rows,
    };
    (report.confidence >= MIN_RELATION_CONFIDENCE ? relations : rejected).push(report);
  });
  return { relations, rejected };
}
