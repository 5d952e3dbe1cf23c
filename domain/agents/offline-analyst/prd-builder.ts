/**
 * The deterministic schema analyst: turns a source snapshot into a four-layer warehouse PRD from
 * the schema and its sample rows alone (no model calls). It finds each table's role, dates every
 * fact by its own business date or its header's, measures by column meaning, and breaks facts
 * down by the attributes reachable through foreign keys, declared or implied by names.
 */
import type { Prd, PrdQualityRule, PrdRelationship, PrdTable } from '../../../shared/prd-schema';
import type { SourceColumn, SourceSnapshot } from '../../../shared/source-schema';
import { rejectedDateColumns } from './event-time';
import { designFact, type FactDesign } from './fact-design';
import { relationshipsOf } from './implied-keys';
import { detectIndustry } from './industry-lexicon';
import { identifier, tableNoun } from './name-words';
import { analyseTables, FACT_ROLES, isModeledColumn, type TableAnalysis } from './table-roles';
import { warehouseType } from './warehouse-types';
import { columnReference } from '../../../shared/prd-sql/expression-sql';
import { distinctStems, shortHash } from './distinct-names';
import { validOfflinePrd } from './prd-repair';
import { refreshPlan } from './refresh-plan';
import { decisionsToReview } from './decision-review';
import { withoutKeysIntoSummaries } from './summary-tables';
import { isTextColumn } from './text-money';
import { tableFamilies, unionDesign, type TableFamily } from './table-families';

export const OFFLINE_ANALYST_VERSION = 'offline-schema-analyst/2';

const NON_NEGATIVE = new Set(['money', 'quantity', 'duration', 'size', 'unit_price']);

/** A column's name as an ODS field name: lower-cased (DuckDB resolves names case-insensitively). */
const odsStem = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
const odsFieldName = (stem: string) =>
  odsStem(stem)
    .replace(/^([^a-z])/, 't_$1')
    .slice(0, 63);

/**
 * How a quality rule names a source column: the ODS field name when that is the column's own name
 * (lower-cased), else the column's name as the source gives it, which the ODS Parquet keeps and the
 * checks quote (`../c`, `price $`).
 */
const ruleColumn = (name: string) => (odsFieldName(name) === name.toLowerCase() ? odsFieldName(name) : name);

