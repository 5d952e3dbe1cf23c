/**
 * The warehouse design of one fact: its event time (own, inherited from the header, or none), the
 * DWD detail joined with its header and dimensions, daily DWS/ADS aggregates (or a snapshot when
 * the fact has no time), breakdowns by its main attributes, the metrics and the dashboards.
 */
import type { Prd, PrdFact, PrdField, PrdMetric, PrdQualityRule, PrdTable } from '../../../shared/prd-schema';
import { describeStep, joinTree, pathTo, type JoinKey } from '../../../shared/join-tree';
import { breakdownsOf } from './breakdowns';
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
  const out: Aggregate[] = [
    {
      field: field(`${singularWords(label).join('_')}_count`, 'BIGINT', 'COUNT(*)', pluralNoun(noun)),
      unit: 'count',
      additive: true,
      headline: true,
    },
  ];
  // A flat table of lines carries its header's id inline (`Order ID` repeated on each line): the
  // headers are counted by it, one day each, so daily counts add up.
  const inline = !fact.header ? inlineHeaderId(fact) : undefined;
  if (inline)
    out.push({
      field: field(
        `${identifier(inline.noun.replace(/ /g, '_'))}_count`,
        'BIGINT',
        `COUNT(DISTINCT ${fieldIdentifier(inline.column)})`,
        `${pluralNoun(inline.noun)} (distinct ${inline.column})`,
      ),
      unit: 'count',
      additive: true,
      headline: true,
    });
  if (fact.role === 'line' && fact.header && headerLabel) {
    const headerNoun = tableNoun(headerLabel);
    const ref = fact.references.find((r) => r.references_table === fact.header);
    if (ref?.columns.length === 1)
      out.push({
        // Each header falls on one day (the lines take its date), so daily counts add up.
        field: field(
          `${identifier(singularWords(headerLabel).join('_'))}_count`,
          'BIGINT',
          `COUNT(DISTINCT ${fieldIdentifier(ref.columns[0])})`,
          `${pluralNoun(headerNoun)} (distinct ${ref.columns[0]})`,
        ),
        unit: 'count',
        additive: true,
        headline: true,
      });
  }
  for (const m of measures) {
    if (m.meaning === 'revenue')
      out.push({
        field: field(
          'revenue',
          m.type,
          `SUM(${m.name})`,
          `${m.label} (${m.formula.replace(/^[^=]*= /, '')})`,
        ),
        unit: 'currency',
        additive: true,
        headline: true,
      });
    else if (m.meaning === 'money')
      out.push({
        field: field(totalName(m.reading), m.type, `SUM(${m.name})`, totalLabel(m.label, noun)),
        unit: 'currency',
        additive: true,
        headline: true,
      });
    else if (m.meaning === 'level')
      // A level is what something stands at: a dated fact averages it per day (never adds it up
      // over the day's rows); a snapshot, one moment, totals it, but no day adds to another.
      out.push(
        dated
          ? {
              field: field(`avg_${m.reading}`, 'DOUBLE', `AVG(${m.name})`, `average ${m.label}`),
              unit: 'level',
              additive: false,
              headline: false,
            }
          : {
              field: field(totalName(m.reading), m.type, `SUM(${m.name})`, totalLabel(m.label, noun)),
              unit: 'level',
              additive: false,
              headline: true,
            },
      );
    else if (['quantity', 'duration', 'size', 'flow'].includes(m.meaning)) {
      out.push({
        field: field(totalName(m.reading), m.type, `SUM(${m.name})`, totalLabel(m.label, noun)),
        unit: m.meaning === 'flow' ? (m.signed ? 'number' : 'count') : m.meaning,
        additive: true,
        headline: m.meaning === 'quantity',
      });
      if (m.meaning === 'duration')
        out.push({
          field: field(`avg_${m.reading}`, 'DOUBLE', `AVG(${m.name})`, `average ${m.label}`),
          unit: m.meaning,
          additive: false,
          headline: false,
        });
    } else if (m.meaning === 'unit_price') {
      // Money at the source's scale: the day's average price rounded to the price's decimals.
      const scale = /DECIMAL\(\d+,(\d+)\)/.exec(m.type)?.[1] ?? '2';
      out.push({
        field: field(`avg_${m.reading}`, m.type, `ROUND(AVG(${m.name}), ${scale})`, `average ${m.label}`),
        unit: 'currency',
        additive: false,
        headline: false,
      });
    } else
      out.push({
        field: field(`avg_${m.reading}`, 'DOUBLE', `AVG(${m.name})`, `average ${m.label}`),
        unit: 'ratio',
        additive: false,
        headline: false,
      });
  }
  for (const ref of distinctRefs)
    out.push({
      field: field(
        `distinct_${identifier(ref.noun)}_count`,
        'BIGINT',
        `COUNT(DISTINCT ${fieldIdentifier(ref.column)})`,
        `distinct ${pluralNoun(ref.noun)}`,
      ),
      unit: 'count',
      additive: false,
      headline: false,
    });
  // Two columns may read alike (`qty` and `quantity`): the later aggregate is numbered.
  const used = new Set<string>();
  return out.map((a) => {
    let name = a.field.name;
    for (let i = 2; used.has(name); i++) name = `${a.field.name}_${i}`;
    used.add(name);
    return name === a.field.name ? a : { ...a, field: { ...a.field, name } };
  });
}

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
  // The role is one of the fact kinds; a fact that found no date is reported as a snapshot.
  const kind: PrdFact['kind'] = eventTime ? (fact.role as PrdFact['kind']) : 'snapshot';

  const measures = rowMeasures(fact, byName);
  const breakdowns = breakdownsOf(fact, tree, byName);

  // Distinct counts: the people and things the fact (or its header) references, not lookups.
  const refTables = [fact, ...(fact.header && byName.get(fact.header) ? [byName.get(fact.header)!] : [])];
  const distinctRefs = refTables
    .flatMap((a) =>
      a.references
        .filter((r) => r.columns.length === 1 && r.references_table !== fact.header)
        .filter((r) => ['dimension', 'other'].includes(byName.get(r.references_table)?.role ?? 'lookup'))
        .map((r) => ({ table: a.table.name, column: r.columns[0], noun: tableNoun(r.references_table) })),
    )
    .filter((r, i, all) => all.findIndex((x) => x.noun === r.noun) === i)
    .sort((a, b) => rank(a.noun) - rank(b.noun))
    .slice(0, 3);

  const dateField = eventTime
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

  const dwdName = identifier(`dwd_${nameStem}_detail`);
  // A day read from text, a number or parts: a warning counts the rows it gives no day (unset, or
  // written otherwise), so a row the series leaves out is seen rather than silently lost.
  const dayRule: PrdQualityRule | undefined =
    eventTime && reading && !eventTime.path.length
      ? {
          name: `${eventTime.table}.${eventTime.column} gives every row a day`,
          layer: 'dwd',
          table: dwdName,
          column: 'event_date',
          kind: 'not_null',
          params: {},
          severity: 'warning',
        }
      : undefined;
  // Two columns that make one identifier (`1a`, `t_1a`) are both copied, under names of their own.
  const copiedNames = distinctStems(
    t.columns.filter(isModeledColumn).map((c) => c.name),
    identifier,
    63,
  );
  // Money kept as text: the DWD column of its name is the parsed DECIMAL, the text stays beside it.
  const textMoney = new Set(textMoneyColumns(fact));
  const moneyChecks = textMoneyChecks(fact, dwdName);
  const headerRefs = refTables
    .slice(1)
    .flatMap((h) =>
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
  // The labels of each referenced dimension (customer.first_name, film.title via inventory).
  const dimensionLabels = refTables.flatMap((a) =>
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
  const dwd: PrdTable = {
    name: dwdName,
    description: `One row per ${noun}${fact.header ? `, dated by its ${tableNoun(labelOf(fact.header))}` : ''}, joined with its dimensions`,
    source_tables: [],
    grain: `one ${noun}`,
    fields: dedupe([
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
      dateField,
      ...headerRefs,
      ...dimensionLabels,
      ...breakdowns.map((b) => field(b.name, 'VARCHAR', b.source, b.description)),
      ...measures.map((m) => field(m.name, m.type, m.source, m.formula)),
      ...moneyChecks.fields,
    ]),
    // Only ADS is partitioned (by stat_date): a file a day in every layer would cost more than it saves.
    partition_by: [],
  };
  dwd.source_tables = [t.name, ...referencedTables(dwd.fields, tree).filter((x) => x !== t.name)];

  const aggs = aggregates(
    fact,
    measures,
    distinctRefs,
    label,
    fact.header && labelOf(fact.header),
    !!eventTime,
  );
  const period = eventTime ? 'daily' : 'snapshot';
  const dwsName = identifier(`dws_${nameStem}_${period}`);
  const adsName = identifier(`ads_${nameStem}_kpi_${period}`);
  const dailyFields = [field('stat_date', 'DATE', 'event_date'), ...aggs.map((a) => a.field)];
  const dws: PrdTable[] = [
    {
      name: dwsName,
      description: `${eventTime ? 'Daily' : 'Snapshot'} ${noun} aggregates`,
      source_tables: [dwdName],
      grain: 'one day',
      fields: dailyFields,
      partition_by: [],
    },
  ];
  const ads: PrdTable[] = [
    {
      name: adsName,
      description: `${eventTime ? 'Daily' : 'Snapshot'} ${noun} KPIs for dashboards`,
      source_tables: [dwsName],
      grain: 'one day',
      fields: dailyFields,
      partition_by: ['stat_date'],
    },
  ];
  // A fact renamed for a clash names its metrics after the distinct stem too (metric names are unique).
  const stem = nameStem === label ? singularWords(label).join('_') : nameStem;
  const qualify = (n: string) => identifier(n.startsWith(`${stem}_`) ? n : `${stem}_${n}`);
  const metric = (f: PrdField, a: Aggregate, table: string, extra: Partial<PrdMetric> = {}): PrdMetric => ({
    name: qualify(f.name),
    description: `${capitalize(f.description || f.name)}${eventTime ? ' per day' : ' (snapshot)'}`,
    sql: `SELECT stat_date, ${f.name} AS value FROM ${table} ORDER BY stat_date`,
    ads_table: table,
    unit: a.unit,
    kind: 'series',
    additive: a.additive,
    ...extra,
  });
  const metrics = aggs.map((a) => metric(a.field, a, adsName));

  // Breakdowns: count and the main amount per attribute value and day.
  const main =
    aggs.find((a) => a.unit === 'currency' && a.additive) ??
    aggs.find((a) => a.unit === 'quantity' && a.additive);
  // One table per fact holds every breakdown at (day, attribute values) grain: additive measures
  // roll up to any one attribute, and one partitioned table costs a third of three.
  const breakdownMetrics: PrdMetric[] = [];
  if (breakdowns.length) {
    const bAggs = [aggs[0], ...(main ? [main] : [])];
    const fields = [
      field('stat_date', 'DATE', 'event_date'),
      ...breakdowns.map((b) => field(b.name, 'VARCHAR', b.name, b.description)),
      ...bAggs.map((a) => a.field),
    ];
    const attrs = breakdowns.map((b) => b.name.replace(/_/g, ' ')).join(', ');
    const dwsB = identifier(`dws_${nameStem}_breakdown_${period}`);
    const adsB = identifier(`ads_${nameStem}_breakdown_${period}`);
    dws.push({
      name: dwsB,
      description: `${capitalize(noun)} by day and ${attrs}`,
      source_tables: [dwdName],
      grain: `one day and combination of ${attrs}`,
      fields,
      partition_by: [],
    });
    ads.push({
      name: adsB,
      description: `${capitalize(noun)} by ${attrs} for top-N charts`,
      source_tables: [dwsB],
      grain: `one day and combination of ${attrs}`,
      fields,
      partition_by: ['stat_date'],
    });
    for (const b of breakdowns)
      for (const a of bAggs)
        breakdownMetrics.push({
          name: qualify(`${a.field.name}_by_${b.name}`),
          description: `${capitalize(a.field.description || a.field.name)} by ${b.name.replace(/_/g, ' ')}`,
          sql: `SELECT stat_date, ${b.name} AS dimension, SUM(${a.field.name}) AS value FROM ${adsB} GROUP BY stat_date, ${b.name} ORDER BY stat_date`,
          ads_table: adsB,
          unit: a.unit,
          kind: 'breakdown',
          additive: true,
          dimension: b.name,
        });
  }

  const headline = metrics.filter((_, i) => aggs[i].headline).slice(0, 4);
  const dashboards: Prd['dashboards'] = [
    {
      title: eventTime
        ? `${capitalize(pluralNoun(noun))} over time`
        : `${capitalize(pluralNoun(noun))}: current snapshot`,
      description: eventTime
        ? `${capitalize(pluralNoun(noun))} by ${eventTime.table}.${eventTime.column}${eventTime.path.length ? ` (inherited through ${eventTime.path.join(', ')})` : ''}; charted by day, week or month, whichever the data fills`
        : `${capitalize(pluralNoun(noun))} as of the warehouse build: ${t.name} records no time`,
      metrics: (headline.length ? headline : metrics.slice(0, 1)).map((m) => m.name),
      chart: eventTime ? 'line' : 'stat',
    },
  ];
  const byMain = breakdownMetrics.filter((m) => !main || m.name.includes(`_${main.field.name}_by_`));
  if (byMain.length)
    dashboards.push({
      title: `${capitalize(pluralNoun(noun))} by ${breakdowns.map((b) => b.name.replace(/_/g, ' ')).join(', ')}`,
      description: `Top values of ${breakdowns.map((b) => `${b.name.replace(/_/g, ' ')} (${b.description})`).join('; ')}`,
      metrics: byMain.map((m) => m.name),
      chart: 'bar',
    });

  const factEntry: PrdFact = {
    table: t.name,
    kind,
    event_time: eventTime,
    event_time_candidates: candidates,
    ads_table: adsName,
    measures: measures.map((m) => m.formula),
    evidence: fact.evidence,
  };
  return {
    fact: factEntry,
    dwd,
    dws,
    ads,
    metrics: [...metrics, ...breakdownMetrics],
    dashboards,
    qualityRules: [...moneyChecks.rules, ...(dayRule ? [dayRule] : [])],
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
