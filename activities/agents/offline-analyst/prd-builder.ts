/**
 * The deterministic schema analyst: turns a source snapshot into a four-layer warehouse PRD with
 * quality rules, ADS metrics and dashboard directions, from the schema alone (no model calls).
 */
import {
  prdSchema,
  type Prd,
  type PrdField,
  type PrdQualityRule,
  type PrdTable,
} from '../../../shared/prd-schema';
import type { SourceColumn, SourceSnapshot, SourceTable } from '../../../shared/source-schema';
import { detectIndustry } from './industry-lexicon';
import { profileTables, type TableProfile } from './table-roles';
import { warehouseType } from './warehouse-types';

export const OFFLINE_ANALYST_VERSION = 'offline-schema-analyst/1';

const AUDIT = /^(last_update|last_updated|updated_at|modified_at|last_modified)$/;
const LABEL = /^(name|title|label|description|first_name|last_name|email|code)$/;
/** Columns that never leave ODS: credentials and raw binary. */
const SENSITIVE = /(password|passwd|secret|token|hash|salt)/;
const keepInModel = (c: SourceColumn) =>
  !AUDIT.test(c.name) && !SENSITIVE.test(c.name) && warehouseType(c) !== 'BLOB';
const NON_NEGATIVE = /(amount|price|cost|rate|total|qty|quantity|fee|length|duration|balance|salary)/;

const ident = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/^([^a-z])/, 't_$1')
    .slice(0, 63);

function field(name: string, type: string, source: string, description = ''): PrdField {
  return { name: ident(name), type, source, description };
}

function columnField(table: SourceTable, column: SourceColumn): PrdField {
  return field(column.name, warehouseType(column), `${table.name}.${column.name}`, column.comment ?? '');
}

/** The columns that describe a dimension row in a report (e.g. category.name, customer.last_name). */
function labelColumns(table: SourceTable): SourceColumn[] {
  const labels = table.columns.filter((c) => LABEL.test(c.name));
  if (labels.length) return labels.slice(0, 2);
  const text = table.columns.find(
    (c) => ['varchar', 'char', 'enum'].includes(c.data_type) && !c.name.endsWith('_id'),
  );
  return text ? [text] : [];
}