export function buildOfflinePrd(snapshot: SourceSnapshot, description = ''): Prd {
  const { relationships, analyses } = rolesAndKeys(snapshot);
  // A fact kept in several tables (one per year, region…) is read as one: its first table stands
  // for the family, the others are folded into it (docs/offline-analyst.md#table-families).
  const families = tableFamilies(analyses);
  const familyOf = new Map(families.map((f) => [f.members[0].table.name, f]));
  const folded = new Set(families.flatMap((f) => f.members.slice(1).map((m) => m.table.name)));
  const byName = new Map(analyses.map((a) => [a.table.name, familyOf.get(a.table.name)?.merged ?? a]));
  const facts = [...byName.values()]
    .filter((a) => FACT_ROLES.has(a.role) && !folded.has(a.table.name))
    .sort((a, b) => factOrder(a) - factOrder(b) || b.table.row_count - a.table.row_count);
  const industry = detectIndustry(snapshot, description, analyses);
  // Every table's names are built from a stem of its own, distinct whatever the source calls it.
  const stems = distinctStems(snapshot.tables.map((t) => t.name));
  const stemOf = (table: string) => stems.get(table) ?? table;
  const odsTable = (table: string) => identifier(`ods_${stemOf(table)}`);
  const familyStems = distinctFamilyStems(families, [...stems.values()]);
  // A family's tables are called by the name they share (`orders` of `orders_2019`…).
  const labelOf = (table: string) => familyOf.get(table)?.name ?? table;
  const design = (f: TableAnalysis, stem: string) => {
    const family = familyOf.get(f.table.name);
    if (!family) return designFact(f, byName, relationships, stem, f.table.name, labelOf);
    return unionDesign(designFact(f, byName, relationships, stem, family.name, labelOf), family);
  };
  const designs = withDistinctTables(
    facts,
    (f) => familyStems.get(familyOf.get(f.table.name)!) ?? stemOf(f.table.name),
    design,
    // A dimension's DWD is `dwd_dim_<stem>`: no fact's table may take that name either.
    new Set([...stems.values()].map((stem) => identifier(`dwd_dim_${stem}`))),
  );

  // Dimensions: every non-fact table a fact reaches in one or two joins, plus referenced entities.
  const reached = new Set(
    designs.flatMap((d) => d.dwd.source_tables).filter((t) => !FACT_ROLES.has(byName.get(t)?.role ?? '')),
  );
  const dimensions = analyses.filter(
    (a) => !FACT_ROLES.has(a.role) && (reached.has(a.table.name) || ['dimension', 'lookup'].includes(a.role)),
  );
  const ods = odsTables(snapshot, odsTable);
  const prd: Prd = {
    version: 1,
    title: `${industry.name} analytics for ${snapshot.database}`,
    summary:
      summaryText(snapshot, industry, designs, dimensions) + familiesText(designs) + rollupsText(analyses),
    analyst: { kind: 'offline_schema_analyst', model: OFFLINE_ANALYST_VERSION },
    source: {
      database: snapshot.database,
      table_count: snapshot.tables.length,
      total_rows: snapshot.tables.reduce((n, t) => n + t.row_count, 0),
    },
    industry: { name: industry.name, confidence: industry.confidence, evidence: industry.evidence },
    fact_tables: facts.map((f) => f.table.name),
    dimension_tables: dimensions.map((d) => d.table.name),
    table_roles: tableRoles(analyses, families),
    facts: designs.map((d) => d.fact),
    relationships,
    // Filled once the PRD is whole: what the analyst is unsure of (decision-review.ts).
    review: [],
    layers: {
      ods,
      dwd: [...dimensionTables(dimensions, facts, byName, stemOf), ...designs.map((d) => d.dwd)],
      dws: designs.flatMap((d) => d.dws),
      ads: designs.flatMap((d) => d.ads),
    },
    quality_rules: [...qualityRules(analyses, odsTable), ...designs.flatMap((d) => d.qualityRules)],
    metrics: designs.flatMap((d) => d.metrics),
    dashboards: designs.flatMap((d) => d.dashboards),
    refresh: refreshPlan(
      snapshot,
      ods.flatMap((t) => t.source_tables),
    ),
  };
  const valid = validOfflinePrd(prd);
  return { ...valid, review: decisionsToReview(valid, snapshot) };
}

/** Each table's role and the keys between tables, a key inferred into a roll-up left out. */
function rolesAndKeys(snapshot: SourceSnapshot): {
  relationships: PrdRelationship[];
  analyses: TableAnalysis[];
} {
  const found = relationshipsOf(snapshot);
  const first = analyseTables(snapshot, found);
  // A key inferred into a roll-up joins nothing: classes are found again without it.
  const relationships = withoutKeysIntoSummaries(
    found,
    new Set(first.filter((a) => a.role === 'summary').map((a) => a.table.name)),
  );
  return {
    relationships,
    analyses: relationships === found ? first : analyseTables(snapshot, relationships),
  };
}

/** Each table's role and its evidence; a family's members say which family they were read in. */
function tableRoles(analyses: TableAnalysis[], families: TableFamily[]): Prd['table_roles'] {
  const memberOf = new Map(families.flatMap((f) => f.members.map((m) => [m.table.name, f] as const)));
  return analyses.map((a) => {
    const family = memberOf.get(a.table.name);
    const evidence = roleEvidence(a);
    return {
      table: a.table.name,
      role: a.role,
      evidence: family ? `${evidence}; one table of a family read as one: ${family.evidence}` : evidence,
    };
  });
}

/** ODS: a raw copy of every source table, its columns under ODS field names. */
function odsTables(snapshot: SourceSnapshot, odsTable: (table: string) => string): PrdTable[] {
  return snapshot.tables.map((t) => {
    const fieldStems = distinctStems(
      t.columns.map((c) => c.name),
      odsFieldName,
      63,
    );
    return {
      name: odsTable(t.name),
      description: `Raw copy of ${snapshot.database}.${t.name} (${t.row_count} rows)`,
      source_tables: [t.name],
      grain: `one ${t.name} row`,
      fields: t.columns.map((c) => ({
        name: odsFieldName(fieldStems.get(c.name)!),
        type: warehouseType(c),
        source: columnReference(t.name, c.name),
        description: c.comment ?? '',
      })),
      partition_by: [],
    };
  });
}

