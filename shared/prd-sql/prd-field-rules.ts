/**
 * The rules a PRD's fields are held to before anything is built (docs/security.md#prd-fields-are-data):
 * each type matches the type grammar, each source expression parses under the expression grammar and
 * names only columns of tables the PRD lists. A PRD that breaks one is refused with 422 naming the
 * field, whoever wrote it (an analyst or a person's edit).
 */
import { columnsOf, ExpressionError, parseExpression } from './expression';
import { checkSqlType } from './sql-type';

/** The parts of a PRD these rules read (the PRD's own types live beside its schema). */
interface FieldsOfPrd {
  layers: Record<
    'ods' | 'dwd' | 'dws' | 'ads',
    {
      name: string;
      source_tables: string[];
      fields: { name: string; type: string; source: string }[];
      union?: { part_columns: string[]; members: { table: string }[] };
      joined_unions?: { part_columns: string[]; members: { table: string }[] }[];
    }[]
  >;
}

/** A broken rule: where in the PRD, and why. */
export interface FieldProblem {
  path: (string | number)[];
  message: string;
}

const LAYERS = ['ods', 'dwd', 'dws', 'ads'] as const;

type Layer = (typeof LAYERS)[number];
type PrdTable = FieldsOfPrd['layers'][Layer][number];
/** A table's columns, by its name as a table of a layer below or as a copied source table. */
type TableColumns = (name: string, below: readonly Layer[]) => Set<string> | undefined;

const key = (name: string) => name.toLowerCase();

/** Every field of the PRD that breaks the type grammar, the expression grammar or names a column it cannot. */
export function fieldProblems(prd: FieldsOfPrd): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const tableColumns = columnsByTable(prd);
  LAYERS.forEach((layer, level) => {
    const below = LAYERS.slice(0, level);
    prd.layers[layer].forEach((table, ti) => {
      // A table whose every field is a column of its first source is built as a projection of those
      // columns (ADS over DWS): its sources only say how upstream computed them.
      const base = table.source_tables.length ? tableColumns(table.source_tables[0], below) : undefined;
      const projection = !table.union && !!base && table.fields.every((f) => base.has(key(f.name)));
      const referenceProblem = referenceRules(table, below, tableColumns);
      table.fields.forEach((field, fi) => {
        const at = (part: string) => ['layers', layer, ti, 'fields', fi, part];
        const type = checkSqlType(field.type);
        if (!type.ok)
          problems.push({ path: at('type'), message: `${table.name}.${field.name}: ${type.reason}` });
        let refs: { table?: string; column: string }[];
        try {
          refs = columnsOf(parseExpression(field.source || field.name));
        } catch (err) {
          if (!(err instanceof ExpressionError)) throw err;
          problems.push({ path: at('source'), message: `${table.name}.${field.name}: ${err.message}` });
          return;
        }
        // ODS fields describe the copy (data integration reads the source schema, not them).
        if (layer === 'ods' || projection) return;
        for (const ref of refs) {
          const problem = referenceProblem(ref);
          if (problem)
            problems.push({ path: at('source'), message: `${table.name}.${field.name}: ${problem}` });
        }
      });
    });
  });
  return problems;
}

/**
 * The columns each name may qualify: a PRD table of a layer below (its fields), else a source table
 * with an ODS copy (its copied columns).
 */
function columnsByTable(prd: FieldsOfPrd): TableColumns {
  const sourceColumns = new Map<string, Set<string>>();
  for (const t of prd.layers.ods) {
    const source = t.source_tables[0];
    if (source === undefined) continue;
    const columns = sourceColumns.get(key(source)) ?? new Set<string>();
    for (const f of t.fields) {
      columns.add(key(f.name));
      for (const c of columnsNamedBy(f.source)) columns.add(key(c.column));
    }
    sourceColumns.set(key(source), columns);
  }
  return (name, below) => {
    for (const layer of [...below].reverse()) {
      const t = prd.layers[layer].find((x) => key(x.name) === key(name));
      if (t) return new Set(t.fields.map((f) => key(f.name)));
    }
    return sourceColumns.get(key(name));
  };
}

/**
 * What is wrong with a column reference of one of `table`'s fields, if anything. A union (and each
 * union it joins) is named by its first table, which also holds the part columns it adds; its
 * other tables are read through it.
 */
function referenceRules(
  table: PrdTable,
  below: readonly Layer[],
  tableColumns: TableColumns,
): (ref: { table?: string; column: string }) => string | undefined {
  const unions = table.union ? [table.union, ...(table.joined_unions ?? [])] : [];
  const unionOf = (name: string) => unions.find((u) => key(u.members[0].table) === key(name));
  const readThrough = new Map(
    unions.flatMap((u) => u.members.slice(1).map((m) => [key(m.table), u.members[0].table] as const)),
  );
  const columnsIn = (name: string) => {
    const columns = tableColumns(name, below);
    const union = unionOf(name);
    if (!union || !columns) return columns;
    return new Set([...columns, ...union.part_columns.map(key)]);
  };
  const listed = table.source_tables
    .filter((s) => !readThrough.has(key(s)))
    .map(columnsIn)
    .filter((s) => s !== undefined);
  return (ref) => {
    if (ref.table === undefined) {
      if (!listed.length || listed.some((columns) => columns.has(key(ref.column)))) return undefined;
      return `no table in source_tables has a column ${ref.column}`;
    }
    if (readThrough.has(key(ref.table)))
      return `${ref.table} is read through the union: name it ${readThrough.get(key(ref.table))}`;
    const columns = columnsIn(ref.table);
    if (!columns) return `${ref.table} is neither a copied source table nor a table of a lower layer`;
    if (!columns.has(key(ref.column))) return `${ref.table} has no column ${ref.column}`;
    return undefined;
  };
}

/** The columns an expression names, or none when it does not parse (reported on its own). */
export function columnsNamedBy(source: string): { table?: string; column: string }[] {
  try {
    return columnsOf(parseExpression(source));
  } catch {
    return [];
  }
}

/**
 * The source column an expression is, when it is one (`rental.rental_date`, `"Order Lines"."Day"`),
 * else undefined.
 */
export function sourceColumnOf(source: string): { table: string; column: string } | undefined {
  try {
    const e = parseExpression(source);
    return e.kind === 'column' && e.table !== undefined ? { table: e.table, column: e.column } : undefined;
  } catch {
    return undefined;
  }
}
