/**
 * The warehouse design of one fact: its event time (own, inherited from the header, or none), the
 * DWD detail joined with its header and dimensions, daily DWS/ADS aggregates (or a snapshot when
 * the fact has no time), breakdowns by its main attributes, the metrics and the dashboards.
 */
import type { Prd, PrdFact, PrdField, PrdMetric, PrdQualityRule, PrdTable } from '../../../shared/prd-schema';
import { describeStep, joinTree, pathTo, type JoinKey } from '../../../shared/join-tree';
import { breakdownsOf, type Breakdown } from './breakdowns';
import { choiceEvidence, ownCandidates, rankCandidates, type EventTimeCandidate } from './event-time';
import { inheritedThrough } from './header-references';
import { rowMeasures, type RowMeasure } from './fact-measures';
import { columnWords, fieldIdentifier, identifier, pluralNoun, singularWords, tableNoun } from './name-words';
import { FACT_ROLES, isModeledColumn, labelColumns, type TableAnalysis } from './table-roles';
import { warehouseType } from './warehouse-types';
import { rawName, textMoneyChecks, textMoneyColumns } from './text-money';
import { columnReference } from '../../../shared/prd-sql/expression-sql';
import { eventDateSource, type DayReading } from '../../../shared/date-keys';
import { columnsNamedBy } from '../../../shared/prd-sql/prd-field-rules';
import { distinctStems } from './distinct-names';

export interface FactDesign {
  fact: PrdFact;
  dwd: PrdTable;
  dws: PrdTable[];
  ads: PrdTable[];
  metrics: PrdMetric[];
  dashboards: Prd['dashboards'];
  /** Checks of the fact's own data (text money that did not parse). */
  qualityRules: PrdQualityRule[];
}

const field = (name: string, type: string, source: string, description = ''): PrdField => ({
  name: fieldIdentifier(name),
  type,
  source,
  description,
});

function dedupe(fields: PrdField[]): PrdField[] {
  const seen = new Set<string>();
  return fields.filter((f) => (seen.has(f.name) ? false : (seen.add(f.name), true)));
}

interface Aggregate {
  field: PrdField;
  unit: string;
  additive: boolean;
  /** Shown on the fact's time-series dashboard. */
  headline: boolean;
}

const aggregate = (f: PrdField, unit: string, additive: boolean, headline: boolean): Aggregate => ({
  field: f,
  unit,
  additive,
  headline,
});

/** `<stem>_count`: the distinct values of one column. */
const distinctCount = (stem: string, column: string, description: string) =>
  field(`${stem}_count`, 'BIGINT', `COUNT(DISTINCT ${fieldIdentifier(column)})`, description);

/** The daily (or snapshot) aggregates of a fact, from its DWD columns. */
function aggregates(
  fact: TableAnalysis,
  measures: RowMeasure[],
  distinctRefs: { column: string; noun: string }[],
  label: string,
  /** The header's label (a family's shared name, `orders` of `orders_2019`…). */
  headerLabel: string | undefined,
  /** Whether the fact is dated (a snapshot is one moment). */
  dated: boolean,
): Aggregate[] {
  const noun = tableNoun(label);
  return numberedApart([
    aggregate(
      field(`${singularWords(label).join('_')}_count`, 'BIGINT', 'COUNT(*)', pluralNoun(noun)),
      'count',
      true,
      true,
    ),
    ...headerCounts(fact, headerLabel),
    ...measures.flatMap((m) => measureAggregates(m, noun, dated)),
    ...distinctRefs.map((ref) =>
      aggregate(
        distinctCount(`distinct_${identifier(ref.noun)}`, ref.column, `distinct ${pluralNoun(ref.noun)}`),
        'count',
        false,
        false,
      ),
    ),
  ]);
}