export function buildOfflinePrd(snapshot: SourceSnapshot, description = ''): Prd {
  const industry = detectIndustry(snapshot, description);
  const profiles = profileTables(snapshot);
  const byName = new Map(profiles.map((p) => [p.table.name, p]));
  const facts = profiles
    .filter((p) => p.role === 'fact')
    .sort((a, b) => b.fact_score - a.fact_score || b.table.row_count - a.table.row_count);
  const factDims = new Set(facts.flatMap((f) => f.table.foreign_keys.map((fk) => fk.references_table)));
  const dimensions = profiles.filter(
    (p) => p.role === 'dimension' || (factDims.has(p.table.name) && p.role !== 'fact'),
  );

  const ods: PrdTable[] = snapshot.tables.map((t) => ({
    name: ident(`ods_${t.name}`),
    description: `Raw copy of ${snapshot.database}.${t.name} (${t.row_count} rows)`,
    source_tables: [t.name],
    grain: `one ${t.name} row`,
    fields: t.columns.map((c) => columnField(t, c)),
    partition_by: [],
  }));

  const dwd: PrdTable[] = [];
  const dws: PrdTable[] = [];
  const ads: PrdTable[] = [];
  const metrics: Prd['metrics'] = [];
  const dashboards: Prd['dashboards'] = [];

  for (const dim of dimensions.filter((d) => factDims.has(d.table.name))) {
    dwd.push({
      name: ident(`dwd_dim_${dim.table.name}`),
      description: `Cleaned ${dim.table.name} dimension`,
      source_tables: [dim.table.name],
      grain: `one ${dim.table.name}`,
      fields: dim.table.columns.filter(keepInModel).map((c) => columnField(dim.table, c)),
      partition_by: [],
    });
  }

  for (const fact of facts) {
    const t = fact.table;
    const detailFields: PrdField[] = t.columns.filter(keepInModel).map((c) => columnField(t, c));
    for (const fk of t.foreign_keys) {
      const target = byName.get(fk.references_table);
      if (!target) continue;
      const direct = labelColumns(target.table);
      // A dimension without labels (inventory) is described by its own dimensions (film.title).
      const hops = direct.length
        ? [{ table: target.table, labels: direct }]
        : target.table.foreign_keys
            .map((next) => byName.get(next.references_table)?.table)
            .filter((next): next is SourceTable => !!next)
            .map((next) => ({ table: next, labels: labelColumns(next).slice(0, 1) }));
      for (const { table, labels } of hops) {
        for (const label of labels) {
          detailFields.push(
            field(
              `${table.name}_${label.name}`,
              warehouseType(label),
              `${table.name}.${label.name}`,
              `via ${fk.columns.join(',')}`,
            ),
          );
        }
      }
    }
    const dateSource = fact.event_date ? `CAST(${t.name}.${fact.event_date} AS DATE)` : 'CURRENT_DATE';
    detailFields.push(
      field(
        'event_date',
        'DATE',
        dateSource,
        fact.event_date ? `date of ${fact.event_date}` : 'load date (no event time in source)',
      ),
    );
    dwd.push({
      name: ident(`dwd_${t.name}_detail`),
      description: `One row per ${t.name}, joined with its dimensions`,
      source_tables: [t.name, ...t.foreign_keys.map((fk) => fk.references_table)],
      grain: `one ${t.name}`,
      fields: dedupe(detailFields),
      partition_by: ['event_date'],
    });

    const countName = ident(`${t.name}_count`);
    const kpiFields: PrdField[] = [
      field('stat_date', 'DATE', 'event_date'),
      field(countName, 'BIGINT', 'COUNT(*)', `number of ${t.name} rows`),
    ];
    for (const m of fact.measures)
      kpiFields.push(field(`total_${m}`, 'DECIMAL(18,2)', `SUM(${m})`, `sum of ${t.name}.${m}`));
    const distinctDims = t.foreign_keys.filter((fk) => fk.columns.length === 1).slice(0, 3);
    for (const fk of distinctDims)
      kpiFields.push(
        field(
          `distinct_${fk.references_table}_count`,
          'BIGINT',
          `COUNT(DISTINCT ${fk.columns[0]})`,
          `distinct ${plural(fk.references_table.replace(/_/g, ' '))}`,
        ),
      );

    dws.push({
      name: ident(`dws_${t.name}_daily`),
      description: `Daily ${t.name} aggregates`,
      source_tables: [ident(`dwd_${t.name}_detail`)],
      grain: 'one day',
      fields: kpiFields,
      partition_by: ['stat_date'],
    });
    const adsName = ident(`ads_${t.name}_kpi_daily`);
    ads.push({
      name: adsName,
      description: `Daily ${t.name} KPIs for dashboards`,
      source_tables: [ident(`dws_${t.name}_daily`)],
      grain: 'one day',
      fields: kpiFields,
      partition_by: ['stat_date'],
    });
    const factMetrics = kpiFields.slice(1).map((f) => ({
      // Metric names are global: qualify with the fact unless the column already is.
      name: f.name.startsWith(`${t.name}_`) ? f.name : ident(`${t.name}_${f.name}`),
      description: f.description || f.name,
      sql: `SELECT stat_date, ${f.name} AS value FROM ${adsName} ORDER BY stat_date`,
      ads_table: adsName,
      unit: f.name.startsWith('total_')
        ? /(amount|price|cost|fee|revenue)/.test(f.name)
          ? 'currency'
          : ''
        : 'count',
    }));
    metrics.push(...factMetrics);
    dashboards.push({
      title: `${capitalize(t.name)} trends`,
      description: `Daily ${t.name} volume${fact.measures.length ? ' and ' + fact.measures.join(', ') : ''} over time`,
      metrics: factMetrics.slice(0, 4).map((m) => m.name),
      chart: 'line',
    });
  }

  const prd: Prd = {
    version: 1,
    title: `${industry.name} analytics for ${snapshot.database}`,
    summary: summaryText(snapshot, industry.name, facts, dimensions),
    analyst: { kind: 'offline_schema_analyst', model: OFFLINE_ANALYST_VERSION },
    source: {
      database: snapshot.database,
      table_count: snapshot.tables.length,
      total_rows: snapshot.tables.reduce((n, t) => n + t.row_count, 0),
    },
    industry,
    fact_tables: facts.map((f) => f.table.name),
    dimension_tables: dimensions.map((d) => d.table.name),
    layers: { ods, dwd, dws, ads },
    quality_rules: qualityRules(profiles),
    metrics,
    dashboards,
  };
  return prdSchema.parse(prd);
}