/** The DWD of each dimension a fact references: its modeled columns, cleaned. */
function dimensionTables(
  dimensions: TableAnalysis[],
  facts: TableAnalysis[],
  byName: Map<string, TableAnalysis>,
  stemOf: (table: string) => string,
): PrdTable[] {
  const dimensionsOfFacts = new Set(
    facts
      .flatMap((f) => f.references.map((r) => r.references_table))
      .filter((t) => !FACT_ROLES.has(byName.get(t)?.role ?? '')),
  );
  return dimensions
    .filter((d) => dimensionsOfFacts.has(d.table.name))
    .map((d) => {
      const columns = d.table.columns.filter(isModeledColumn);
      const fieldStems = distinctStems(
        columns.map((c) => c.name),
        identifier,
        63,
      );
      return {
        name: identifier(`dwd_dim_${stemOf(d.table.name)}`),
        description: `Cleaned ${tableNoun(d.table.name)} dimension (${d.role})`,
        source_tables: [d.table.name],
        grain: `one ${tableNoun(d.table.name)}`,
        fields: columns.map((c) => ({
          name: identifier(fieldStems.get(c.name)!),
          type: warehouseType(c),
          source: columnReference(d.table.name, c.name),
          description: c.comment ?? '',
        })),
        partition_by: [],
      };
    })
    .filter((t) => t.fields.length > 0);
}

/**
 * Each fact's design, its tables named apart from every other's: a fact's derived names can be
 * another's (`sales` → `dws_sales_breakdown_daily` is also `sales_breakdown`'s daily table), and the
 * later fact then takes its stem with a short hash of its table's name.
 */
function withDistinctTables(
  facts: TableAnalysis[],
  stemOf: (fact: TableAnalysis) => string,
  design: (fact: TableAnalysis, stem: string) => FactDesign,
  taken: Set<string>,
): FactDesign[] {
  const tablesOf = (d: FactDesign) => [d.dwd, ...d.dws, ...d.ads].map((t) => t.name);
  return facts.map((fact) => {
    const stem = stemOf(fact);
    let designed = design(fact, stem);
    for (let salt = 0; tablesOf(designed).some((name) => taken.has(name)); salt++)
      designed = design(fact, `${stem}_${shortHash(`${salt}:${fact.table.name}`)}`);
    for (const name of tablesOf(designed)) taken.add(name);
    return designed;
  });
}

/** Each family's stem for its tables' names: its shared name, unless a table or stem already has it. */
function distinctFamilyStems(families: TableFamily[], taken: string[]): Map<TableFamily, string> {
  const used = new Set(taken);
  return new Map(
    families.map((f) => {
      const base = identifier(f.name);
      let stem = used.has(base) ? `${base}_all` : base;
      for (let n = 2; used.has(stem); n++) stem = `${base}_all_${n}`;
      used.add(stem);
      return [f, stem];
    }),
  );
}

/** The sentence naming each union: which tables the DWD reads as one. */
function familiesText(designs: FactDesign[]): string {
  const unions = designs.flatMap((d) => (d.dwd.union ? [d.dwd] : []));
  if (!unions.length) return '';
  return ` Facts kept in several tables are read as one: ${unions
    .map(
      (t) =>
        `${t.union!.members.map((m) => m.table).join(' + ')} → ${t.name} (by ${t.union!.part_columns.join(', ')}${(
          t.joined_unions ?? []
        )
          .map((j) => `, joined with ${j.members.map((m) => m.table).join(' + ')} within each part`)
          .join('')})`,
    )
    .join('; ')}.`;
}

/** The sentence naming the roll-ups: copied, never counted (docs/offline-analyst.md#summary-tables). */
function rollupsText(analyses: TableAnalysis[]): string {
  const rollups = analyses.filter((a) => a.role === 'summary').map((a) => a.table.name);
  if (!rollups.length) return '';
  return ` Roll-ups of a fact are copied to ODS with no metrics of their own, since they would count the same rows twice: ${rollups.join(', ')}.`;
}

/** Headers and events first (what the business counts), then lines, then snapshots. */
function factOrder(a: TableAnalysis): number {
  return { header: 0, event: 1, line: 2, snapshot: 3 }[a.role as 'header'] ?? 4;
}

function roleEvidence(a: TableAnalysis): string {
  const rejected = rejectedDateColumns(a.table);
  return rejected.length ? `${a.evidence}; not event times: ${rejected.join(', ')}` : a.evidence;
}

