/**
 * The standard every PRD is held to, whoever wrote it (the offline analyst or Claude): each fact
 * is dated by a real business date (its own, or its header's through joins that exist) or declared
 * a snapshot; stat_date never comes from the load time for a dated fact; no metric sums or
 * averages a key, code, line number, year or flag; relationships name real columns.
 */
import { pathTo, joinTree, mergeJoinKeys, type JoinKey } from '../../shared/join-tree';
import type { Prd, PrdTable } from '../../shared/prd-schema';
import type { SourceSnapshot, SourceTable } from '../../shared/source-schema';
import { columnMeaning, NEVER_AGGREGATED } from './offline-analyst/column-meaning';
import { eventTimeObjection } from './offline-analyst/event-time';
import { parseExpression, visit, type Expr } from '../../shared/prd-sql/expression';
import { tokenize, type Token } from '../../shared/prd-sql/expression-tokens';

const LOAD_TIME = /\b(current_date|current_timestamp|now\s*\(|localtimestamp|today\s*\()/i;

/** Every problem of the PRD against the source; empty when it meets the standard. */
export function prdProblems(prd: Prd, snapshot: SourceSnapshot): string[] {
  const problems: string[] = [];
  const tables = new Map(snapshot.tables.map((t) => [t.name, t]));
  const declared: JoinKey[] = snapshot.tables.flatMap((t) =>
    t.foreign_keys.map((fk) => ({ table: t.name, ...fk })),
  );
  const keys = mergeJoinKeys(declared, prd.relationships);

  for (const r of prd.relationships) {
    const from = tables.get(r.table);
    const to = tables.get(r.references_table);
    const missing = [
      ...(from
        ? r.columns.filter((c) => !from.columns.some((x) => x.name === c)).map((c) => `${r.table}.${c}`)
        : [r.table]),
      ...(to
        ? r.references_columns
            .filter((c) => !to.columns.some((x) => x.name === c))
            .map((c) => `${r.references_table}.${c}`)
        : [r.references_table]),
    ];
    if (missing.length)
      problems.push(
        `relationship ${r.table} -> ${r.references_table} names what the source lacks: ${missing.join(', ')}`,
      );
  }

  for (const name of prd.fact_tables) {
    const fact = prd.facts.find((f) => f.table === name);
    if (!fact) {
      problems.push(
        `fact ${name} has no entry in facts: say its event time (column and join path) or declare it a snapshot`,
      );
      continue;
    }
    if (!tables.has(name)) {
      problems.push(`fact ${name} is not a table of the source`);
      continue;
    }
    const e = fact.event_time;
    if (!e) {
      if (fact.kind !== 'snapshot')
        problems.push(`fact ${name} (${fact.kind}) has no event_time; only a snapshot may have none`);
      continue;
    }
    const holder = tables.get(e.table);
    if (!holder) {
      problems.push(`fact ${name}: event_time table ${e.table} is not in the source`);
      continue;
    }
    const objection = eventTimeObjection(holder, e.column);
    if (objection) problems.push(`fact ${name}: ${objection}`);
    if (e.table !== name && !pathTo(joinTree(keys, name), e.table))
      problems.push(
        `fact ${name}: no N:1 join path from ${name} to ${e.table} (declare it in relationships)`,
      );
  }

  problems.push(...loadTimeDates(prd), ...aggregatedKeys(prd, tables));
  return problems;
}

/** DWD tables of dated facts whose date comes from the clock rather than the data. */
function loadTimeDates(prd: Prd): string[] {
  const dated = new Set(prd.facts.filter((f) => f.event_time).map((f) => f.table));
  return prd.layers.dwd.flatMap((t) =>
    dated.has(t.source_tables[0] ?? '')
      ? t.fields
          .filter((f) => /date|time/.test(f.name) && LOAD_TIME.test(f.source))
          .map(
            (f) =>
              `${t.name}.${f.name} is the load time (${f.source}); ${t.source_tables[0]} has an event time`,
          )
      : [],
  );
}

/** SUM/AVG over a column that is a key, code, line number, year or flag, traced to the source. */
function aggregatedKeys(prd: Prd, tables: Map<string, SourceTable>): string[] {
  const all = [...prd.layers.dwd, ...prd.layers.dws, ...prd.layers.ads];
  const byName = new Map<string, PrdTable>([...prd.layers.ods, ...all].map((t) => [t.name, t]));
  const problems: string[] = [];
  const check = (where: string, summed: Summed[], upstream: PrdTable | undefined) => {
    for (const { call, ref } of summed) {
      const origin =
        ref.table !== undefined
          ? { table: ref.table, column: ref.column }
          : traceToSource(ref.column, upstream, byName);
      const meaning = origin && meaningOf(origin, tables);
      if (meaning && NEVER_AGGREGATED.has(meaning))
        problems.push(
          `${where}: ${call} aggregates ${origin.table}.${origin.column}, a ${meaning === 'calendar' ? 'year or calendar part' : meaning}`,
        );
    }
  };
  for (const t of all)
    for (const f of t.fields)
      check(`${t.name}.${f.name}`, summedInExpression(f.source), byName.get(t.source_tables[0] ?? ''));
  for (const m of prd.metrics) check(`metric ${m.name}`, summedInQuery(m.sql), byName.get(m.ads_table));
  return problems;
}

/** A SUM or AVG of one column: the call as written and the column it reads. */
interface Summed {
  call: string;
  ref: { table?: string; column: string };
}
const SUMMING = new Set(['sum', 'avg']);

/** The columns an expression sums or averages, read by the PRD's grammar (quoted names too). */
function summedInExpression(source: string): Summed[] {
  let expr: Expr;
  try {
    expr = parseExpression(source);
  } catch {
    return []; // an expression that does not parse is reported by the PRD's own rules
  }
  const found: Summed[] = [];
  visit(expr, (e) => {
    const arg = e.kind === 'call' && SUMMING.has(e.name.toLowerCase()) ? e.args[0] : undefined;
    if (arg?.kind === 'column')
      found.push({
        call: `${e.kind === 'call' ? e.name.toUpperCase() : ''}(${arg.table ? `${arg.table}.` : ''}${arg.column})`,
        ref: arg,
      });
  });
  return found;
}

/**
 * The columns a metric's query sums or averages: `SUM(col)`, `AVG(DISTINCT t.col)`, quoted names
 * too, read from its tokens (a query is not one expression). A query the tokens refuse (comments,
 * `;`) is reported by the metric checks.
 */
function summedInQuery(sql: string): Summed[] {
  let tokens: Token[];
  try {
    tokens = tokenize(sql);
  } catch {
    return [];
  }
  const name = (t: Token | undefined) =>
    t?.kind === 'word' ? t.text : t?.kind === 'quoted' ? t.name : undefined;
  const op = (t: Token | undefined, text: string) => t?.kind === 'op' && t.text === text;
  const found: Summed[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'word' || !SUMMING.has(t.text.toLowerCase()) || !op(tokens[i + 1], '(')) return;
    let j = i + 2;
    if (tokens[j]?.kind === 'word' && (tokens[j] as { text: string }).text.toLowerCase() === 'distinct') j++;
    const first = name(tokens[j]);
    const second = op(tokens[j + 1], '.') ? name(tokens[j + 2]) : undefined;
    const end = second !== undefined ? j + 3 : j + 1;
    if (first === undefined || !op(tokens[end], ')')) return;
    const ref = second !== undefined ? { table: first, column: second } : { column: first };
    found.push({ call: `${t.text.toUpperCase()}(${ref.table ? `${ref.table}.` : ''}${ref.column})`, ref });
  });
  return found;
}

/** A column of a PRD table, followed down through plain column copies to its source table's column. */
function traceToSource(
  column: string,
  table: PrdTable | undefined,
  byName: Map<string, PrdTable>,
  depth = 0,
): { table: string; column: string } | undefined {
  if (!table || depth > 4) return undefined;
  const f = table.fields.find((x) => x.name === column.toLowerCase());
  if (!f) return undefined;
  let e: Expr;
  try {
    e = parseExpression(f.source);
  } catch {
    return undefined;
  }
  if (e.kind !== 'column') return undefined;
  if (e.table !== undefined) return { table: e.table, column: e.column };
  return traceToSource(e.column, byName.get(table.source_tables[0] ?? ''), byName, depth + 1);
}

function meaningOf(
  { table: tableName, column: columnName }: { table: string; column: string },
  tables: Map<string, SourceTable>,
) {
  const table = tables.get(tableName);
  const column = table?.columns.find((c) => c.name.toLowerCase() === columnName.toLowerCase());
  if (!table || !column) return undefined;
  return columnMeaning(table, column, new Set(table.foreign_keys.flatMap((fk) => fk.columns)));
}
