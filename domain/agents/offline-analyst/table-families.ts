/**
 * Table families (docs/offline-analyst.md#table-families): one fact a source keeps in several tables
 * whose names differ by a year, month, quarter, number or region (`sales_2019`, `sales_2020`;
 * `orders_eu`, `orders_us`) and whose columns match. Recognised by structure and data together:
 * names alike but for those parts, the same columns with the same types and primary key, every
 * table with rows classed as the same kind of fact; each table's dates falling in the year or
 * month its name says is reported as further evidence. The DWD reads the family as one table (a
 * UNION ALL of the ODS copies, each row tagged with its part), so one series covers the history.
 */
import type { PrdTable } from '../../../shared/prd-schema';
import { columnReference } from '../../../shared/prd-sql/expression-sql';
import type { DateColumnStats, SourceTable } from '../../../shared/source-schema';
import { ownEventTime } from './event-time';
import type { FactDesign } from './fact-design';
import { identifier, nameTokens } from './name-words';
import type { TableAnalysis } from './table-roles';
import { warehouseType } from './warehouse-types';

/** What a varying part of the names is. */
type PartKind = 'year' | 'month' | 'quarter' | 'number' | 'region' | 'part';

export interface TableFamily {
  /** The name the tables share without their parts (`sales`), for naming the fact's tables. */
  name: string;
  /** The members, ordered by their parts (earliest year first); the first names the union. */
  members: TableAnalysis[];
  /** The columns the union adds, one per varying part (`source_year`). */
  partColumns: { name: string; kind: PartKind }[];
  /** Each member's value of each part column, in member order. */
  parts: string[][];
  /** The family read as one table: the first member's name and columns, every member's rows and dates. */
  merged: TableAnalysis;
  /** Why these tables are one fact. */
  evidence: string;
  /**
   * For a family of lines: the family of their headers, split the same way, which the lines' DWD
   * joins as one within each part (`order_lines_2019` meets `orders_2019` only).
   */
  headers?: HeaderJoin;
}

/** How a family of lines reaches the family of its headers. */
export interface HeaderJoin {
  family: TableFamily;
  /** The lines' key columns and the headers' columns they reference, the same in every member. */
  columns: string[];
  references_columns: string[];
  /** Which line table references which header table, and why the join also matches the parts. */
  evidence: string;
}

/** Roles a family may have: facts read on their own, and headers and lines families of the same parts. */
const FAMILY_ROLES = new Set(['event', 'snapshot', 'header', 'line']);
/** Roles whose families are kept only in pairs: a header family and the family of its lines. */
const PAIRED_ROLES = new Set(['header', 'line']);
const MONTHS = [
  ['jan', 'january'],
  ['feb', 'february'],
  ['mar', 'march'],
  ['apr', 'april'],
  ['may'],
  ['jun', 'june'],
  ['jul', 'july'],
  ['aug', 'august'],
  ['sep', 'sept', 'september'],
  ['oct', 'october'],
  ['nov', 'november'],
  ['dec', 'december'],
];
const monthOf = (token: string) => MONTHS.findIndex((names) => names.includes(token));
/** Words that name a region, for naming the part column (any other word is a plain `part`). */
const REGIONS = new Set(
  (
    'north south east west northeast northwest southeast southwest central eu us uk usa na emea apac latam ' +
    'asia europe america americas africa oceania nordic dach benelux intl international domestic global'
  ).split(' '),
);

/** A region word, or a two-letter country code (`de`, `fr`). */
const isRegion = (t: string) => REGIONS.has(t) || /^[a-z]{2}$/.test(t);

/** A name's tokens, trailing digits split from a word (`sales2019` → `sales`, `2019`). */
function tokensOf(name: string): string[] {
  return nameTokens(name).flatMap((t) => {
    const m = /^([a-z]{3,}?)(\d+)$/.exec(t);
    return m ? [m[1], m[2]] : [t];
  });
}

const isYear = (t: string) => /^(19|20)\d\d$/.test(t);
/** A token that numbers or dates a part (a year, `201901`, a month, `q3`, `07`), never a word of the fact. */
const partLike = (t: string) => /^\d+$/.test(t) || monthOf(t) >= 0 || /^q[1-4]$/.test(t);