/** The headers a fact's rows belong to, counted: each header falls on one day, so daily counts add up. */
function headerCounts(fact: TableAnalysis, headerLabel: string | undefined): Aggregate[] {
  const out: Aggregate[] = [];
  // A flat table of lines carries its header's id inline (`Order ID` repeated on each line).
  const inline = !fact.header ? inlineHeaderId(fact) : undefined;
  if (inline) {
    const description = `${pluralNoun(inline.noun)} (distinct ${inline.column})`;
    const stem = identifier(inline.noun.replace(/ /g, '_'));
    out.push(aggregate(distinctCount(stem, inline.column, description), 'count', true, true));
  }
  if (fact.role === 'line' && fact.header && headerLabel) {
    const ref = fact.references.find((r) => r.references_table === fact.header);
    if (ref?.columns.length === 1) {
      const description = `${pluralNoun(tableNoun(headerLabel))} (distinct ${ref.columns[0]})`;
      const stem = identifier(singularWords(headerLabel).join('_'));
      out.push(aggregate(distinctCount(stem, ref.columns[0], description), 'count', true, true));
    }
  }
  return out;
}

/** The aggregates of one row measure, by its meaning. */
function measureAggregates(m: RowMeasure, noun: string, dated: boolean): Aggregate[] {
  const total = () => field(totalName(m.reading), m.type, `SUM(${m.name})`, totalLabel(m.label, noun));
  const average = () => field(`avg_${m.reading}`, 'DOUBLE', `AVG(${m.name})`, `average ${m.label}`);
  if (m.meaning === 'revenue') {
    const description = `${m.label} (${m.formula.replace(/^[^=]*= /, '')})`;
    return [aggregate(field('revenue', m.type, `SUM(${m.name})`, description), 'currency', true, true)];
  }
  if (m.meaning === 'money') return [aggregate(total(), 'currency', true, true)];
  // A level is what something stands at: a dated fact averages it per day (never adds it up
  // over the day's rows); a snapshot, one moment, totals it, but no day adds to another.
  if (m.meaning === 'level')
    return [dated ? aggregate(average(), 'level', false, false) : aggregate(total(), 'level', false, true)];
  if (['quantity', 'duration', 'size', 'flow'].includes(m.meaning)) {
    const unit = m.meaning === 'flow' ? (m.signed ? 'number' : 'count') : m.meaning;
    const summed = aggregate(total(), unit, true, m.meaning === 'quantity');
    return m.meaning === 'duration' ? [summed, aggregate(average(), m.meaning, false, false)] : [summed];
  }
  if (m.meaning === 'unit_price') {
    // Money at the source's scale: the day's average price rounded to the price's decimals.
    const scale = /DECIMAL\(\d+,(\d+)\)/.exec(m.type)?.[1] ?? '2';
    const price = field(`avg_${m.reading}`, m.type, `ROUND(AVG(${m.name}), ${scale})`, `average ${m.label}`);
    return [aggregate(price, 'currency', false, false)];
  }
  return [aggregate(average(), 'ratio', false, false)];
}

/** Two columns may read alike (`qty` and `quantity`): the later aggregate is numbered. */
function numberedApart(aggs: Aggregate[]): Aggregate[] {
  const used = new Set<string>();
  return aggs.map((a) => {
    let name = a.field.name;
    for (let i = 2; used.has(name); i++) name = `${a.field.name}_${i}`;
    used.add(name);
    return name === a.field.name ? a : { ...a, field: { ...a.field, name } };
  });
}

/** How a fact's derived tables and metrics are named and described. */
interface FactNaming {
  /** What its tables are named after. */
  stem: string;
  /** What its metrics are prefixed with. */
  metricStem: string;
  /** What one of its rows is called. */
  noun: string;
  period: 'daily' | 'snapshot';
  dwdName: string;
}

/** A metric's name, prefixed by the fact's stem unless it starts with it already. */
const qualify = (stem: string, n: string) => identifier(n.startsWith(`${stem}_`) ? n : `${stem}_${n}`);

