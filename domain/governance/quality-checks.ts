/**
 * Data governance, part 1: the PRD's quality rules evaluated on the built warehouse. Every rule
 * becomes a predicate that selects its violating rows, so the report gives exact counts and
 * sample rows an analyst can look at; freshness is a table-level check on the latest value.
 */
import type { Prd, PrdQualityRule } from '../../shared/prd-schema';
import type { ProjectQuery, WarehouseEngine } from '../warehouse/warehouse-engine';
import { layerDatabaseName } from '../warehouse/warehouse-layout';
import { quoteIdent as q, quoteLiteral } from '../../shared/sql-quoting';

export interface QualityRuleResult {
  name: string;
  kind: PrdQualityRule['kind'];
  severity: PrdQualityRule['severity'];
  table: string;
  column?: string;
  status: 'passed' | 'failed' | 'error';
  checked_rows: number;
  violations: number;
  message: string;
  /** Up to five violating rows (freshness: the latest value). */
  samples: Record<string, unknown>[];
  /** The SQL that finds the violations, to rerun by hand. */
  sql: string;
}

export interface QualityReport {
  generated_at: string;
  rules_total: number;
  rules_passed: number;
  rules_failed: number;
  rules_errored: number;
  blocking_failed: string[];
  results: QualityRuleResult[];
}

const lit = (v: unknown) => quoteLiteral(String(v));
const SAMPLE_ROWS = 5;

export async function evaluateQualityRules(
  engine: WarehouseEngine,
  projectId: string,
  prd: Prd,
  now: Date = new Date(),
): Promise<QualityReport> {
  const results: QualityRuleResult[] = [];
  await engine.withQuerySession(projectId, async (query) => {
    for (const rule of prd.quality_rules) results.push(await evaluate(query, projectId, rule, now));
  });
  const failed = results.filter((r) => r.status === 'failed');
  return {
    generated_at: now.toISOString(),
    rules_total: results.length,
    rules_passed: results.filter((r) => r.status === 'passed').length,
    rules_failed: failed.length,
    rules_errored: results.filter((r) => r.status === 'error').length,
    blocking_failed: failed.filter((r) => r.severity === 'blocking').map((r) => r.name),
    results,
  };
}

async function evaluate(
  query: ProjectQuery,
  projectId: string,
  rule: PrdQualityRule,
  now: Date,
): Promise<QualityRuleResult> {
  const table = `${layerDatabaseName(projectId, rule.layer)}.${q(rule.table)}`;
  const base = {
    name: rule.name,
    kind: rule.kind,
    severity: rule.severity,
    table: `${layerDatabaseName(projectId, rule.layer)}.${rule.table}`,
    column: rule.column,
  };
  let sql = '';
  try {
    if (!rule.column) throw new Error(`a ${rule.kind} rule needs a column`);
    const col = `t.${q(rule.column)}`;
    if (rule.kind === 'freshness') {
      const maxAge = Number(rule.params.max_age_days);
      if (!Number.isFinite(maxAge) || maxAge <= 0)
        throw new Error('params.max_age_days must be a positive number');
      sql = `SELECT MAX(${col}) AS latest FROM ${table} t`;
      const [row] = (await query(`SELECT MAX(${col}) AS latest, COUNT(*) AS n FROM ${table} t`, 1)).rows;
      const latest = row?.latest;
      const checked = Number(row?.n ?? 0);
      const ageDays = latest
        ? Math.floor((now.getTime() - Date.parse(String(latest))) / 86_400_000)
        : Infinity;
      const stale = ageDays > maxAge;
      return {
        ...base,
        status: stale ? 'failed' : 'passed',
        checked_rows: checked,
        violations: stale ? 1 : 0,
        message: latest
          ? `latest ${rule.column} is ${String(latest)}, ${ageDays} days old (limit ${maxAge})`
          : `${rule.column} has no values`,
        samples: [{ latest: latest ?? null, age_days: Number.isFinite(ageDays) ? ageDays : null }],
        sql,
      };
    }

    const where = violationPredicate(rule, projectId, col);
    sql = `SELECT t.* FROM ${table} t WHERE ${where}`;
    // One scan for both counts: every rule is a query, so round trips add up.
    const [counts] = (
      await query(`SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE ${where}) AS bad FROM ${table} t`, 1)
    ).rows;
    const checked = Number(counts?.n ?? 0);
    const violations = Number(counts?.bad ?? 0);
    const samples = violations ? (await query(`${sql} LIMIT ${SAMPLE_ROWS}`, SAMPLE_ROWS)).rows : [];
    return {
      ...base,
      status: violations ? 'failed' : 'passed',
      checked_rows: checked,
      violations,
      message: violations
        ? `${violations} of ${checked} rows violate ${rule.kind}${describeParams(rule)}`
        : `all ${checked} rows pass`,
      samples: samples.map(trimRow),
      sql,
    };
  } catch (err) {
    return {
      ...base,
      status: 'error',
      checked_rows: 0,
      violations: 0,
      message: `could not evaluate: ${(err as Error).message.split('\n')[0]}`,
      samples: [],
      sql,
    };
  }
}

/** The rows that break the rule (alias `t`). */
function violationPredicate(rule: PrdQualityRule, projectId: string, col: string): string {
  const p = rule.params;
  switch (rule.kind) {
    case 'not_null':
      return `${col} IS NULL`;
    case 'unique': {
      const table = `${layerDatabaseName(projectId, rule.layer)}.${q(rule.table)}`;
      return `${col} IN (SELECT ${q(rule.column!)} FROM ${table} GROUP BY 1 HAVING COUNT(*) > 1)`;
    }
    case 'range': {
      const bounds: string[] = [];
      if (p.min !== undefined) bounds.push(`${col} < ${numberParam(p.min, 'min')}`);
      if (p.max !== undefined) bounds.push(`${col} > ${numberParam(p.max, 'max')}`);
      if (!bounds.length) throw new Error('params needs min or max');
      return `(${bounds.join(' OR ')})`;
    }
    case 'referential': {
      const refTable = p.references_table;
      const refColumn = p.references_column;
      if (typeof refTable !== 'string' || typeof refColumn !== 'string')
        throw new Error('params.references_table and params.references_column are required');
      const ref = `${layerDatabaseName(projectId, rule.layer)}.${q(refTable)}`;
      return `${col} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${ref} r WHERE r.${q(refColumn)} = ${col})`;
    }
    case 'accepted_values': {
      const values = p.values;
      if (!Array.isArray(values) || !values.length) throw new Error('params.values must be a non-empty list');
      return `${col} IS NOT NULL AND CAST(${col} AS VARCHAR) NOT IN (${values.map(lit).join(', ')})`;
    }
    default:
      throw new Error(`unknown rule kind ${rule.kind}`);
  }
}

function numberParam(v: unknown, name: string): number {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`params.${name} must be a number`);
  return n;
}

function describeParams(rule: PrdQualityRule): string {
  const p = rule.params;
  if (rule.kind === 'range') return ` (${p.min ?? '-∞'} … ${p.max ?? '∞'})`;
  if (rule.kind === 'referential') return ` (→ ${String(p.references_table)}.${String(p.references_column)})`;
  return '';
}

/** Long text and binary values cut short so a sample stays readable. */
function trimRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…` : v,
    ]),
  );
}
