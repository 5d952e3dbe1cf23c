/**
 * The PRD's quality rules as dbt tests: not_null, unique, relationships and accepted_values as
 * generic tests on the ODS sources' (or models') columns; a range as a singular test; freshness as
 * the source's freshness. A warning rule is a test of severity `warn`, a blocking one an error.
 */
import type { Prd, PrdQualityRule } from '../../../shared/prd-schema';
import { jinjaString, ODS_SOURCE } from './dbt-models';

type Yaml = Record<string, unknown>;

/** Tests keyed by table, then column: what the properties files list under each column. */
export interface ColumnTests {
  /** `table → column → tests` */
  byColumn: Map<string, Map<string, (Yaml | string)[]>>;
  /** `table → freshness` for tables with a freshness rule. */
  freshness: Map<string, { column: string; max_age_days: number }>;
  /** Singular tests: file name and SQL. */
  singular: { name: string; sql: string }[];
}

const severity = (rule: PrdQualityRule): Yaml =>
  rule.severity === 'warning' ? { config: { severity: 'warn' } } : {};

/** The relation a rule's table is in dbt: an ODS source or a model. */
export function relationOf(rule: Pick<PrdQualityRule, 'layer' | 'table'>): string {
  return rule.layer === 'ods'
    ? `source('${ODS_SOURCE}', ${jinjaString(rule.table)})`
    : `ref(${jinjaString(rule.table)})`;
}

/** A column as DuckDB SQL names it, quoted (`order`, `group` are keywords). */
const sqlColumn = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A value as a SQL string literal, for accepted_values given pre-quoted (`Men's` → `'Men''s'`). */
const sqlLiteral = (value: unknown) => `'${String(value).replace(/'/g, "''")}'`;

const fileName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 80);

/** Every quality rule of the PRD, placed as dbt would have it. */
export function dbtTests(prd: Prd): ColumnTests {
  const out: ColumnTests = { byColumn: new Map(), freshness: new Map(), singular: [] };
  const add = (table: string, column: string, test: Yaml | string) => {
    const columns = out.byColumn.get(table) ?? new Map<string, (Yaml | string)[]>();
    columns.set(column, [...(columns.get(column) ?? []), test]);
    out.byColumn.set(table, columns);
  };
  for (const rule of prd.quality_rules) {
    const column = rule.column;
    const p = rule.params as Record<string, unknown>;
    if (rule.kind === 'freshness' && column) {
      out.freshness.set(rule.table, { column, max_age_days: Number(p.max_age_days ?? 1) });
    } else if (rule.kind === 'range' && column) {
      const bounds = [
        p.min !== undefined && Number.isFinite(Number(p.min))
          ? `${sqlColumn(column)} < ${Number(p.min)}`
          : '',
        p.max !== undefined && Number.isFinite(Number(p.max))
          ? `${sqlColumn(column)} > ${Number(p.max)}`
          : '',
      ].filter(Boolean);
      if (!bounds.length) continue;
      // Two rules may read alike once reduced to a file name: the later one is numbered.
      let name = fileName(rule.name) || 'range_rule';
      for (let i = 2; out.singular.some((t) => t.name === name); i++) name = `${fileName(rule.name)}_${i}`;
      out.singular.push({
        name,
        sql:
          `-- ${rule.name.replace(/\n/g, ' ')} (${rule.severity})\n` +
          `{{ config(severity='${rule.severity === 'warning' ? 'warn' : 'error'}') }}\n\n` +
          `SELECT * FROM {{ ${relationOf(rule)} }} WHERE ${bounds.join(' OR ')}\n`,
      });
    } else if (!column) {
      continue;
    } else if (rule.kind === 'not_null' || rule.kind === 'unique') {
      add(rule.table, column, rule.severity === 'warning' ? { [rule.kind]: severity(rule) } : rule.kind);
    } else if (rule.kind === 'referential') {
      const to = relationOf({ layer: rule.layer, table: String(p.references_table) });
      add(rule.table, column, {
        relationships: {
          arguments: { to, field: sqlColumn(String(p.references_column)) },
          ...severity(rule),
        },
      });
    } else if (rule.kind === 'accepted_values') {
      add(rule.table, column, {
        accepted_values: {
          arguments: { values: ((p.values as unknown[]) ?? []).map(sqlLiteral), quote: false },
          ...severity(rule),
        },
      });
    }
  }
  return out;
}