/** The design of one fact. `keys` are every declared and inferred foreign key. */
export function designFact(
  fact: TableAnalysis,
  byName: Map<string, TableAnalysis>,
  keys: JoinKey[],
  /** What the fact's tables are named after: its name, or a distinct stem when its name clashes. */
  nameStem: string = fact.table.name,
  /** What its rows are called (a family's shared name, `sales` of `sales_2019`…); the table's name by default. */
  label: string = fact.table.name,
  /** What another table's rows are called (its family's shared name, or its own name). */
  labelOf: (table: string) => string = (table) => table,
): FactDesign {
  const t = fact.table;
  const noun = tableNoun(label);
  const tree = joinTree(keys, t.name);

  // Event time: own date, the header's through the join path, or none (snapshot).
  const { eventTime, candidates, reading } = chooseEventTime(fact, byName, tree, label, labelOf);
  const measures = rowMeasures(fact, byName);
  const breakdowns = breakdownsOf(fact, tree, byName);
  const refTables = [fact, ...(fact.header && byName.get(fact.header) ? [byName.get(fact.header)!] : [])];
  const headerLabel = fact.header && labelOf(fact.header);

  const dwdName = identifier(`dwd_${nameStem}_detail`);
  const moneyChecks = textMoneyChecks(fact, dwdName);
  const fields = detailFields(fact, refTables, byName, {
    dateField: eventDateField(eventTime, reading),
    breakdowns,
    measures,
    moneyFields: moneyChecks.fields,
  });
  const dwd: PrdTable = {
    name: dwdName,
    description: `One row per ${noun}${fact.header ? `, dated by its ${tableNoun(labelOf(fact.header))}` : ''}, joined with its dimensions`,
    source_tables: [t.name, ...referencedTables(fields, tree).filter((x) => x !== t.name)],
    grain: `one ${noun}`,
    fields,
    // Only ADS is partitioned (by stat_date): a file a day in every layer would cost more than it saves.
    partition_by: [],
  };

  const distinctRefs = distinctReferences(fact, refTables, byName);
  const aggs = aggregates(fact, measures, distinctRefs, label, headerLabel, !!eventTime);
  const naming: FactNaming = {
    stem: nameStem,
    // A fact renamed for a clash names its metrics after the distinct stem too (metric names are unique).
    metricStem: nameStem === label ? singularWords(label).join('_') : nameStem,
    noun,
    period: eventTime ? 'daily' : 'snapshot',
    dwdName,
  };
  const daily = dailyTables(aggs, naming);
  const split = breakdownTables(breakdowns, aggs, naming);
  return {
    fact: {
      table: t.name,
      // The role is one of the fact kinds; a fact that found no date is reported as a snapshot.
      kind: eventTime ? (fact.role as PrdFact['kind']) : 'snapshot',
      event_time: eventTime,
      event_time_candidates: candidates,
      ads_table: daily.ads.name,
      measures: measures.map((m) => m.formula),
      evidence: fact.evidence,
    },
    dwd,
    dws: [daily.dws, ...split.dws],
    ads: [daily.ads, ...split.ads],
    metrics: [...daily.metrics, ...split.metrics],
    dashboards: [timeDashboard(t.name, eventTime, noun, daily.headline), ...split.dashboards],
    qualityRules: [...moneyChecks.rules, ...dayRules(eventTime, reading, dwdName)],
  };
}

/** Distinct counts: the people and things the fact (or its header) references, not lookups. */
function distinctReferences(
  fact: TableAnalysis,
  refTables: TableAnalysis[],
  byName: Map<string, TableAnalysis>,
): { table: string; column: string; noun: string }[] {
  return refTables
    .flatMap((a) =>
      a.references
        .filter((r) => r.columns.length === 1 && r.references_table !== fact.header)
        .filter((r) => ['dimension', 'other'].includes(byName.get(r.references_table)?.role ?? 'lookup'))
        .map((r) => ({ table: a.table.name, column: r.columns[0], noun: tableNoun(r.references_table) })),
    )
    .filter((r, i, all) => all.findIndex((x) => x.noun === r.noun) === i)
    .sort((a, b) => rank(a.noun) - rank(b.noun))
    .slice(0, 3);
}

