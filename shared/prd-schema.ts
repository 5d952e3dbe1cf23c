/**
 * The PRD (docs/requirements.md#workflow): what the product-manager agent proposes and a person approves, edits
 * or rejects. Validated with zod wherever it enters: agent output, the modify decision, the API.
 */
import { z } from 'zod';
import { fieldProblems, sourceColumnOf } from './prd-sql/prd-field-rules';
import { readsParsedDay } from './prd-sql/parsed-days';
import { prdRefreshSchema, refreshProblems } from './prd-refresh';
import { TEXT_DATE_FORMATS } from './text-dates';

const identifier = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,62}$/,
    'a lower-case SQL identifier (letters, digits, underscores; starts with a letter)',
  );

export const prdFieldSchema = z
  .object({
    name: identifier,
    type: z.string().min(1).describe('warehouse type, e.g. BIGINT, DECIMAL(5,2), VARCHAR, DATE, TIMESTAMP'),
    description: z.string().default(''),
    /** Source expression, e.g. `rental.rental_date` or `COUNT(*)`. */
    source: z.string().default(''),
  })
  .strict();

export const layerNames = ['ods', 'dwd', 'dws', 'ads'] as const;
export type LayerName = (typeof layerNames)[number];

/** A family of source tables read as one: members, each with its value of each part column. */
const tableUnionSchema = z
  .object({
    /** Columns the union adds, one per part of the names that differs (e.g. `source_year`). */
    part_columns: z.array(identifier).min(1),
    /** Each source table of the family, with its value for each part column. */
    members: z
      .array(z.object({ table: z.string().min(1), parts: z.array(z.string()) }).strict())
      .min(2, 'a union needs at least two tables'),
    /** Why these tables are one fact (names, columns, keys, dates). */
    evidence: z.string().default(''),
  })
  .strict();

export const prdTableSchema = z
  .object({
    name: identifier,
    description: z.string().default(''),
    source_tables: z.array(z.string().min(1)).default([]),
    /** What one row means, e.g. "one rental" or "one day". */
    grain: z.string().default(''),
    fields: z.array(prdFieldSchema).min(1, 'a table needs at least one field'),
    partition_by: z.array(identifier).default([]),
    /**
     * A DWD table over a family of source tables with the same columns (`sales_2019`, `sales_2020`…):
     * their ODS copies are read as one, UNION ALL, each row tagged with its part in `part_columns`.
     * Field expressions name the union by its first member (`sales_2019.amount`).
     */
    union: tableUnionSchema.optional(),
    /**
     * Beside a `union` of lines: the families of tables it joins read as one, each named by its
     * first member (`orders_2019` for `orders_2019`…`orders_2021`). The join follows the foreign
     * keys to that first member and also matches each part column of the union with the joined
     * family's part column at the same position (`order_lines_2019.source_year =
     * orders_2019.source_year`), since keys may repeat from one part to the next.
     */
    joined_unions: z.array(tableUnionSchema).optional(),
  })
  .strict();

export const qualityRuleKinds = [
  'not_null',
  'unique',
  'range',
  'referential',
  'freshness',
  'accepted_values',
] as const;

export const prdQualityRuleSchema = z
  .object({
    name: z.string().min(1),
    layer: z.enum(layerNames),
    table: identifier,
    /** A column of the table as it is named there (a source name the ODS keeps may be any text: checks quote it). */
    column: z.string().min(1).max(256).optional(),
    kind: z.enum(qualityRuleKinds),
    /** kind-specific: range {min,max}; referential {references_table, references_column}; freshness {max_age_days}; accepted_values {values}. */
    params: z.record(z.string(), z.unknown()).default({}),
    severity: z.enum(['blocking', 'warning']),
  })
  .strict();

export const prdMetricSchema = z
  .object({
    name: identifier,
    description: z.string().min(1),
    /** Query against the ADS layer; validated in the query-building stage. */
    sql: z.string().min(1),
    ads_table: identifier,
    unit: z.string().default(''),
    /** `series`: one value per stat_date; `breakdown`: one value per stat_date and `dimension` value. */
    kind: z.enum(['series', 'breakdown']).default('series'),
    /** How the value combines over several days: `sum` adds up, `avg` and `distinct` do not. */
    additive: z.boolean().default(true),
    /** For a breakdown: the ADS column the value is split by (the SQL returns it as `dimension`). */
    dimension: identifier.optional(),
  })
  .strict();

