/**
 * Builds the warehouse of one source database the way a project does (explore → offline PRD →
 * ODS → DWD/DWS/ADS → metric checks) and holds the result against the database's ground truth,
 * computed with SQL on the source: event dates covered, revenue to the cent, no key aggregated.
 */
import type { SourceConnector } from '../../../domain/sources/mysql-connection';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection, RowDataPacket } from 'mysql2/promise';
import { buildOfflinePrd } from '../../../domain/agents/offline-analyst/prd-builder';
import { prdProblems } from '../../../domain/agents/prd-checks';
import { exploreSource } from '../../../domain/sources/source-explorer';
import { evaluateQualityRules } from '../../../domain/governance/quality-checks';
import { buildDataProfile } from '../../../domain/advisor/data-profile';
import { generatePipelineTemplates } from '../../../domain/pipeline/pipeline-templates';
import { DuckDbWarehouse } from '../../../domain/warehouse/duckdb-warehouse';
import type { ProjectQuery } from '../../../domain/warehouse/warehouse-engine';
import { validateMetrics, type MetricValidationReport } from '../../../domain/warehouse/metric-validation';
import { layerSelects, MODELED_LAYERS } from '../../../domain/warehouse/model-sql';
import { ingestOds, readSourceSchema } from '../../../domain/warehouse/ods-ingestion';
import type { Prd } from '../../../shared/prd-schema';
import type { SourceSnapshot } from '../../../shared/source-schema';
import type { SchemaTruth } from '../../../scripts/demo-data/generated-database';

export interface BuiltProject {
  prd: Prd;
  snapshot: SourceSnapshot;
  engine: DuckDbWarehouse;
  projectId: string;
  metrics: MetricValidationReport;
  /** The warehouse root the project was built under. */
  root: string;
}

/** Explores `database` over `mysql` and builds its warehouse under `root`, copying ODS through `source`. */
export async function buildProject(
  mysql: Connection,
  source: SourceConnector,
  database: string,
  description: string,
  root: string,
  projectId: string,
  /** A person's edit of the PRD before it is built (default: none). */
  edit: (prd: Prd) => Prd = (prd) => prd,
): Promise<BuiltProject> {
  const snapshot = await exploreSource(mysql, database);
  const prd = edit(buildOfflinePrd(snapshot, description));
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, `${database}-prd.json`), JSON.stringify(prd, null, 1));
  await ingestOds({ projectId, warehouseRoot: root, source, snapshot, prd, done: [], onTable: () => {} });
  const engine = new DuckDbWarehouse(root);
  const sourceSchema = readSourceSchema(root, projectId);
  for (const layer of MODELED_LAYERS)
    await engine.buildLayer(projectId, layer, layerSelects(prd, layer, projectId, sourceSchema));
  return { prd, snapshot, engine, projectId, root, metrics: await validateMetrics(engine, projectId, prd) };
}

const sourceRow = async (mysql: Connection, sql: string) =>
  (await mysql.query<RowDataPacket[]>(sql))[0][0] as Record<string, unknown>;
const dateText = (v: unknown) =>
  v instanceof Date ? v.toISOString().slice(0, 10) : v === null ? null : String(v).slice(0, 10);
/** Money to the cent, as text, whatever type the driver or DuckDB returns. */
const cents = (v: unknown) =>
  v === null || v === undefined ? null : (Math.round(Number(v) * 100) / 100).toFixed(2);

/** One check of a built project against its truth: what was checked, and what was wrong if it failed. */
export interface Check {
  /** `event dates: orders`, `revenue: order_lines`, `role: customers`… (the kind before the colon). */
  name: string;
  ok: boolean;
  /** What was wrong; empty when the check passed. */
  problem: string;
}

/** Every difference between the built project and the truth; empty when it reconciles. */
export async function reconcile(
  built: BuiltProject,
  truth: SchemaTruth,
  mysql: Connection,
): Promise<string[]> {
  return (await reconcileChecks(built, truth, mysql)).filter((c) => !c.ok).map((c) => c.problem);
}

/**
 * The built project held against its truth, check by check: per fact its place among the facts,
 * its event time, the days its series covers and its revenue to the cent; no key summed, no level
 * added up over days; the roles, the industry, the breakdowns; every metric valid.
 */
export async function reconcileChecks(
  built: BuiltProject,
  truth: SchemaTruth,
  mysql: Connection,
): Promise<Check[]> {
  // One sandboxed session for all the checks' queries: opening one per query cost seconds a project.
  return built.engine.withQuerySession(built.projectId, (query) => reconcileIn(built, truth, mysql, query));
}