/** The DWD's `event_date`: the chosen event time's day, or the build's for a snapshot. */
function eventDateField(eventTime: PrdFact['event_time'], reading: DayReading | undefined): PrdField {
  return eventTime
    ? field(
        'event_date',
        'DATE',
        eventDateSource(eventTime.table, eventTime.column, reading),
        eventTime.path.length
          ? `${eventTime.table}.${eventTime.column} via ${eventTime.path.join(', ')}`
          : `date of ${eventTime.column}`,
      )
    : field(
        'event_date',
        'DATE',
        'CURRENT_DATE',
        'snapshot date: the day the warehouse was built (the source records no time)',
      );
}

/**
 * A day read from text, a number or parts: a warning counts the rows it gives no day (unset, or
 * written otherwise), so a row the series leaves out is seen rather than silently lost.
 */
function dayRules(
  eventTime: PrdFact['event_time'],
  reading: DayReading | undefined,
  dwdName: string,
): PrdQualityRule[] {
  if (!eventTime || !reading || eventTime.path.length) return [];
  return [
    {
      name: `${eventTime.table}.${eventTime.column} gives every row a day`,
      layer: 'dwd',
      table: dwdName,
      column: 'event_date',
      kind: 'not_null',
      params: {},
      severity: 'warning',
    },
  ];
}

/** The DWD columns derived beside the fact's own. */
interface DetailParts {
  dateField: PrdField;
  breakdowns: Breakdown[];
  measures: RowMeasure[];
  /** The `<column>_unparsed` flags of money kept as text (text-money.ts). */
  moneyFields: PrdField[];
}

/** The DWD detail's fields: the fact's columns, its date, its header's keys, its dimensions' labels, and more. */
function detailFields(
  fact: TableAnalysis,
  refTables: TableAnalysis[],
  byName: Map<string, TableAnalysis>,
  parts: DetailParts,
): PrdField[] {
  const t = fact.table;
  // Two columns that make one identifier (`1a`, `t_1a`) are both copied, under names of their own.
  const copiedNames = distinctStems(
    t.columns.filter(isModeledColumn).map((c) => c.name),
    identifier,
    63,
  );
  // Money kept as text: the DWD column of its name is the parsed DECIMAL, the text stays beside it.
  const textMoney = new Set(textMoneyColumns(fact));
  return dedupe([
    ...t.columns
      .filter(isModeledColumn)
      .map((c) =>
        field(
          textMoney.has(c) ? rawName(c) : copiedNames.get(c.name)!,
          warehouseType(c),
          columnReference(t.name, c.name),
          c.comment ?? '',
        ),
      ),
    parts.dateField,
    ...headerKeyFields(refTables.slice(1)),
    ...dimensionLabelFields(fact, refTables, byName),
    ...parts.breakdowns.map((b) => field(b.name, 'VARCHAR', b.source, b.description)),
    ...parts.measures.map((m) => field(m.name, m.type, m.source, m.formula)),
    ...parts.moneyFields,
  ]);
}

/** The single-column keys the fact's header holds, copied onto its lines. */
function headerKeyFields(headers: TableAnalysis[]): PrdField[] {
  return headers.flatMap((h) =>
    h.references
      .filter((r) => r.columns.length === 1)
      .map((r) =>
        field(
          r.columns[0],
          warehouseType(h.table.columns.find((c) => c.name === r.columns[0])!),
          columnReference(h.table.name, r.columns[0]),
          `${h.table.name}'s ${r.columns[0]}`,
        ),
      ),
  );
}

/** The labels of each referenced dimension (customer.first_name, film.title via inventory). */
function dimensionLabelFields(
  fact: TableAnalysis,
  refTables: TableAnalysis[],
  byName: Map<string, TableAnalysis>,
): PrdField[] {
  return refTables.flatMap((a) =>
    a.references
      .filter((r) => byName.get(r.references_table)?.role !== 'line' && r.references_table !== fact.header)
      .flatMap((r) => {
        const target = byName.get(r.references_table);
        if (!target || FACT_ROLES.has(target.role)) return [];
        const direct = labelColumns(target.table).slice(0, 2);
        const hops = direct.length
          ? [{ table: target.table, labels: direct }]
          : target.references
              .map((next) => byName.get(next.references_table))
              .filter((next): next is TableAnalysis => !!next && !FACT_ROLES.has(next.role))
              .map((next) => ({ table: next.table, labels: labelColumns(next.table).slice(0, 1) }));
        return hops.flatMap(({ table, labels }) =>
          labels.map((label) =>
            field(
              `${singularWords(table.name).join('_')}_${label.name}`,
              warehouseType(label),
              columnReference(table.name, label.name),
              `via ${r.table}.${r.columns.join('+')}`,
            ),
          ),
        );
      }),
  );
}