function kindOf(values: string[]): PartKind {
  if (values.every(isYear)) return 'year';
  if (values.every((v) => /^(19|20)\d\d(0[1-9]|1[0-2])$/.test(v) || monthOf(v) >= 0)) return 'month';
  if (values.every((v) => /^q[1-4]$/.test(v))) return 'quarter';
  if (values.every((v) => /^\d+$/.test(v))) return 'number';
  return values.every(isRegion) ? 'region' : 'part';
}

/** Columns, types and key a family's tables share exactly (decimal precision aside). */
function signature(table: SourceTable): string {
  const columns = table.columns
    .map((c) => `${c.name.toLowerCase()}:${warehouseType(c).replace(/\(.*\)$/, '')}`)
    .sort();
  return `${columns.join(',')}|${table.primary_key.map((k) => k.toLowerCase()).join(',')}`;
}

/**
 * Every family of the analysed tables: two or more tables, at least one a fact; a family of
 * headers and the family of its lines only together (docs/offline-analyst.md#table-families).
 */
export function tableFamilies(analyses: TableAnalysis[]): TableFamily[] {
  const counted = analyses.some((a) => a.table.row_count > 0);
  // A table with rows must be a fact of a family's kind; an empty one (no rows yet) may join its family.
  const eligible = analyses.filter(
    (a) => FAMILY_ROLES.has(a.role) || (counted && a.table.row_count === 0 && a.role === 'other'),
  );
  const groups = new Map<string, TableAnalysis[]>();
  for (const a of eligible) {
    const key = `${tokensOf(a.table.name).length}#${signature(a.table)}`;
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  const families: TableFamily[] = [];
  const taken = new Set<string>();
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    // The whole group first (sales_2019_east … sales_2021_west), then the tables whose numbered or
    // dated parts leave the same words (sales_2019 with sales_2020, returns_2019 with returns_2020).
    const byMask = new Map<string, TableAnalysis[]>();
    for (const a of group) {
      const mask = tokensOf(a.table.name)
        .map((t) => (partLike(t) ? '#' : t))
        .join('_');
      byMask.set(mask, [...(byMask.get(mask) ?? []), a]);
    }
    // Tables of one kind of fact only (with the empty ones): headers of one year beside events of
    // the others leave the events a family of their own.
    const byRole = (tables: TableAnalysis[]) => {
      const roles = new Set(tables.filter((a) => FAMILY_ROLES.has(a.role)).map((a) => a.role));
      return roles.size <= 1
        ? [tables]
        : [...roles].map((r) => tables.filter((a) => a.role === r || !FAMILY_ROLES.has(a.role)));
    };
    for (const tried of [group, ...byMask.values()].flatMap(byRole)) {
      const members = tried.filter((m) => !taken.has(m.table.name));
      const family = members.length >= 2 ? familyOf(members) : undefined;
      if (!family) continue;
      for (const m of family.members) taken.add(m.table.name);
      families.push(family);
    }
  }
  return withHeaderPairs(families);
}

/** The role of a family's facts (`event`, `header`…). */
const roleOf = (f: TableFamily) => f.merged.role;

/**
 * Families of headers and of lines kept only in pairs: each line family with the header family of
 * the same parts whose members its members reference, part for part. A header or line family
 * without its partner is left apart, each table its own fact (a header stays tied to its lines).
 */
function withHeaderPairs(families: TableFamily[]): TableFamily[] {
  const headerFamilies = families.filter((f) => roleOf(f) === 'header');
  const paired = new Map<TableFamily, TableFamily>();
  for (const lines of families.filter((f) => roleOf(f) === 'line')) {
    const free = headerFamilies.filter((h) => ![...paired.values()].some((p) => p.headers?.family === h));
    for (const headers of free) {
      const join = headerJoin(lines, headers);
      if (!join) continue;
      paired.set(lines, {
        ...lines,
        merged: {
          ...lines.merged,
          header: headers.members[0].table.name,
          evidence: `${lines.merged.evidence}; ${join.evidence}`,
        },
        evidence: `${lines.evidence}; ${join.evidence}`,
        headers: join,
      });
      break;
    }
  }
  const joinedHeaders = new Set([...paired.values()].map((p) => p.headers!.family));
  return families.flatMap((f) => {
    if (!PAIRED_ROLES.has(roleOf(f))) return [f];
    if (roleOf(f) === 'header') return joinedHeaders.has(f) ? [f] : [];
    const pair = paired.get(f);
    return pair ? [pair] : [];
  });
}