async function reconcileIn(
  built: BuiltProject,
  truth: SchemaTruth,
  mysql: Connection,
  query: ProjectQuery,
): Promise<Check[]> {
  const { prd, engine, projectId } = built;
  const checks: Check[] = [];
  const check = (name: string, problems: string[]) =>
    checks.push({ name, ok: problems.length === 0, problem: problems.join('; ') });
  check(
    'PRD checks',
    prdProblems(prd, built.snapshot).map((p) => `checks: ${p}`),
  );
  const ads = async (sql: string) => (await query(sql, 10, 'ads')).rows[0] ?? {};
  const lower = (s: string | null | undefined) => (s ?? '').toLowerCase();
  const anyOf = (v: string | string[] | null) => (v === null ? [] : Array.isArray(v) ? v : [v]);

  for (const fact of truth.facts) {
    const entry = prd.facts.find((f) => lower(f.table) === lower(fact.table));
    if (!entry) {
      // A fact the PRD misses fails every check of it: no series, no revenue, no breakdown.
      const missing = [`${fact.table}: not a fact in the PRD (facts: ${prd.fact_tables.join(', ')})`];
      check(`fact: ${fact.table}`, missing);
      check(`event time: ${fact.table}`, missing);
      if (fact.event_date_sql) check(`event dates: ${fact.table}`, missing);
      if (fact.revenue_sql) check(`revenue: ${fact.table}`, missing);
      if (fact.breakdown_columns) check(`breakdown: ${fact.table}`, missing);
      continue;
    }
    const problems: string[] = [];
    if (fact.union) {
      // The PRD names the union: the fact's DWD reads every table of the family, and says why.
      const dwd = prd.layers.dwd.find((t) => lower(t.source_tables[0]) === lower(fact.table) && t.union);
      const members = dwd?.union?.members.map((m) => lower(m.table)) ?? [];
      if (members.join(',') !== fact.union.map(lower).join(','))
        problems.push(
          `${fact.table}: the DWD reads ${members.join(' + ') || 'no union'}; the fact is kept in ${fact.union.join(' + ')}`,
        );
      else if (!dwd?.union?.evidence)
        problems.push(`${fact.table}: the union of ${dwd!.name} gives no evidence`);
      // A line whose headers are a family too joins them as one (matched within each part).
      const joined = (dwd?.joined_unions ?? []).map((u) => u.members.map((m) => lower(m.table)).join(','));
      const want = fact.joined_union?.map(lower).join(',');
      if (want && !joined.includes(want))
        problems.push(
          `${fact.table}: the DWD joins ${joined.map((j) => j.replace(/,/g, ' + ')).join('; ') || 'no union'}; its headers are kept in ${fact.joined_union!.join(' + ')}`,
        );
      if (!want && joined.length)
        problems.push(`${fact.table}: the DWD joins ${joined.join('; ')}, which the truth does not`);
    }
    check(`fact: ${fact.table}`, problems);
    const named = entry.event_time ? `${entry.event_time.table}.${entry.event_time.column}` : null;
    const accepted = anyOf(fact.event_time_column).map(lower);
    const timeProblems: string[] = [];
    if (accepted.length ? !accepted.includes(lower(named)) : named !== null)
      timeProblems.push(
        `${fact.table}: event time ${named ?? 'none'}, expected ${anyOf(fact.event_time_column).join(' or ') || 'none'}`,
      );
    // The chosen date is set on the rows it dates (the PRD lists its figures first).
    const chosen = entry.event_time_candidates[0];
    if (entry.event_time && chosen && (chosen.coverage ?? 1) < 0.95)
      timeProblems.push(
        `${fact.table}: event time ${named} is set on ${Math.round(100 * (chosen.coverage ?? 0))}% of rows`,
      );
    // What the PRD says the chosen date covers is what it dates in DWD: a date inherited through a
    // reference covers only the rows where that reference is set.
    const dwd = prd.layers.dwd.find(
      (t) => lower(t.source_tables[0]) === lower(fact.table) && t.fields.some((f) => f.name === 'event_date'),
    );
    if (entry.event_time && chosen?.coverage !== undefined && dwd) {
      const counted = (
        await query(`SELECT COUNT(event_date) AS dated, COUNT(*) AS n FROM ${dwd.name}`, 10, 'dwd')
      ).rows[0];
      const share = Number(counted?.n) ? Number(counted?.dated) / Number(counted?.n) : 1;
      if (Math.abs(share - chosen.coverage) > 0.02)
        timeProblems.push(
          `${fact.table}: the PRD says ${named} dates ${Math.round(100 * chosen.coverage)}% of rows; ${dwd.name} dates ${Math.round(100 * share)}%`,
        );
    }
    // One DWD row per source row: a line joined to headers of another part would count twice.
    if (fact.rows_sql && dwd) {
      const want = Number((await sourceRow(mysql, fact.rows_sql)).n);
      const got = (
        await query(`SELECT COUNT(*) AS n, COUNT(event_date) AS dated FROM ${dwd.name}`, 10, 'dwd')
      ).rows[0];
      if (Number(got?.n) !== want || Number(got?.dated) !== want)
        timeProblems.push(
          `${fact.table}: ${want} rows on the source; ${dwd.name} has ${Number(got?.n)}, ${Number(got?.dated)} of them dated`,
        );
    }
    check(`event time: ${fact.table}`, timeProblems);
    if (fact.event_date_sql) {
      const want = await sourceRow(
        mysql,
        `SELECT MIN(d) AS first_day, MAX(d) AS last_day, COUNT(DISTINCT d) AS days FROM (${fact.event_date_sql}) AS e WHERE d IS NOT NULL`,
      );
      const got = entry.ads_table
        ? await ads(
            `SELECT CAST(MIN(stat_date) AS VARCHAR) AS first_day, CAST(MAX(stat_date) AS VARCHAR) AS last_day, COUNT(DISTINCT stat_date) AS days FROM ${entry.ads_table} WHERE stat_date IS NOT NULL`,
          )
        : {};
      const w = `${dateText(want.first_day)} … ${dateText(want.last_day)}, ${Number(want.days)} days`;
      const g = `${dateText(got.first_day)} … ${dateText(got.last_day)}, ${Number(got.days)} days`;
      check(
        `event dates: ${fact.table}`,
        w === g
          ? []
          : [`${fact.table}: ADS ${entry.ads_table ?? '(none)'} covers ${g}; the source's events ${w}`],
      );
    }
    if (fact.revenue_sql) {
      const want = cents((await sourceRow(mysql, fact.revenue_sql)).revenue);
      const money = prd.metrics.filter(
        (m) => m.ads_table === entry.ads_table && m.unit === 'currency' && m.additive,
      );
      const columns = money
        .map((m) => /SELECT stat_date, (\w+) AS value/.exec(m.sql)?.[1])
        .filter(Boolean) as string[];
      const sums = entry.ads_table
        ? await Promise.all(
            columns.map(async (c) => ({
              c,
              v: cents((await ads(`SELECT SUM(${c}) AS v FROM ${entry.ads_table}`)).v),
            })),
          )
        : [];
      const column = fact.revenue_column ?? (entry.kind === 'line' ? 'revenue' : undefined);
      const matched = sums.find((s) => s.v === want && (!column || s.c === column));
      check(
        `revenue: ${fact.table}`,
        matched
          ? []
          : [
              `${fact.table}: revenue ${want} on the source; ADS ${entry.ads_table} has ${sums.map((s) => `${s.c} ${s.v}`).join(', ') || 'no money column'}`,
            ],
      );
    }
    // Stock moving is no sale: nothing prices it.
    if (fact.unpriced) {
      const money = prd.metrics.filter((m) => m.ads_table === entry.ads_table && m.unit === 'currency');
      check(
        `unpriced: ${fact.table}`,
        money.length ? [`${fact.table}: no sale, yet priced by ${money.map((m) => m.name).join(', ')}`] : [],
      );
    }
    // A flat table is broken down by its own low-cardinality columns (or what its keys reach).
    if (fact.breakdown_columns) {
      const wanted = new Set(fact.breakdown_columns.map(lower));
      const fields = dwd?.fields ?? [];
      const broken = prd.layers.ads
        .filter((t) => /_breakdown_/.test(t.name) && t.source_tables.some((s) => s.startsWith(`dws_`)))
        .flatMap((t) => t.fields.map((f) => f.name));
      const sources = fields
        .filter((f) => broken.includes(f.name))
        .map((f) => lower(f.source.replace(/"/g, '')));
      check(
        `breakdown: ${fact.table}`,
        sources.some((s) => wanted.has(s))
          ? []
          : [
              `${fact.table}: broken down by ${sources.join(', ') || 'nothing'}; expected one of ${fact.breakdown_columns.join(', ')}`,
            ],
      );
    }
  }

  // No DWS/ADS aggregate may sum or average a column the truth lists, however it is named downstream.
  const aggregated = (columns: string[], fn: RegExp, datedOnly: boolean) => {
    const never = new Set(columns.map(lower));
    const found: string[] = [];
    for (const dwd of prd.layers.dwd) {
      const dated = dwd.fields.some((f) => f.name === 'event_date' && f.source !== 'CURRENT_DATE');
      if (datedOnly && !dated) continue;
      const forbidden = new Set(
        dwd.fields.filter((f) => never.has(lower(f.source.trim().replace(/"/g, '')))).map((f) => f.name),
      );
      for (const t of prd.layers.dws.filter((x) => x.source_tables[0] === dwd.name))
        for (const f of t.fields)
          for (const m of f.source.matchAll(/\b(sum|avg)\s*\(\s*(\w+)\s*\)/gi))
            if (fn.test(m[1]) && forbidden.has(m[2].toLowerCase()))
              found.push(`${t.name}.${f.name} = ${f.source}`);
    }
    return found;
  };
  for (const column of truth.never_aggregate)
    check(
      `never aggregated: ${column}`,
      aggregated([column], /sum|avg/i, false).map((f) => `${f} aggregates ${column}, a key or code`),
    );
  // A level (stock on hand, a balance) is never added up over the days of a dated fact.
  for (const column of truth.levels ?? [])
    check(
      `level: ${column}`,
      aggregated([column], /sum/i, true).map((f) => `${f} adds up ${column}, a level, over a day's rows`),
    );
  // A flow (rain, deaths, goals) adds up over a day's rows: some daily aggregate sums it.
  for (const column of truth.flows ?? [])
    check(
      `flow: ${column}`,
      aggregated([column], /sum/i, true).length ? [] : [`${column}, a flow, is summed by no daily aggregate`],
    );
  for (const table of truth.not_facts ?? [])
    check(
      `not a fact: ${table}`,
      prd.facts.some((f) => lower(f.table) === lower(table)) ? [`${table}: taken as a fact`] : [],
    );

  for (const [table, role] of Object.entries(truth.roles)) {
    const got = prd.table_roles.find((r) => lower(r.table) === lower(table))?.role;
    const same =
      got === role ||
      (role === 'lookup' && got === 'dimension') ||
      (role === 'dimension' && got === 'lookup');
    check(`role: ${table}`, same ? [] : [`${table}: role ${got ?? 'none'}, expected ${role}`]);
  }
  if (truth.summaries) check('summaries', summaryProblems(prd, truth.summaries));
  if (truth.industry !== undefined) {
    const industry = lower(prd.industry.name);
    const accepted = anyOf(truth.industry).map(lower);
    const right = accepted.some((w) =>
      w === 'general' ? industry.includes('general') : industry.includes(w),
    );
    check('industry', right ? [] : [`industry ${prd.industry.name}, expected ${accepted.join(' or ')}`]);
  }

  // Labels read as English: no word twice in a row ("Total total per day" from a column named Total).
  check(
    'metric labels',
    prd.metrics
      .filter((m) => /\b(\w+) \1\b/i.test(m.description))
      .map((m) => `metric ${m.name} reads "${m.description}"`),
  );

  // Money kept as text: the quality report counts exactly the rows whose text is no amount.
  // Text that is no amount, and rows a day read from text gives no day: the quality report counts
  // exactly the rows the source shows.
  const counted = [
    ...(truth.unparsed_money ?? []).map((u) => ({ ...u, what: 'unparsed money', are: 'no amount' })),
    ...(truth.undated ?? []).map((u) => ({ ...u, what: 'undated rows', are: 'given no day' })),
  ];
  if (counted.length) {
    const report = await evaluateQualityRules(engine, projectId, prd);
    for (const u of counted) {
      const want = Number((await sourceRow(mysql, u.count_sql)).n);
      const results = report.results.filter((r) => lower(r.name).includes(lower(`${u.table}.${u.column}`)));
      check(
        `${u.what}: ${u.table}.${u.column}`,
        results.some((r) => r.violations === want && r.status === (want ? 'failed' : 'passed'))
          ? []
          : [
              `${u.table}.${u.column}: ${want} rows are ${u.are} on the source; the quality report has ${results.map((r) => `${r.name}: ${r.violations} (${r.status})`).join(', ') || 'no rule on it'}`,
            ],
      );
    }
  }

  check(
    'metrics valid',
    built.metrics.results.filter((r) => !r.valid).map((r) => `metric ${r.name} invalid: ${r.reason}`),
  );
  return checks;
}

/**
 * Roll-ups re-count a fact's rows: each is role `summary` with totals that reconcile, no other table
 * is, and none is a fact or feeds a metric (traced from each metric's ADS table down through DWS and DWD to source tables).
 */
function summaryProblems(prd: Prd, summaries: string[]): string[] {
  const lower = (s: string) => s.toLowerCase();
  const expected = new Set(summaries.map(lower));
  const problems: string[] = [];
  for (const r of prd.table_roles)
    if (r.role === 'summary' && !expected.has(lower(r.table)))
      problems.push(`${r.table}: role summary, but it is no roll-up (${r.evidence})`);
  for (const f of prd.facts)
    if (expected.has(lower(f.table))) problems.push(`${f.table}: a roll-up taken as a fact`);
  // A roll-up's totals add up to the fact's (the zoo's roll-ups sum every row of it).
  for (const r of prd.table_roles)
    if (expected.has(lower(r.table)) && r.role === 'summary' && !/totals reconcile: /.test(r.evidence))
      problems.push(`${r.table}: no total said to reconcile with the fact's (${r.evidence})`);
  const modeled = new Map(
    [...prd.layers.dwd, ...prd.layers.dws, ...prd.layers.ads].map((t) => [t.name, t.source_tables]),
  );
  const sources = (table: string, seen = new Set<string>()): string[] => {
    if (seen.has(table)) return [];
    seen.add(table);
    const below = modeled.get(table);
    return below ? below.flatMap((t) => sources(t, seen)) : [table];
  };
  for (const m of prd.metrics) {
    const read = sources(m.ads_table).filter((t) => expected.has(lower(t)));
    if (read.length) problems.push(`metric ${m.name} reads the roll-up ${read.join(', ')}`);
  }
  return problems;
}

/**
 * The data profile of the project builds, and the event range it shows for each fact dated by a
 * column of its own (a date, a time or a `yyyymmdd` integer) is the days of its DWD `event_date`.
 */
export async function profileProblems(built: BuiltProject): Promise<string[]> {
  const { prd, engine, projectId, root } = built;
  let profile;
  try {
    profile = await buildDataProfile({ warehouseRoot: root, projectId, prd });
  } catch (err) {
    return [`the data profile fails: ${(err as Error).message}`];
  }
  const problems: string[] = [];
  for (const fact of prd.facts) {
    const own = fact.event_time?.table === fact.table && !fact.event_time.path.length;
    const dwd = prd.layers.dwd.find((t) => t.source_tables[0] === fact.table);
    if (!own || !dwd || dwd.union) continue;
    const range = profile.tables.find((t) => t.source_table === fact.table)?.time_range;
    const [days] = (
      await engine.query(
        projectId,
        `SELECT CAST(MIN(event_date) AS VARCHAR) AS first, CAST(MAX(event_date) AS VARCHAR) AS last FROM "${dwd.name}"`,
        1,
        'dwd',
      )
    ).rows;
    const shown = range && [range.min.slice(0, 10), range.max.slice(0, 10)].join(' … ');
    const expected = [days.first, days.last].join(' … ');
    if (shown !== expected)
      problems.push(
        `${fact.table}: the profile shows ${shown ?? 'no event range'}, the DWD dates ${expected}`,
      );
  }
  return problems;
}

/**
 * The project's last stage: its production pipeline and dbt project written, the dbt models' days
 * read from their SELECTs as a refresh reads them (a text date's CASE with no ELSE once failed it).
 */
export async function pipelineProblems(built: BuiltProject): Promise<string[]> {
  const { prd, projectId, root } = built;
  const source = readSourceSchema(root, projectId);
  try {
    const { files } = await generatePipelineTemplates({
      projectId,
      prd,
      source,
      layers: MODELED_LAYERS.map((layer) => ({ layer, tables: layerSelects(prd, layer, projectId, source) })),
    });
    return files.some((f) => f.path === 'dbt/dbt_project.yml') ? [] : ['the pipeline has no dbt project'];
  } catch (err) {
    return [`the production pipeline fails: ${(err as Error).message}`];
  }
}