/** The daily (or snapshot) DWS and ADS tables of a fact's aggregates, and a series metric of each. */
function dailyTables(
  aggs: Aggregate[],
  n: FactNaming,
): { dws: PrdTable; ads: PrdTable; metrics: PrdMetric[]; headline: string[] } {
  const dwsName = identifier(`dws_${n.stem}_${n.period}`);
  const adsName = identifier(`ads_${n.stem}_kpi_${n.period}`);
  const fields = [field('stat_date', 'DATE', 'event_date'), ...aggs.map((a) => a.field)];
  const period = n.period === 'daily' ? 'Daily' : 'Snapshot';
  const metrics = aggs.map(({ field: f, ...a }): PrdMetric => ({
    name: qualify(n.metricStem, f.name),
    description: `${capitalize(f.description || f.name)}${n.period === 'daily' ? ' per day' : ' (snapshot)'}`,
    sql: `SELECT stat_date, ${f.name} AS value FROM ${adsName} ORDER BY stat_date`,
    ads_table: adsName,
    unit: a.unit,
    kind: 'series',
    additive: a.additive,
  }));
  const headline = metrics.filter((_, i) => aggs[i].headline).slice(0, 4);
  return {
    dws: {
      name: dwsName,
      description: `${period} ${n.noun} aggregates`,
      source_tables: [n.dwdName],
      grain: 'one day',
      fields,
      partition_by: [],
    },
    ads: {
      name: adsName,
      description: `${period} ${n.noun} KPIs for dashboards`,
      source_tables: [dwsName],
      grain: 'one day',
      fields,
      partition_by: ['stat_date'],
    },
    metrics,
    // The fact's time-series dashboard shows its headline figures, else its first.
    headline: (headline.length ? headline : metrics.slice(0, 1)).map((m) => m.name),
  };
}

/**
 * Breakdowns: count and the main amount per attribute value and day. One table per fact holds every
 * breakdown at (day, attribute values) grain: additive measures roll up to any one attribute, and
 * one partitioned table costs a third of three.
 */
function breakdownTables(
  breakdowns: Breakdown[],
  aggs: Aggregate[],
  n: FactNaming,
): Pick<FactDesign, 'dws' | 'ads' | 'metrics' | 'dashboards'> {
  if (!breakdowns.length) return { dws: [], ads: [], metrics: [], dashboards: [] };
  const main =
    aggs.find((a) => a.unit === 'currency' && a.additive) ??
    aggs.find((a) => a.unit === 'quantity' && a.additive);
  const bAggs = [aggs[0], ...(main ? [main] : [])];
  const fields = [
    field('stat_date', 'DATE', 'event_date'),
    ...breakdowns.map((b) => field(b.name, 'VARCHAR', b.name, b.description)),
    ...bAggs.map((a) => a.field),
  ];
  const spoken = (b: Breakdown) => b.name.replace(/_/g, ' ');
  const attrs = breakdowns.map(spoken).join(', ');
  const dwsB = identifier(`dws_${n.stem}_breakdown_${n.period}`);
  const adsB = identifier(`ads_${n.stem}_breakdown_${n.period}`);
  const grain = `one day and combination of ${attrs}`;
  const metrics: PrdMetric[] = breakdowns.flatMap((b) =>
    bAggs.map((a) => ({
      name: qualify(n.metricStem, `${a.field.name}_by_${b.name}`),
      description: `${capitalize(a.field.description || a.field.name)} by ${spoken(b)}`,
      sql: `SELECT stat_date, ${b.name} AS dimension, SUM(${a.field.name}) AS value FROM ${adsB} GROUP BY stat_date, ${b.name} ORDER BY stat_date`,
      ads_table: adsB,
      unit: a.unit,
      kind: 'breakdown',
      additive: true,
      dimension: b.name,
    })),
  );
  const byMain = metrics.filter((m) => !main || m.name.includes(`_${main.field.name}_by_`));
  const nouns = capitalize(pluralNoun(n.noun));
  return {
    dws: [
      {
        name: dwsB,
        description: `${capitalize(n.noun)} by day and ${attrs}`,
        source_tables: [n.dwdName],
        grain,
        fields,
        partition_by: [],
      },
    ],
    ads: [
      {
        name: adsB,
        description: `${capitalize(n.noun)} by ${attrs} for top-N charts`,
        source_tables: [dwsB],
        grain,
        fields,
        partition_by: ['stat_date'],
      },
    ],
    metrics,
    dashboards: byMain.length
      ? [
          {
            title: `${nouns} by ${attrs}`,
            description: `Top values of ${breakdowns.map((b) => `${spoken(b)} (${b.description})`).join('; ')}`,
            metrics: byMain.map((m) => m.name),
            chart: 'bar',
          },
        ]
      : [],
  };
}