/**
 * How a family of lines joins the family of its headers, or undefined when it does not: the same
 * part columns with the same values member for member, and each line table referencing (by a
 * declared key first, else by the header its role analysis found) the header table of its own
 * parts, through the same columns in every table.
 */
function headerJoin(lines: TableFamily, headers: TableFamily): HeaderJoin | undefined {
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (lines.members.length !== headers.members.length) return undefined;
  if (
    !same(
      lines.partColumns.map((p) => p.kind),
      headers.partColumns.map((p) => p.kind),
    )
  )
    return undefined;
  if (!lines.parts.every((p, i) => same(p, headers.parts[i]))) return undefined;
  const headerNames = new Set(headers.members.map((m) => m.table.name));
  const keys = lines.members.map((line) => {
    const into = line.references.filter((r) => headerNames.has(r.references_table));
    return into.find((r) => r.origin === 'declared') ?? into.find((r) => r.references_table === line.header);
  });
  const lower = (names: string[]) => names.map((n) => n.toLowerCase());
  const [first] = keys;
  if (
    !first ||
    keys.some(
      (k, i) =>
        !k ||
        k.references_table !== headers.members[i].table.name ||
        !same(lower(k.columns), lower(first.columns)) ||
        !same(lower(k.references_columns), lower(first.references_columns)),
    )
  )
    return undefined;
  const kinds = lines.partColumns.map((p) => p.kind).join(' and ');
  const each = keys
    .map(
      (k) =>
        `${k!.table}.${k!.columns.join('+')} → ${k!.references_table}.${k!.references_columns.join('+')}`,
    )
    .join(', ');
  const origins = [...new Set(keys.map((k) => k!.origin))].join(' and ');
  const parts = lines.partColumns.map((p) => p.name).join(', ');
  const evidence =
    `each line table references the header table of its ${kinds} (${headers.members.map((m) => m.table.name).join(', ')}): ${each} (${origins}); ` +
    `the lines are joined to the headers read as one on ${first.columns.join(', ')} and ${parts}, since keys may repeat from one ${kinds} to the next`;
  return { family: headers, columns: first.columns, references_columns: first.references_columns, evidence };
}

function familyOf(tables: TableAnalysis[]): TableFamily | undefined {
  const facts = tables.filter((a) => FAMILY_ROLES.has(a.role));
  if (!facts.length || new Set(facts.map((a) => a.role)).size > 1) return undefined;
  const tokens = tables.map((a) => tokensOf(a.table.name));
  const width = tokens[0].length;
  const varying = [...Array(width).keys()].filter((i) => new Set(tokens.map((t) => t[i])).size > 1);
  const fixed = [...Array(width).keys()].filter((i) => !varying.includes(i));
  // At most two parts (a year and a region), and a word of the fact's own left when they are gone
  // (`orders_eu` and `returns_eu` are two facts, not one fact in two parts).
  const factWord = (t: string) => !partLike(t) && !isRegion(t);
  if (!varying.length || varying.length > 2 || !fixed.some((i) => factWord(tokens[0][i]))) return undefined;
  const partsOf = (t: string[]) => varying.map((i) => t[i]);
  if (new Set(tokens.map((t) => partsOf(t).join('\u0000'))).size !== tables.length) return undefined;

  const order = tables
    .map((a, i) => ({ a, parts: partsOf(tokens[i]) }))
    .sort((x, y) => {
      for (let i = 0; i < varying.length; i++) {
        const c = partOrder(x.parts[i]) - partOrder(y.parts[i]) || x.parts[i].localeCompare(y.parts[i]);
        if (c) return c;
      }
      return 0;
    });
  const members = order.map((o) => o.a);
  const parts = order.map((o) => o.parts);
  const kinds = varying.map((_, i) => kindOf(parts.map((p) => p[i])));
  // A part that is a word must name a region (`sales_east`, `orders_de`): tables differing by any
  // other word (`purchase_orders`, `sales_orders`) are different facts, however alike their columns.
  if (kinds.includes('part')) return undefined;
  const columnNames = new Set(members[0].table.columns.map((c) => c.name.toLowerCase()));
  const used = new Set<string>();
  const partColumns = kinds.map((kind) => {
    let name = `source_${kind}`;
    for (let n = 2; columnNames.has(name) || used.has(name); n++) name = `source_${kind}_${n}`;
    used.add(name);
    return { name, kind };
  });
  const name = fixed.map((i) => tokens[0][i]).join('_');
  const representative = members.find((m) => FAMILY_ROLES.has(m.role))!;
  const mergedTable = mergeTables(members.map((m) => m.table));
  const evidence = familyEvidence(members, parts, kinds, mergedTable);
  const merged: TableAnalysis = {
    ...representative,
    table: mergedTable,
    meaning: members[0].meaning,
    ownDate: ownEventTime(mergedTable),
    references: members[0].references.length ? members[0].references : representative.references,
    evidence: `${representative.evidence}; ${evidence}`,
  };
  return { name, members, partColumns, parts, merged, evidence };
}

