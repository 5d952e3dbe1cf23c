/**
 * Data modeling: the DWD, DWS and ADS tables of an approved PRD as SQL. Each PRD table becomes one
 * SELECT over the layer below, with fully qualified names (`plat_<id>_<layer>.<table>`) so the same
 * script runs on DuckDB and on Athena:
 * - a table whose fields name source columns (`rental.rental_date`) starts from the ODS copy of its
 *   first source table and LEFT JOINs the others along the source's foreign keys;
 * - a table whose fields aggregate (`SUM(amount)`) groups by its other fields;
 * - a table whose every field is a column of its source (ADS over DWS) projects those columns;
 * - a DWD table with a `union` reads its family of source tables as one, named by the first, and
 *   joins each family of its `joined_unions` as one too, matching the parts as well as the keys.
 */
import type { LayerName, Prd, PrdField, PrdTable } from '../../shared/prd-schema';
import { parseExpression } from '../../shared/prd-sql/expression';
import { expressionSql, isAggregate, quotedColumn } from '../../shared/prd-sql/expression-sql';
import { checkSqlType } from '../../shared/prd-sql/sql-type';
import { joinTree, mergeJoinKeys, pathTo, type JoinKey, type JoinStep } from '../../shared/join-tree';
import type { SourceSnapshot } from '../../shared/source-schema';
import type { LayerTableSpec } from './warehouse-engine';
import { layerDatabaseName } from './warehouse-layout';
import { quoteIdent as q, quoteLiteral } from '../../shared/sql-quoting';

/** The three modeled layers, in build order. */
export const MODELED_LAYERS = ['dwd', 'dws', 'ads'] as const satisfies readonly LayerName[];
export type ModeledLayer = (typeof MODELED_LAYERS)[number];

/** A table whose SQL cannot be written (e.g. no join path); reported like a failing statement. */
export class ModelSqlError extends Error {
  constructor(
    readonly layer: LayerName,
    readonly table: string,
    message: string,
  ) {
    super(`${layer}.${table}: ${message}`);
    this.name = 'ModelSqlError';
  }
}

/** Where a name used in a PRD table's `source_tables` lives: layer and table. */
interface Resolved {
  layer: LayerName;
  table: PrdTable;
}

/** The SELECT of every modeled table of one layer, in PRD order. */
export function layerSelects(
  prd: Prd,
  layer: ModeledLayer,
  projectId: string,
  source: SourceSnapshot,
): LayerTableSpec[] {
  return prd.layers[layer].map((table) => ({
    name: table.name,
    select: tableSelect(prd, layer, table, projectId, source),
    partition_by: table.partition_by,
  }));
}

/** What writing one table's SQL needs: where it sits, how its names resolve, and how it fails. */
interface TableContext {
  prd: Prd;
  layer: ModeledLayer;
  table: PrdTable;
  source: SourceSnapshot;
  resolve: (name: string) => Resolved | undefined;
  qualified: (r: Resolved) => string;
  fail: (message: string) => ModelSqlError;
}