/** The fact's headline dashboard: its series over time, or its snapshot's figures. */
function timeDashboard(
  table: string,
  eventTime: PrdFact['event_time'],
  noun: string,
  metrics: string[],
): Prd['dashboards'][number] {
  const nouns = capitalize(pluralNoun(noun));
  return {
    title: eventTime ? `${nouns} over time` : `${nouns}: current snapshot`,
    description: eventTime
      ? `${nouns} by ${eventTime.table}.${eventTime.column}${eventTime.path.length ? ` (inherited through ${eventTime.path.join(', ')})` : ''}; charted by day, week or month, whichever the data fills`
      : `${nouns} as of the warehouse build: ${table} records no time`,
    metrics,
    chart: eventTime ? 'line' : 'stat',
  };
}

/**
 * The fact's event time and every candidate, best first: its own dates and, for a line, its
 * header's date through the join path (docs/offline-analyst.md#event-time-by-evidence).
 */
function chooseEventTime(
  fact: TableAnalysis,
  byName: Map<string, TableAnalysis>,
  tree: ReturnType<typeof joinTree>,
  label: string,
  labelOf: (table: string) => string,
): {
  eventTime: PrdFact['event_time'];
  candidates: PrdFact['event_time_candidates'];
  reading?: DayReading;
} {
  const paths = new Map<EventTimeCandidate, string[]>();
  // A date held by another table (a header's, a calendar's) is reached along the join tree.
  const reach = (candidate: EventTimeCandidate | undefined) => {
    const path = candidate ? pathTo(tree, candidate.table) : undefined;
    if (!candidate || !path) return undefined;
    paths.set(candidate, path.map(describeStep));
    return candidate;
  };
  // A table's date, covering only the rows whose references along the path to it are set.
  const offered = (table: string | undefined): EventTimeCandidate | undefined => {
    const holder = table ? byName.get(table) : undefined;
    const dateTable = holder?.ownDate?.candidate.table;
    const path = dateTable ? pathTo(tree, dateTable) : undefined;
    if (!holder || !path) return undefined;
    const steps = path.flatMap((s) => {
      const from = byName.get(s.from);
      return from ? [{ table: from.table, columns: s.columns }] : [];
    });
    return reach(inheritedThrough(holder.ownDate, steps));
  };
  // A calendar's date through the fact's key into it (docs/offline-analyst.md#calendar-dimensions).
  const own = ownCandidates(
    fact.table,
    fact.calendarDates.filter((c) => reach(c)),
  );
  const inherited = offered(fact.header);
  // The other dated facts it references (a payment's order), offered for a person to choose.
  const referenced = [...new Set(fact.references.map((r) => r.references_table))]
    .filter((t) => t !== fact.header && ['event', 'header'].includes(byName.get(t)?.role ?? ''))
    .map(offered)
    .filter((c): c is EventTimeCandidate => !!c);
  const ranked = rankCandidates([...own, ...(inherited ? [inherited] : []), ...referenced]);
  // A line is dated by its header (the role analysis found the header's date ranks first); any
  // other fact by its own best date.
  // A date set on no row (only placeholders) dates nothing: the fact is then reported as a snapshot.
  const chosen = fact.role === 'line' ? inherited : ranked.find((c) => !c.inherited && c.coverage !== 0);
  const listed = chosen ? [chosen, ...ranked.filter((c) => c !== chosen)] : ranked;
  const candidates = listed.map((c) => ({
    table: c.table,
    column: c.column,
    path: paths.get(c) ?? [],
    ...(c.coverage !== undefined ? { coverage: Math.round(c.coverage * 10_000) / 10_000 } : {}),
    ...(c.first ? { first: c.first, last: c.last } : {}),
    support: c.support,
    ...(c.reading ? { reads_as: c.reading } : {}),
    note: `${c.inherited ? `${c.table}'s date: ` : ''}${c.meaning}${c.weakness ? `; ${c.weakness}` : ''}`,
  }));
  if (!chosen) return { eventTime: null, candidates };
  const reading = chosen.reading;
  const others = ranked.filter((c) => c !== chosen);
  const evidence = chosen.inherited
    ? `each ${tableNoun(label)} takes its ${tableNoun(labelOf(chosen.table))}'s date: ${choiceEvidence(chosen, others)}`
    : choiceEvidence(chosen, others);
  return {
    eventTime: { table: chosen.table, column: chosen.column, path: paths.get(chosen) ?? [], evidence },
    candidates,
    ...(reading ? { reading } : {}),
  };
}