/** A join the warehouse relies on: a declared foreign key, or one inferred from names and types. */
export const prdRelationshipSchema = z
  .object({
    table: z.string().min(1),
    columns: z.array(z.string().min(1)).min(1),
    references_table: z.string().min(1),
    references_columns: z.array(z.string().min(1)).min(1),
    origin: z.enum(['declared', 'inferred']),
    evidence: z.string().default(''),
  })
  .strict();

/** How a column that is no date type reads as a day (docs/offline-analyst.md#dates-read-from-values). */
const dayReadingSchema = z
  .object({
    encoding: z.enum(['yyyymmdd', 'text', 'parts', 'epoch']),
    /** For epoch: seconds or milliseconds since 1970. */
    unit: z.enum(['s', 'ms']).optional(),
    /** For text: the strptime format of its days, one of the shapes the analyst reads. */
    format: z.enum(TEXT_DATE_FORMATS, { message: 'an unknown day format' }).optional(),
    parts: z
      .object({
        year: z.string().min(1),
        month: z.string().min(1).optional(),
        day: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
    /** For text: every day is 12 or less, so the values could as well be read month first. */
    ambiguous: z.boolean().optional(),
  })
  .strict();

/**
 * A decision the analyst is unsure of, for the person approving (docs/offline-analyst.md#say-when-unsure):
 * what was decided about what, how sure it is (0..1), why, and what else it could be.
 */
export const prdReviewItemSchema = z
  .object({
    decision: z.enum(['industry', 'event_time', 'no_series', 'measure', 'role', 'refresh']),
    /** The table (or the source database) the decision is about. */
    subject: z.string().min(1),
    confidence: z.number().min(0).max(1),
    evidence: z.string().default(''),
    /** What else it could be (other date candidates, other tables). */
    alternatives: z.array(z.string()).default([]),
  })
  .strict();

export const factKinds = ['event', 'header', 'line', 'snapshot'] as const;

/**
 * Why a fact is dated the way it is: its own business date, a date inherited from its header
 * through N:1 joins (`path`), or none (a snapshot, reported as of the warehouse build).
 */
export const prdFactSchema = z
  .object({
    table: z.string().min(1),
    kind: z.enum(factKinds),
    event_time: z
      .object({
        /** The source table holding the date column (the fact itself, or its header). */
        table: z.string().min(1),
        column: z.string().min(1),
        /** The joins from the fact to `table`, e.g. `order_items.order_id -> orders.order_id`; empty for its own date. */
        path: z.array(z.string()).default([]),
        evidence: z.string().default(''),
      })
      .strict()
      .nullable(),
    /**
     * Every date the fact could be dated by, best first, with the figures that ranked them: to
     * date the fact otherwise, copy one's table, column and path into event_time.
     */
    event_time_candidates: z
      .array(
        z
          .object({
            table: z.string().min(1),
            column: z.string().min(1),
            path: z.array(z.string()).default([]),
            /** Share of rows where the date is set, 0..1; absent when the rows were not profiled. */
            coverage: z.number().min(0).max(1).optional(),
            first: z.string().optional(),
            last: z.string().optional(),
            support: z.enum(['complete', 'partial', 'sparse', 'implausible']),
            /** How a column that is no date type reads as a day: `yyyymmdd`, text in a format, or parts. */
            reads_as: dayReadingSchema.optional(),
            note: z.string().default(''),
          })
          .strict(),
      )
      .default([]),
    /** The daily (or snapshot) ADS table of this fact. */
    ads_table: identifier.optional(),
    /** What the fact's measures mean, e.g. `revenue = quantity × unit_price × (1 − discount)`. */
    measures: z.array(z.string()).default([]),
    evidence: z.string().default(''),
  })
  .strict();

export const tableRoles = [
  'event',
  'header',
  'line',
  'snapshot',
  'dimension',
  'bridge',
  'lookup',
  'summary',
  'other',
] as const;

export const prdDashboardSchema = z
  .object({
    title: z.string().min(1),
    description: z.string().default(''),
    metrics: z.array(identifier).min(1),
    chart: z.enum(['line', 'bar', 'area', 'table', 'stat']),
  })
  .strict();

/**
 * The PRD's shape: every field and its type. The OpenAPI document states it; a request that does not
 * match it is a 400.
 */
export const prdShapeSchema = z
  .object({
    version: z.literal(1),
    title: z.string().min(1),
    summary: z.string().min(1),
    analyst: z
      .object({
        kind: z.enum(['claude', 'offline_schema_analyst']),
        /** Model id for Claude; analyst version for the offline analyst. */
        model: z.string().min(1),
      })
      .strict(),
    source: z
      .object({
        database: z.string().min(1),
        table_count: z.number().int().nonnegative(),
        total_rows: z.number().int().nonnegative(),
      })
      .strict(),
    industry: z
      .object({
        name: z.string().min(1),
        confidence: z.number().min(0).max(1),
        evidence: z.array(z.string()).default([]),
      })
      .strict(),
    fact_tables: z.array(z.string().min(1)),
    dimension_tables: z.array(z.string().min(1)),
    /** Every source table's role, with the structure or data that decided it. */
    table_roles: z
      .array(z.object({ table: z.string().min(1), role: z.enum(tableRoles), evidence: z.string() }).strict())
      .default([]),
    /** One entry per fact table: its kind and event time. */
    facts: z.array(prdFactSchema).default([]),
    relationships: z.array(prdRelationshipSchema).default([]),
    /** The decisions to check before approving, weakest first (empty when the analyst is sure of all). */
    review: z.array(prdReviewItemSchema).default([]),
    layers: z
      .object({
        ods: z.array(prdTableSchema).min(1),
        dwd: z.array(prdTableSchema),
        dws: z.array(prdTableSchema),
        ads: z.array(prdTableSchema),
      })
      .strict(),
    quality_rules: z.array(prdQualityRuleSchema),
    metrics: z.array(prdMetricSchema),
    dashboards: z.array(prdDashboardSchema),
    /** How a refresh finds each source table's changes (docs/offline-analyst.md#change-detection). */
    refresh: z.array(prdRefreshSchema).default([]),
  })
  .strict();

/**
 * A valid PRD: its shape plus the rules between its parts (ADS partitioned by stat_date, unique names,
 * metrics on existing ADS tables, facts among the fact tables, ...). A PRD of the right shape that
 * breaks one of these is refused with 422 naming the field.
 */
export const prdSchema = prdShapeSchema.superRefine((prd, ctx) => {
  const add: AddProblem = (path, message) => ctx.addIssue({ code: 'custom', path, message });
  tableProblems(prd, add);
  metricProblems(prd, add);
  prd.facts.forEach((f, i) => {
    if (!prd.fact_tables.includes(f.table))
      add(['facts', i, 'table'], `${f.table} is not listed in fact_tables`);
  });
  prd.facts.forEach((f, i) =>
    eventTimeProblems(prd, f, (part, message) => add(['facts', i, 'event_time', part], message)),
  );
  // Types and source expressions are data, never SQL text (docs/security.md#prd-fields-are-data).
  for (const problem of fieldProblems(prd)) ctx.addIssue({ code: 'custom', ...problem });
  for (const { index, field, message } of refreshProblems(prd)) add(['refresh', index, field], message);
  const metricNames = new Set(prd.metrics.map((m) => m.name));
  prd.dashboards.forEach((d, i) =>
    d.metrics.forEach((m, j) => {
      if (!metricNames.has(m)) add(['dashboards', i, 'metrics', j], `no metric named ${m}`);
    }),
  );
});

type PrdShape = z.output<typeof prdShapeSchema>;
/** Reports one broken rule of a PRD, at the path of the field that breaks it. */
type AddProblem = (path: (string | number)[], message: string) => void;

/** ADS tables partitioned by stat_date, table names unique in each layer, unions buildable. */
function tableProblems(prd: PrdShape, add: AddProblem) {
  for (const table of prd.layers.ads)
    if (!table.partition_by.includes('stat_date'))
      add(['layers', 'ads'], `ADS table ${table.name} must be partitioned by stat_date`);
  for (const layer of layerNames) duplicateNames(prd.layers[layer], ['layers', layer], 'table name', add);
  for (const layer of layerNames)
    prd.layers[layer].forEach((t, i) => {
      for (const message of unionProblems(layer, t)) add(['layers', layer, i, 'union'], message);
    });
}

/** Reports the name of each item whose name an earlier item already has. */
function duplicateNames(items: { name: string }[], at: (string | number)[], what: string, add: AddProblem) {
  const seen = new Set<string>();
  items.forEach((x, i) => {
    if (seen.has(x.name)) add([...at, i, 'name'], `duplicate ${what} ${x.name}`);
    seen.add(x.name);
  });
}

/** Metric names unique, each metric on an existing ADS table, each breakdown with its dimension. */
function metricProblems(prd: PrdShape, add: AddProblem) {
  duplicateNames(prd.metrics, ['metrics'], 'metric name', add);
  const adsTables = new Set(prd.layers.ads.map((t) => t.name));
  prd.metrics.forEach((m, i) => {
    if (!adsTables.has(m.ads_table)) add(['metrics', i, 'ads_table'], `no ADS table named ${m.ads_table}`);
  });
  prd.metrics.forEach((m, i) => {
    if (m.kind === 'breakdown' && !m.dimension)
      add(
        ['metrics', i, 'dimension'],
        `breakdown metric ${m.name} needs the dimension column it is split by`,
      );
  });
}

/**
 * An event time names a date column of a copied table (checked where the ODS copy lists it), so a
 * person's edit that names a missing or non-date column is refused here, not at build time.
 */
function eventTimeProblems(
  prd: PrdShape,
  f: PrdShape['facts'][number],
  add: (part: 'column' | 'path', message: string) => void,
) {
  const e = f.event_time;
  const ods = e && prd.layers.ods.find((t) => t.source_tables[0]?.toLowerCase() === e.table.toLowerCase());
  if (!e || !ods) return;
  const column = ods.fields.find((x) => {
    const ref = sourceColumnOf(x.source);
    return ref && `${ref.table}.${ref.column}`.toLowerCase() === `${e.table}.${e.column}`.toLowerCase();
  });
  if (!column) add('column', `${e.table} has no column ${e.column}`);
  else if (!/^(DATE|TIMESTAMP)/i.test(column.type) && !readsParsedDay(prd, f.table, e, column.type))
    add('column', `${e.table}.${e.column} is ${column.type}, not a date or timestamp`);
  else if (e.table.toLowerCase() !== f.table.toLowerCase() && !e.path.length)
    add('path', `${f.table} is dated by ${e.table}: say the joins (path) from ${f.table} to ${e.table}`);
}

/**
 * What makes a table's unions unbuildable: only DWD reads source tables, each once, the union's
 * first as named; a joined union sits beside a union, with a part column for each of its parts.
 */
function unionProblems(layer: LayerName, t: z.output<typeof prdTableSchema>): string[] {
  const u = t.union;
  const joined = t.joined_unions ?? [];
  const problems: string[] = [];
  if (!u) return joined.length ? [`${t.name}: joined_unions join a union: the table has none`] : [];
  if (layer !== 'dwd') problems.push(`${t.name}: only a DWD table unions source tables`);
  const tables = [u, ...joined].flatMap((x) => x.members.map((m) => m.table));
  if (new Set(tables).size !== tables.length) problems.push(`${t.name}: a table is in the union twice`);
  if (t.source_tables[0] !== u.members[0].table)
    problems.push(
      `${t.name}: the union's first table ${u.members[0].table} must be the first of source_tables`,
    );
  for (const [x, what] of [[u, 'union'], ...joined.map((j) => [j, 'joined union'] as const)] as const) {
    if (new Set(x.part_columns).size !== x.part_columns.length)
      problems.push(`${t.name}: a part column is named twice`);
    if (x !== u && x.part_columns.length !== u.part_columns.length)
      problems.push(
        `${t.name}: the joined union of ${x.members[0].table} has ${x.part_columns.length} part columns for the union's ${u.part_columns.length}`,
      );
    for (const m of x.members) {
      if (!t.source_tables.includes(m.table))
        problems.push(`${t.name}: ${what} member ${m.table} is not in source_tables`);
      if (m.parts.length !== x.part_columns.length)
        problems.push(
          `${t.name}: ${m.table} has ${m.parts.length} parts for ${x.part_columns.length} part columns`,
        );
    }
  }
  return problems;
}

export type Prd = z.output<typeof prdSchema>;
export type PrdTable = z.output<typeof prdTableSchema>;
export type PrdField = z.output<typeof prdFieldSchema>;
export type PrdQualityRule = z.output<typeof prdQualityRuleSchema>;
export type PrdMetric = z.output<typeof prdMetricSchema>;
export type PrdFact = z.output<typeof prdFactSchema>;
export type PrdRelationship = z.output<typeof prdRelationshipSchema>;
export type TableRole = (typeof tableRoles)[number];