/** One table's SELECT (throws ModelSqlError when the PRD does not say enough to write it). */
export function tableSelect(
  prd: Prd,
  layer: ModeledLayer,
  table: PrdTable,
  projectId: string,
  source: SourceSnapshot,
): string {
  const fail = (message: string) => new ModelSqlError(layer, table.name, message);
  const ctx: TableContext = {
    prd,
    layer,
    table,
    source,
    resolve: (name) => resolveTable(prd, layer, name),
    qualified: (r) => `${layerDatabaseName(projectId, r.layer)}.${q(r.table.name)}`,
    fail,
  };
  if (!table.source_tables.length) throw fail('no source_tables');
  const base = ctx.resolve(table.source_tables[0]);
  if (!base) throw fail(`source ${table.source_tables[0]} is not a table of a lower layer`);

  // Types and expressions are parsed and written anew, never pasted (docs/security.md#prd-fields-are-data).
  const typeOf = (f: PrdField) => {
    const checked = checkSqlType(f.type);
    if (!checked.ok) throw fail(`${f.name}: ${checked.reason}`);
    return checked.type;
  };
  const baseColumns = new Set(base.table.fields.map((f) => f.name));
  // ADS over DWS: every field already exists upstream, so the table is a projection. Not over ODS:
  // an ODS copy keeps the source's column names (`park.key`), which its PRD fields only describe.
  if (base.layer !== 'ods' && !table.union && table.fields.every((f) => baseColumns.has(f.name))) {
    const list = table.fields.map((f) => `CAST(${q(f.name)} AS ${typeOf(f)}) AS ${q(f.name)}`);
    return `SELECT ${list.join(', ')}\nFROM ${ctx.qualified(base)}`;
  }

  const baseSource = base.layer === 'ods' ? base.table.source_tables[0] : undefined;
  const { exprs, referenced } = fieldExpressions(ctx, baseSource);
  let from = ctx.qualified(base);
  if (table.union) {
    if (!baseSource) throw fail('a union reads the ODS copies of source tables');
    from = `(\n${unionSelect(table.union, ctx)}\n)`;
  }
  if (baseSource) from += joinClauses(ctx, baseSource, referenced);

  const list = exprs.map(({ field, expr }) => `CAST(${expr} AS ${typeOf(field)}) AS ${q(field.name)}`);
  let sql = `SELECT ${list.join(',\n       ')}\nFROM ${from}`;
  if (exprs.some((e) => e.aggregate)) {
    const groups = exprs.flatMap((e, i) => (e.aggregate ? [] : [String(i + 1)]));
    if (groups.length) sql += `\nGROUP BY ${groups.join(', ')}`;
  }
  return sql;
}

/** The table a name of `source_tables` means: the nearest lower layer's, or a source table's ODS copy. */
function resolveTable(prd: Prd, layer: ModeledLayer, name: string): Resolved | undefined {
  const order: LayerName[] = ['ods', 'dwd', 'dws', 'ads'];
  for (const l of order.slice(0, order.indexOf(layer)).reverse()) {
    const t = prd.layers[l].find((x) => x.name === name);
    if (t) return { layer: l, table: t };
  }
  // A source table name (`rental`) stands for its ODS copy.
  const ods = prd.layers.ods.find((t) => t.source_tables[0] === name);
  return ods ? { layer: 'ods', table: ods } : undefined;
}

/**
 * Each field's expression as SQL, and the source tables they reference (`customer.first_name`),
 * which decide the joins.
 */
function fieldExpressions({ table, source, fail }: TableContext, baseSource: string | undefined) {
  const sourceNames = new Set(source.tables.map((t) => t.name));
  const referenced = new Set<string>();
  const exprs = table.fields.map((f) => {
    let parsed;
    try {
      parsed = parseExpression(f.source || f.name);
    } catch (err) {
      throw fail(`${f.name}: ${(err as Error).message}`);
    }
    const expr = expressionSql(parsed, (ref) => {
      if (ref.table !== undefined && sourceNames.has(ref.table) && baseSource) referenced.add(ref.table);
      return quotedColumn(ref);
    });
    return { field: f, expr, aggregate: isAggregate(parsed) };
  });
  return { exprs, referenced: [...referenced] };
}