/**
 * The id of a header kept inline on a flat table's lines (`Order ID` on each line of an export): a
 * column named as an id or number that references nothing, is no key of the table, and repeats
 * over the rows read (line grain under header grain, by cardinality).
 */
function inlineHeaderId(fact: TableAnalysis): { column: string; noun: string } | undefined {
  const t = fact.table;
  const sampled = t.sampled;
  if (!sampled || sampled.rows < 30) return undefined;
  const referencing = new Set(fact.references.flatMap((r) => r.columns));
  const keys = new Set([...t.primary_key, ...(t.unique_columns ?? [])]);
  for (const c of t.columns) {
    const words = columnWords(t, c.name);
    const last = words[words.length - 1];
    if (words.length < 2 || !['id', 'number', 'key', 'code'].includes(last)) continue;
    if (referencing.has(c.name) || keys.has(c.name)) continue;
    const distinct = sampled.distinct[c.name];
    // Repeated (several lines a header), yet many (no category).
    if (distinct !== undefined && distinct < 0.9 * sampled.rows && distinct > sampled.rows / 10)
      return { column: c.name, noun: words.slice(0, -1).join(' ') };
  }
  return undefined;
}

const CUSTOMERS = ['customer', 'client', 'user', 'member', 'account', 'patient', 'student', 'guest'];
/** Customers first, then products, then the rest: the distinct counts people ask about. */
function rank(noun: string): number {
  const w = noun.split(' ');
  if (w.some((x) => CUSTOMERS.includes(x))) return 0;
  if (w.some((x) => ['product', 'track', 'film', 'item', 'sku'].includes(x))) return 1;
  return 2;
}

/** The source tables a table's field expressions name (`orders.order_date` → `orders`), in join order. */
function referencedTables(fields: PrdField[], tree: Map<string, unknown>): string[] {
  // Read by the PRD's own expression parser: a quoted name (`"Store List".store_id`) counts too.
  const named = new Set(
    fields.flatMap((f) => columnsNamedBy(f.source).flatMap((c) => (c.table ? [c.table] : []))),
  );
  return [...tree.keys()].filter((t) => named.has(t));
}

/** "total <measure>", unless the measure already says total: an invoice's `Total` reads "invoice total". */
const totalLabel = (label: string, noun: string) =>
  /^(total|sum)$/.test(label) ? `${noun} ${label}` : /^(total|sum) /.test(label) ? label : `total ${label}`;

/** `total_<measure>`, unless the measure already says total (`Total`, `total_due`). */
const totalName = (measure: string) => (/^(total|sum)(_|$)/.test(measure) ? measure : `total_${measure}`);

export const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