/** Years and numbers in numeric order, months in calendar order, words after them. */
function partOrder(part: string): number {
  if (/^\d+$/.test(part)) return Number(part);
  const month = monthOf(part);
  if (month >= 0) return month;
  const quarter = /^q([1-4])$/.exec(part);
  return quarter ? Number(quarter[1]) : Number.MAX_SAFE_INTEGER;
}

/** The family as one table: the first member's name and columns, every member's rows, samples and dates. */
function mergeTables(tables: SourceTable[]): SourceTable {
  const [first] = tables;
  const stats: Record<string, DateColumnStats> = {};
  const profiled = tables.every((t) => t.date_stats);
  if (profiled)
    for (const column of Object.keys(first.date_stats ?? {})) {
      const each = tables.map(
        (t) =>
          Object.entries(t.date_stats ?? {}).find(([c]) => c.toLowerCase() === column.toLowerCase())?.[1],
      );
      if (each.some((s) => !s)) continue;
      const all = each as DateColumnStats[];
      const firsts = all.map((s) => s.first).filter((d): d is string => !!d);
      const lasts = all.map((s) => s.last).filter((d): d is string => !!d);
      stats[column] = {
        non_null: all.reduce((n, s) => n + s.non_null, 0),
        placeholder: all.reduce((n, s) => n + (s.placeholder ?? 0), 0),
        ...(firsts.length ? { first: firsts.sort()[0], last: lasts.sort().at(-1) } : {}),
        future: all.reduce((n, s) => n + s.future, 0),
      };
    }
  // Rows where each nullable column is set, over every table, when each table counted them.
  const counted = tables.every((t) => t.non_null);
  const nonNull = Object.fromEntries(
    Object.keys(first.non_null ?? {}).map((column) => [
      column,
      tables.reduce(
        (n, t) =>
          n +
          (Object.entries(t.non_null ?? {}).find(([c]) => c.toLowerCase() === column.toLowerCase())?.[1] ??
            0),
        0,
      ),
    ]),
  );
  return {
    ...first,
    ...(counted && first.non_null ? { non_null: nonNull } : {}),
    row_count: tables.reduce((n, t) => n + t.row_count, 0),
    sample_rows: tables.flatMap((t) => t.sample_rows.slice(0, 3)),
    ...(profiled ? { date_stats: stats } : {}),
  };
}

function familyEvidence(
  members: TableAnalysis[],
  parts: string[][],
  kinds: PartKind[],
  merged: SourceTable,
): string {
  const names = members.map((m) => m.table.name);
  const rows = members.map((m) => m.table.row_count);
  const said = `${names.join(', ')} are one fact: names alike but for the ${kinds.join(' and ')}, the same ${merged.columns.length} columns with the same types${merged.primary_key.length ? ` and key (${merged.primary_key.join(', ')})` : ''}, ${rows.join(' + ')} = ${rows.reduce((a, b) => a + b, 0)} rows`;
  // Data agreeing with the names: each table's event dates fall in the year (or month) it names.
  const date = ownEventTime(merged)?.column;
  const yearAt = kinds.findIndex((k) => k === 'year' || k === 'month');
  if (!date || yearAt < 0) return said;
  const agree = members.every((m, i) => {
    const s = Object.entries(m.table.date_stats ?? {}).find(
      ([c]) => c.toLowerCase() === date.toLowerCase(),
    )?.[1];
    const part = parts[i][yearAt];
    const prefix = /^\d{6}$/.test(part) ? `${part.slice(0, 4)}-${part.slice(4)}` : part;
    return (
      m.table.row_count === 0 || (!!s?.first && s.first.startsWith(prefix) && !!s.last?.startsWith(prefix))
    );
  });
  return agree ? `${said}; each table's ${date} falls in the ${kinds[yearAt]} its name says` : said;
}