/** The base's alias and the LEFT JOINs that reach every referenced source table from it. */
function joinClauses(ctx: TableContext, baseSource: string, referenced: string[]): string {
  const { table, fail } = ctx;
  // The part columns each union (the table's own, and each it joins) carries, by the name it is read as.
  const joinedUnions = new Map((table.joined_unions ?? []).map((u) => [u.members[0].table, u]));
  const partsOf = new Map<string, string[]>(table.union ? [[baseSource, table.union.part_columns]] : []);
  for (const [name, u] of joinedUnions) partsOf.set(name, u.part_columns);
  let from = ` AS ${q(baseSource)}`;
  for (const join of joinPath(ctx, baseSource, referenced)) {
    const target = ctx.resolve(join.to);
    if (!target) throw fail(`source table ${join.to} has no ODS copy in the PRD`);
    const on = join.columns.map((c, i) => `${q(join.from)}.${q(c)} = ${q(join.to)}.${q(join.toColumns[i])}`);
    let relation = ctx.qualified(target);
    // A family joined as one (docs/offline-analyst.md#table-families): its union, matched on the
    // keys and on each part too, since a key may repeat from one part to the next.
    const joined = joinedUnions.get(join.to);
    if (joined) {
      const fromParts = partsOf.get(join.from);
      if (!fromParts || fromParts.length !== joined.part_columns.length)
        throw fail(
          `the joined union of ${join.to} is reached from ${join.from}, which carries no parts to match`,
        );
      relation = `(\n${unionSelect(joined, ctx)}\n  )`;
      on.push(
        ...joined.part_columns.map((p, i) => `${q(join.from)}.${q(fromParts[i])} = ${q(join.to)}.${q(p)}`),
      );
    }
    from += `\n  LEFT JOIN ${relation} AS ${q(join.to)} ON ${on.join(' AND ')}`;
  }
  return from;
}

/**
 * A family of source tables read as one (docs/offline-analyst.md#table-families): each member's ODS
 * copy with the first member's columns, by name, and a literal for each part column, UNION ALL.
 * Columns are listed rather than `UNION ALL BY NAME` so DuckDB and Athena run the same SQL.
 */
function unionSelect(
  union: NonNullable<PrdTable['union']>,
  { source, resolve, qualified, fail }: TableContext,
): string {
  const sourceTable = (name: string) => {
    const found = source.tables.find((t) => t.name === name);
    if (!found) throw fail(`union member ${name} is not a table of the source`);
    return found;
  };
  const columns = sourceTable(union.members[0].table).columns.map((c) => c.name);
  return union.members
    .map((member) => {
      const ods = resolve(member.table);
      if (!ods || ods.layer !== 'ods') throw fail(`union member ${member.table} has no ODS copy in the PRD`);
      const own = new Map(sourceTable(member.table).columns.map((c) => [c.name.toLowerCase(), c.name]));
      const list = columns.map((c) => {
        const mine = own.get(c.toLowerCase());
        if (mine === undefined) throw fail(`union member ${member.table} has no column ${c}`);
        return mine === c ? q(c) : `${q(mine)} AS ${q(c)}`;
      });
      const parts = union.part_columns.map((p, i) => `${quoteLiteral(member.parts[i] ?? '')} AS ${q(p)}`);
      return `  SELECT ${[...list, ...parts].join(', ')} FROM ${qualified(ods)}`;
    })
    .join('\n  UNION ALL\n');
}

/**
 * The LEFT JOINs that reach every referenced table from `base` along the source's foreign keys and
 * the PRD's inferred relationships, each table by its shortest path and joined once.
 */
function joinPath({ prd, source, fail }: TableContext, base: string, referenced: string[]): JoinStep[] {
  const declared: JoinKey[] = source.tables.flatMap((t) =>
    t.foreign_keys.map((fk) => ({ table: t.name, ...fk })),
  );
  const tree = joinTree(mergeJoinKeys(declared, prd.relationships), base);
  const steps: JoinStep[] = [];
  const joined = new Set([base]);
  for (const target of referenced) {
    const path = pathTo(tree, target);
    if (!path) throw fail(`no foreign-key path from ${base} to ${target}`);
    for (const step of path) {
      if (joined.has(step.to)) continue;
      joined.add(step.to);
      steps.push(step);
    }
  }
  return steps;
}

/** The layer's script as stored and shown to users: one CREATE TABLE … AS per table. */
export function layerScript(projectId: string, layer: LayerName, tables: LayerTableSpec[]): string {
  const db = layerDatabaseName(projectId, layer);
  const header = `-- ${db}: generated from the approved PRD by plat (data modeling)\n`;
  return (
    header +
    tables
      .map(
        (t) =>
          `\nCREATE TABLE ${db}.${q(t.name)}${t.partition_by.length ? ` -- partitioned by ${t.partition_by.join(', ')}` : ''}\nAS\n${t.select};\n`,
      )
      .join('')
  );
}