function qualityRules(profiles: TableProfile[]): PrdQualityRule[] {
  const rules: PrdQualityRule[] = [];
  for (const { table, event_date, measures } of profiles) {
    const ods = ident(`ods_${table.name}`);
    for (const pk of table.primary_key) {
      rules.push({
        name: `${table.name}.${pk} is not null`,
        layer: 'ods',
        table: ods,
        column: ident(pk),
        kind: 'not_null',
        params: {},
        severity: 'blocking',
      });
    }
    if (table.primary_key.length === 1) {
      const pk = table.primary_key[0];
      rules.push({
        name: `${table.name}.${pk} is unique`,
        layer: 'ods',
        table: ods,
        column: ident(pk),
        kind: 'unique',
        params: {},
        severity: 'blocking',
      });
    }
    for (const fk of table.foreign_keys.filter((f) => f.columns.length === 1)) {
      rules.push({
        name: `${table.name}.${fk.columns[0]} references ${fk.references_table}`,
        layer: 'ods',
        table: ods,
        column: ident(fk.columns[0]),
        kind: 'referential',
        params: {
          references_table: ident(`ods_${fk.references_table}`),
          references_column: ident(fk.references_columns[0]),
        },
        severity: 'warning',
      });
    }
    for (const m of measures.filter((m) => NON_NEGATIVE.test(m))) {
      rules.push({
        name: `${table.name}.${m} is not negative`,
        layer: 'ods',
        table: ods,
        column: ident(m),
        kind: 'range',
        params: { min: 0 },
        severity: 'warning',
      });
    }
    for (const c of table.columns.filter((c) => c.data_type === 'enum')) {
      const values = [...c.type.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"));
      rules.push({
        name: `${table.name}.${c.name} in its enum values`,
        layer: 'ods',
        table: ods,
        column: ident(c.name),
        kind: 'accepted_values',
        params: { values },
        severity: 'warning',
      });
    }
    if (event_date) {
      rules.push({
        name: `${table.name} has recent ${event_date}`,
        layer: 'ods',
        table: ods,
        column: ident(event_date),
        kind: 'freshness',
        params: { max_age_days: 30 },
        severity: 'warning',
      });
    }
  }
  return rules;
}

function summaryText(
  snapshot: SourceSnapshot,
  industry: string,
  facts: TableProfile[],
  dims: TableProfile[],
): string {
  const factText = facts.length
    ? `Business events are recorded in ${facts.map((f) => `${f.table.name} (${f.table.row_count} rows${f.event_date ? `, by ${f.event_date}` : ''})`).join(' and ')}`
    : 'No event table was found, so the warehouse reports snapshots';
  return `${snapshot.database} looks like a ${industry} database with ${snapshot.tables.length} tables. ${factText}; ${dims.length} dimension tables (${dims
    .slice(0, 6)
    .map((d) => d.table.name)
    .join(
      ', ',
    )}${dims.length > 6 ? ', ...' : ''}) describe them. The warehouse copies every table to ODS, joins each fact with its dimensions in DWD, aggregates by day in DWS and serves daily KPIs partitioned by stat_date in ADS.`;
}

function dedupe(fields: PrdField[]): PrdField[] {
  const seen = new Set<string>();
  return fields.filter((f) => (seen.has(f.name) ? false : (seen.add(f.name), true)));
}

/** English plural of a table noun, for metric descriptions ("distinct customers"). */
function plural(noun: string): string {
  const irregular: Record<string, string> = {
    staff: 'staff members',
    inventory: 'inventory items',
    person: 'people',
  };
  if (irregular[noun]) return irregular[noun];
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
}