function qualityRules(analyses: TableAnalysis[], odsTable: (table: string) => string): PrdQualityRule[] {
  const rules: PrdQualityRule[] = [];
  const col = ruleColumn;
  for (const a of analyses) {
    const { table } = a;
    const ods = odsTable(table.name);
    for (const pk of table.primary_key)
      rules.push({
        name: `${table.name}.${pk} is not null`,
        layer: 'ods',
        table: ods,
        column: col(pk),
        kind: 'not_null',
        params: {},
        severity: 'blocking',
      });
    if (table.primary_key.length === 1) {
      const pk = table.primary_key[0];
      rules.push({
        name: `${table.name}.${pk} is unique`,
        layer: 'ods',
        table: ods,
        column: col(pk),
        kind: 'unique',
        params: {},
        severity: 'blocking',
      });
    }
    for (const ref of a.references.filter((r) => r.columns.length === 1))
      rules.push({
        name: `${table.name}.${ref.columns[0]} references ${ref.references_table}`,
        layer: 'ods',
        table: ods,
        column: col(ref.columns[0]),
        kind: 'referential',
        params: {
          references_table: odsTable(ref.references_table),
          references_column: col(ref.references_columns[0]),
        },
        severity: 'warning',
      });
    if (FACT_ROLES.has(a.role))
      // Text money is held by its own rule on the DWD (text is no number to compare with 0).
      for (const c of table.columns.filter(
        (c) => NON_NEGATIVE.has(a.meaning.get(c.name)!) && !isTextColumn(c),
      ))
        rules.push({
          name: `${table.name}.${c.name} is not negative`,
          layer: 'ods',
          table: ods,
          column: col(c.name),
          kind: 'range',
          params: { min: 0 },
          severity: 'warning',
        });
    for (const c of table.columns.filter((c) => c.data_type === 'enum'))
      rules.push({
        name: `${table.name}.${c.name} in its enum values`,
        layer: 'ods',
        table: ods,
        column: col(c.name),
        kind: 'accepted_values',
        params: { values: enumValues(c) },
        severity: 'warning',
      });
    // Freshness reads a date of the table itself (not a calendar's, not a yyyymmdd integer).
    const fresh = a.ownDate && !a.ownDate.candidate.via && !a.ownDate.candidate.reading;
    if (fresh && a.ownDate && ['event', 'header'].includes(a.role))
      rules.push({
        name: `${table.name} has recent ${a.ownDate.column}`,
        layer: 'ods',
        table: ods,
        column: col(a.ownDate.column),
        kind: 'freshness',
        params: { max_age_days: 30 },
        severity: 'warning',
      });
  }
  return rules;
}

function enumValues(c: SourceColumn): string[] {
  return [...c.type.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1].replace(/''/g, "'"));
}

function summaryText(
  snapshot: SourceSnapshot,
  industry: { name: string; evidence: string[] },
  designs: FactDesign[],
  dims: TableAnalysis[],
): string {
  const business =
    industry.name === 'General business'
      ? `${snapshot.database} (${snapshot.tables.length} tables) does not name a clear industry, so the analysis stays general`
      : `${snapshot.database} (${snapshot.tables.length} tables) looks like ${/^[AEIOU]/.test(industry.name) ? 'an' : 'a'} ${industry.name} business (${industry.evidence.slice(0, 3).join('; ')})`;
  const facts = designs.length
    ? designs
        .map(({ fact }) =>
          fact.event_time
            ? `${fact.table} (${fact.kind}, dated by ${fact.event_time.table}.${fact.event_time.column}${fact.event_time.path.length ? ` through ${fact.event_time.path.join(', ')}` : ''})`
            : `${fact.table} (snapshot, no time)`,
        )
        .join('; ')
    : 'none: no table records business events, so there are no daily KPIs';
  const measured = designs.flatMap((d) =>
    d.fact.measures.filter((m) => /^(list-price )?revenue =/.test(m)).map((m) => `${d.fact.table}: ${m}`),
  );
  return (
    `${business}. Facts: ${facts}. ` +
    (measured.length ? `Revenue is derived as ${measured.join('; ')}. ` : '') +
    `${dims.length} dimension and lookup tables (${dims
      .slice(0, 6)
      .map((d) => d.table.name)
      .join(', ')}${dims.length > 6 ? ', ...' : ''}) describe them. ` +
    'ODS copies every table; DWD joins each fact with its header and dimensions; DWS and ADS aggregate by event date ' +
    '(stat_date) and break facts down by their main attributes.'
  );
}