/**
 * The design of a family's fact, made on its merged table, turned into a union: the DWD lists every
 * member, reads them as one and carries each row's parts; the fact says which tables it joined and why.
 */
export function unionDesign(design: FactDesign, family: TableFamily): FactDesign {
  const names = family.members.map((m) => m.table.name);
  const first = names[0];
  const partFields = family.partColumns.map((p, i) => ({
    name: p.name,
    type: 'VARCHAR',
    source: columnReference(first, p.name),
    description: `the ${p.kind} in the name of the table the row comes from (${names
      .slice(0, 3)
      .map((n, j) => `${n} → ${family.parts[j][i]}`)
      .join(', ')}${names.length > 3 ? ', …' : ''})`,
  }));
  const at = design.dwd.fields.findIndex((f) => f.name === 'event_date') + 1;
  const members = (f: TableFamily) => f.members.map((m, i) => ({ table: m.table.name, parts: f.parts[i] }));
  // Lines whose headers are a family too join the headers read as one, within each part.
  const headers = family.headers;
  const headerNames = headers?.family.members.map((m) => m.table.name) ?? [];
  const others = design.dwd.source_tables.filter((t) => t !== first);
  const dwd: PrdTable = {
    ...design.dwd,
    description: `${design.dwd.description}; ${names.length} tables read as one (${names.join(', ')})${
      headers ? `, joined with ${headerNames.join(', ')} read as one` : ''
    }`,
    source_tables: [
      first,
      ...names.slice(1),
      ...others,
      ...headerNames.filter((h) => !others.includes(h) && others.includes(headerNames[0])),
    ],
    fields: [...design.dwd.fields.slice(0, at), ...partFields, ...design.dwd.fields.slice(at)],
    union: {
      part_columns: family.partColumns.map((p) => p.name),
      members: members(family),
      evidence: family.evidence,
    },
  };
  // Joined only when the design reads the headers (their date, their references).
  if (headers && dwd.source_tables.includes(headerNames[0]))
    dwd.joined_unions = [
      {
        part_columns: headers.family.partColumns.map((p) => p.name),
        members: members(headers.family),
        evidence: `${headers.family.evidence}; ${headers.evidence}`,
      },
    ];
  // The dashboards date the family, not its first table: `sale_date of sales_2019 … sales_2021`
  // (a line's `order_date of orders_2019 … orders_2021`, its headers' family).
  const time = design.fact.event_time;
  const dating = time && headers && time.table === headerNames[0] ? headerNames : names;
  const span = `${dating[0]} … ${dating.at(-1)}`;
  const dashboards = design.dashboards.map((d) => ({
    ...d,
    description: time
      ? d.description.replace(`${dating[0]}.${time.column}`, `${time.column} of ${span}`)
      : d.description,
  }));
  return {
    ...design,
    dwd,
    dws: design.dws.map((t) => distinctHeadersPerPart(t, family)),
    ads: design.ads.map((t) => distinctHeadersPerPart(t, family)),
    dashboards,
  };
}

/**
 * Header ids may repeat from one part to the next: a day's distinct headers are counted by id
 * and part when a part is no period (orders 5 of `orders_eu` and of `orders_us` on one day are
 * two); a period's headers fall on days of their own, so the id alone counts them.
 */
function distinctHeadersPerPart(t: PrdTable, family: TableFamily): PrdTable {
  const headers = family.headers;
  const periods = new Set<PartKind>(['year', 'month', 'quarter']);
  if (!headers || family.partColumns.every((p) => periods.has(p.kind)) || headers.columns.length !== 1)
    return t;
  const key = identifier(headers.columns[0]);
  const counted = `COUNT(DISTINCT ${key})`;
  const tagged = `COUNT(DISTINCT ${[`CAST(${key} AS VARCHAR)`, ...family.partColumns.map((p) => p.name)].join(" || '/' || ")})`;
  return {
    ...t,
    fields: t.fields.map((f) => (f.source === counted ? { ...f, source: tagged } : f)),
  };
}
